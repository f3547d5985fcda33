import { ApiError } from '../api-access/api-errors.js'
import { diskFullError, isDiskFull, IsnadError } from '../errors/index.js'
import { indexCorruptError, isLevelCorruption } from '../record-index/level/damage.js'

/** Where a command writes: data to stdout, logs and errors to stderr (STYLE: data on stdout). */
export interface Output {
  json: boolean
  stdout: (text: string) => void
  stderr: (text: string) => void
}

export function createOutput (json: boolean): Output {
  return {
    json,
    stdout: (text) => { process.stdout.write(text.endsWith('\n') ? text : text + '\n') },
    stderr: (text) => { process.stderr.write(text.endsWith('\n') ? text : text + '\n') }
  }
}

/** Prints `data` as JSON with --json, else the text rendering. */
export function emit (out: Output, data: unknown, text: () => string): void {
  out.stdout(out.json ? JSON.stringify(data, null, 2) : text())
}

/** Exit statuses: 0 ok, 1 an error or an invalid document, 2 a usage error. */
export const EXIT_OK = 0
export const EXIT_FAILURE = 1
export const EXIT_USAGE = 2

/**
 * Prints an error with its stable code and returns the exit status. IsnadError comes from the node,
 * ApiError from a daemon's HTTP layer (UNAUTHORIZED, …); anything else is reported as IO_ERROR.
 */
export function reportError (out: Output, err: unknown): number {
  // A damaged LevelDB read deep inside a command: named, with the command that rebuilds the index.
  const named = (!(err instanceof IsnadError) || err.code === 'IO_ERROR') && isLevelCorruption(err)
    ? indexCorruptError(undefined, err)
    // A full disk surfacing raw from LevelDB (a put, a batch): named, with what to do.
    : (!(err instanceof IsnadError) || err.code === 'IO_ERROR') && isDiskFull(err) ? diskFullError('the node\'s data directory', err) : err
  const error = named instanceof IsnadError || named instanceof ApiError
    ? { code: named.code, message: named.message, ...(named instanceof IsnadError && named.details !== undefined ? { details: named.details } : {}) }
    : { code: 'IO_ERROR', message: named instanceof Error ? named.message : String(named) }
  if (out.json) out.stderr(JSON.stringify({ error }))
  else out.stderr(`isnad: error ${error.code}: ${error.message}`)
  return error.code === 'USAGE' ? EXIT_USAGE : EXIT_FAILURE
}
