import { IsnadError } from '../errors/index.js'

/*
 * The daemon's log: one JSON object per line on stderr, so `jq`, journald, Loki or a
 * docker log driver read it as it is, and a value from the network (a peer's address, a memory's
 * summary) can never break a line or forge one: JSON escapes every control character.
 *
 *   {"time":"2026-11-27T08:42:36.123Z","level":"info","msg":"peer connected","peer":"12D3…","addr":"/ip4/…"}
 *
 * `time`, `level` and `msg` come first and are always present; the other fields depend on the
 * event. A logger is made once (the CLI's `isnad start`) and handed to what logs: no module-level
 * logger, so a test or an embedding program gets exactly the lines of the daemon it started.
 */

/** Most severe first: a logger at a level writes that level and the ones before it. */
export const LOG_LEVELS = ['error', 'warn', 'info', 'debug'] as const
export type LogLevel = (typeof LOG_LEVELS)[number]

/** @default 'info' — peers, API requests, attestations and witness requests arriving, warnings, errors. */
export const DEFAULT_LOG_LEVEL: LogLevel = 'info'
/** The environment variable `isnad start` reads when `--log-level` is not given. */
export const LOG_LEVEL_ENV = 'ISNAD_LOG_LEVEL'

export type LogFields = Record<string, unknown>

export interface Logger {
  readonly level: LogLevel
  isEnabled: (level: LogLevel) => boolean
  error: (msg: string, fields?: LogFields) => void
  warn: (msg: string, fields?: LogFields) => void
  info: (msg: string, fields?: LogFields) => void
  debug: (msg: string, fields?: LogFields) => void
  /** A logger whose lines also carry `fields` (for example `{ component: 'api' }`). */
  child: (fields: LogFields) => Logger
}

export interface LoggerInit {
  /** @default DEFAULT_LOG_LEVEL */
  level?: LogLevel
  /** Receives each line, newline included. @default process.stderr.write */
  write?: (line: string) => void
  /** @default () => new Date() */
  clock?: () => Date
}

const RESERVED = new Set(['time', 'level', 'msg'])

export function isLogLevel (value: string): value is LogLevel {
  return (LOG_LEVELS as readonly string[]).includes(value)
}

/** `--log-level` or $ISNAD_LOG_LEVEL; USAGE for anything but the four levels. */
export function parseLogLevel (value: string): LogLevel {
  const level = value.trim().toLowerCase()
  if (!isLogLevel(level)) throw new IsnadError('USAGE', `log level "${value}" is not one of ${LOG_LEVELS.join(', ')}`)
  return level
}

export function createLogger (init: LoggerInit = {}, bound: LogFields = {}): Logger {
  const level = init.level ?? DEFAULT_LOG_LEVEL
  const write = init.write ?? ((line: string) => { process.stderr.write(line) })
  const clock = init.clock ?? (() => new Date())
  const threshold = LOG_LEVELS.indexOf(level)
  const isEnabled = (at: LogLevel): boolean => LOG_LEVELS.indexOf(at) <= threshold
  // Stacks are for whoever debugs the node; at the other levels an error is its code and message.
  const errorsWithStack = level === 'debug'
  const emit = (at: LogLevel, msg: string, fields: LogFields | undefined): void => {
    if (!isEnabled(at)) return
    write(formatLine({ time: clock().toISOString(), level: at, msg }, { ...bound, ...fields }, errorsWithStack))
  }
  return {
    level,
    isEnabled,
    error: (msg, fields) => { emit('error', msg, fields) },
    warn: (msg, fields) => { emit('warn', msg, fields) },
    info: (msg, fields) => { emit('info', msg, fields) },
    debug: (msg, fields) => { emit('debug', msg, fields) },
    child: (fields) => createLogger(init, { ...bound, ...fields })
  }
}

/** A logger that writes nothing: the default of every component that takes one. */
export const silentLogger: Logger = createLogger({ level: 'error', write: () => {} })

/** One JSON line; fields named time, level or msg are dropped rather than allowed to forge them. */
export function formatLine (head: { time: string, level: LogLevel, msg: string }, fields: LogFields, withStack = false): string {
  const entry: Record<string, unknown> = { ...head }
  for (const [key, value] of Object.entries(fields)) {
    // Before JSON.stringify, which would prefer an error's own toJSON (IsnadError's has no stack).
    if (!RESERVED.has(key) && value !== undefined) entry[key] = value instanceof Error ? errorFields(value, withStack) : value
  }
  try {
    return JSON.stringify(entry, (_key, value: unknown) => replaceValue(value, withStack)) + '\n'
  } catch {
    // A cycle in some field: the event itself is still worth a line.
    return JSON.stringify({ ...head, log_error: 'fields could not be serialised' }) + '\n'
  }
}

function replaceValue (value: unknown, withStack: boolean): unknown {
  if (typeof value === 'bigint') return value.toString()
  if (value instanceof Uint8Array) return { bytes: value.byteLength }
  if (value instanceof Error) return errorFields(value, withStack)
  return value
}

/** An error as a log field: its stable code when it has one, its message, and its stack at debug. */
export function errorFields (err: Error, withStack = false): LogFields {
  const code = err instanceof IsnadError ? err.code : ('code' in err && typeof err.code === 'string' ? err.code : undefined)
  return { ...(code === undefined ? {} : { code }), message: err.message, ...(withStack && err.stack !== undefined ? { stack: err.stack } : {}) }
}
