import { readFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import { z } from 'zod'
import { IsnadError } from '../../errors/index.js'
import { ensureDirectory, errnoOf, writeFileAtomic } from '../../fs/index.js'
import { nodePaths } from '../../home/index.js'
import { BOOLEAN_WORDS, CONFIG_KEYS, configKeyNamed, type ConfigKey, type ConfigValue } from './config-keys.js'

/*
 * A node home's configuration file, `.memory/config.json` (docs/configuration.md): the values
 * `isnad start` takes when its command line and the environment say nothing. JSON, as every other
 * file of `.memory/` is, so no parser beyond the platform's is needed. Written atomically (a temp
 * file, fsync, rename); read strictly: a file that is not JSON, or holds an unknown key or a bad
 * value, is CONFIG_INVALID naming the file and the key, and is never rewritten until it is fixed.
 */

/** The file's name inside `.memory/`. */
export const CONFIG_FILE = 'config.json'

/** @default 0o644 — the file holds no secret (keys and the API token live elsewhere). */
const CONFIG_FILE_MODE = 0o644

/** What the file holds: each key set, with its value. */
export type NodeConfig = Partial<Record<string, ConfigValue>>

/** `<home>/.memory/config.json` */
export function configPath (home: string): string {
  return resolve(nodePaths(home).data, CONFIG_FILE)
}

const FILE_SCHEMA = z.strictObject(Object.fromEntries(CONFIG_KEYS.map((k) => [k.key, k.schema.optional()])))

/** Zod's issues as one line each: `api-port: must be a port 1-65535`. */
function describeIssues (error: z.ZodError): string {
  return error.issues.map((issue) => {
    if (issue.code === 'unrecognized_keys') return `unknown key${issue.keys.length > 1 ? 's' : ''} ${issue.keys.join(', ')} (keys: ${CONFIG_KEYS.map((k) => k.key).join(', ')})`
    // A list's item is named by its position from 1: `bootstrap value 2: …`.
    const at = issue.path.map((part) => typeof part === 'number' ? `value ${part + 1}` : String(part)).join(' ')
    return at === '' ? issue.message : `${at}: ${issue.message}`
  }).join('; ')
}

/** The file's keys and values; {} when there is no file. CONFIG_INVALID for a file it cannot trust. */
export async function readConfig (home: string): Promise<NodeConfig> {
  const path = configPath(home)
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (err) {
    if (errnoOf(err) === 'ENOENT') return {}
    throw new IsnadError('IO_ERROR', `cannot read ${path}: ${errnoOf(err) ?? String(err)}`, { cause: err, details: { file: path } })
  }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (cause) {
    throw new IsnadError('CONFIG_INVALID',
      `${path} is not valid JSON (${cause instanceof Error ? cause.message : String(cause)}): fix it by hand or move it aside; it is left as it is`,
      { cause, details: { file: path } })
  }
  const parsed = FILE_SCHEMA.safeParse(json)
  if (!parsed.success) {
    throw new IsnadError('CONFIG_INVALID', `${path}: ${describeIssues(parsed.error)}: fix the file by hand, or move it aside and set the keys again; it is left as it is`,
      { details: { file: path } })
  }
  return parsed.data as NodeConfig
}

/** Writes the file atomically, its keys in the table's order. */
export async function writeConfig (home: string, config: NodeConfig): Promise<void> {
  const ordered: NodeConfig = {}
  for (const { key } of CONFIG_KEYS) if (config[key] !== undefined) ordered[key] = config[key]
  const path = configPath(home)
  await ensureDirectory(nodePaths(home).data)
  await writeFileAtomic(path, `${JSON.stringify(ordered, null, 2)}\n`, CONFIG_FILE_MODE)
}

/** The key named `name`; USAGE, listing the keys, for any other name. */
export function requireConfigKey (name: string): ConfigKey {
  const found = configKeyNamed(name)
  if (found === undefined) throw new IsnadError('USAGE', `${JSON.stringify(name)} is not a configuration key; the keys are ${CONFIG_KEYS.map((k) => k.key).join(', ')} (docs/configuration.md)`)
  return found
}

/**
 * A value as a person writes it (`isnad config set` arguments, an environment variable's text)
 * turned into the key's type and validated; USAGE naming the key and `source` when it is not valid.
 * A list from the environment is comma-separated.
 */
export function parseConfigValue (key: ConfigKey, words: readonly string[], source: string, cwd = process.cwd()): ConfigValue {
  const refuse = (why: string): IsnadError => new IsnadError('USAGE', `${source}: ${why}`, { details: { key: key.key } })
  if (key.kind !== 'list' && words.length !== 1) throw refuse(`takes one value, got ${words.length}`)
  const [word = ''] = words
  let value: unknown
  switch (key.kind) {
    case 'list': value = key.paths === true ? words.map((w) => resolve(cwd, w)) : [...words]; break
    case 'integer': value = /^\s*\d+\s*$/.test(word) ? Number(word) : word; break
    case 'boolean': value = BOOLEAN_WORDS[word.trim().toLowerCase()] ?? word; break
    case 'word': value = word.trim().toLowerCase(); break
  }
  const parsed = key.schema.safeParse(value)
  if (!parsed.success) {
    const why = key.kind === 'boolean' && typeof value !== 'boolean' ? `must be on or off, got ${JSON.stringify(word)}` : describeIssues(parsed.error)
    throw refuse(why)
  }
  return parsed.data
}

/** A value as `isnad config get` prints it: a list one value per line. */
export function formatConfigValue (value: ConfigValue): string {
  if (Array.isArray(value)) return value.join('\n')
  if (typeof value === 'boolean') return value ? 'on' : 'off'
  return String(value)
}
