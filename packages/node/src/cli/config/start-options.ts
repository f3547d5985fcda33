import { CONFIG_KEYS, type ConfigKey, type ConfigValue } from './config-keys.js'
import { configPath, parseConfigValue, readConfig, type NodeConfig } from './config-file.js'

/*
 * Where each of `isnad start`'s settings comes from, first found wins (docs/configuration.md,
 * "Precedence"): the flag on the command line, then its environment variable, then the home's
 * configuration file, then the default (for the API port: the port kept in .memory/api.port, then
 * 4503). Read once, at start: a running daemon takes a changed file at its next start.
 */

export type SettingSource = 'flag' | 'env' | 'file'

/** Each environment variable's words: a list is comma-separated; empty means unset. */
function wordsOf (key: ConfigKey, text: string): string[] {
  return key.kind === 'list' ? text.split(',').map((w) => w.trim()).filter((w) => w !== '') : [text]
}

/** The value of `key` in the environment, validated (USAGE naming the variable); undefined when unset. */
export function envConfigValue (key: ConfigKey, env: NodeJS.ProcessEnv, cwd?: string): ConfigValue | undefined {
  const text = env[key.env]
  if (text === undefined || text.trim() === '') return undefined
  return parseConfigValue(key, wordsOf(key, text), `$${key.env}`, cwd)
}

/** A setting without its flag: its environment variable, else the file's value; undefined when neither sets it. */
export function configuredValue (key: ConfigKey, file: NodeConfig, env: NodeJS.ProcessEnv): { value: ConfigValue, source: Exclude<SettingSource, 'flag'> } | undefined {
  const fromEnv = envConfigValue(key, env)
  if (fromEnv !== undefined) return { value: fromEnv, source: 'env' }
  const fromFile = file[key.key]
  return fromFile === undefined ? undefined : { value: fromFile, source: 'file' }
}

/**
 * `opts` (commander's values of `isnad start`) with every option the command line did not give
 * (`fromCommandLine` false) taken from the environment, else from the file; the sources beside.
 * CONFIG_INVALID for a file it cannot trust, USAGE for a bad environment value: before anything starts.
 */
export async function withStartConfig<T extends object> (
  home: string, opts: T, fromCommandLine: (option: string) => boolean, env: NodeJS.ProcessEnv = process.env
): Promise<{ options: T, sources: Record<string, SettingSource>, file: string }> {
  const file = await readConfig(home)
  const merged: Record<string, unknown> = { ...(opts as Record<string, unknown>) }
  const sources: Record<string, SettingSource> = {}
  for (const key of CONFIG_KEYS) {
    if (fromCommandLine(key.option)) {
      sources[key.key] = 'flag'
      continue
    }
    const configured = configuredValue(key, file, env)
    if (configured !== undefined) {
      merged[key.option] = configured.value
      sources[key.key] = configured.source
    }
  }
  return { options: merged as T, sources, file: configPath(home) }
}
