import type { Command } from 'commander'
import type { CommandContext } from '../command-context.js'
import { EXIT_FAILURE } from '../output.js'

/*
 * `isnad config get|set|unset|show`: the home's configuration file, `.memory/config.json`
 * (docs/configuration.md), whose keys are `isnad start`'s flags. A command of the CLI only, not an
 * operation of the API's table: the file belongs to the home on this machine and is read by
 * `isnad start` before any node or API exists; through the API, a client holding the token could
 * widen what the daemon listens on or reads (`anchor-dir`). While a daemon runs, the file is
 * changed all the same and the daemon takes it at its next start.
 */

type ConfigModule = typeof import('../config/index.js')
type ConfigKey = ReturnType<ConfigModule['requireConfigKey']>
const config = async (): Promise<ConfigModule> => await import('../config/index.js')

/** A note on stderr when a daemon runs on the home: it read the file when it started. */
async function noteRunningDaemon (ctx: CommandContext): Promise<void> {
  if (await ctx.daemon() !== null) {
    ctx.out.stderr('isnad: a daemon is running on this home: it takes the change when it is restarted (stop it, then `isnad start`)')
  }
}

export function registerConfig (program: Command, context: (cmd: Command) => CommandContext, setExit: (code: number) => void): void {
  const group = program.command('config')
    .description('the settings `isnad start` takes without flags, kept in .memory/config.json (keys: its flags; docs/configuration.md)')

  group.command('show')
    .description('every key set in the file, and the environment variables that override them now')
    .action(async (_opts: unknown, cmd: Command) => {
      const ctx = context(cmd)
      const { CONFIG_KEYS, configPath, envConfigValue, formatConfigValue, readConfig } = await config()
      const values = await readConfig(ctx.home)
      const overridden = Object.fromEntries(CONFIG_KEYS.flatMap((k) => {
        try {
          return envConfigValue(k, process.env) === undefined ? [] : [[k.key, k.env]]
        } catch {
          return [[k.key, k.env]] // an invalid value still overrides: `isnad start` refuses it
        }
      })) as Record<string, string>
      if (ctx.out.json) {
        ctx.out.stdout(JSON.stringify({ file: configPath(ctx.home), values, overridden_by_env: overridden }, null, 2))
        return
      }
      const lines = CONFIG_KEYS.flatMap((k) => {
        const value = values[k.key]
        const env = overridden[k.key] === undefined ? '' : `   (overridden by $${overridden[k.key]})`
        if (value === undefined) return env === '' ? [] : [`${k.key} unset${env}`]
        return [`${k.key} = ${formatConfigValue(value).split('\n').join(', ')}${env}`]
      })
      ctx.out.stdout([`# ${configPath(ctx.home)}`, ...(lines.length === 0 ? ['# nothing set: `isnad start` runs on its defaults'] : lines)].join('\n'))
    })

  /** What get, set and unset start from: the command's context, the config module and the key it names (USAGE for an unknown one). */
  const namedKey = async (name: string, cmd: Command): Promise<{ ctx: CommandContext, cfg: ConfigModule, key: ConfigKey }> => {
    const cfg = await config()
    return { ctx: context(cmd), cfg, key: cfg.requireConfigKey(name) }
  }

  group.command('get <key>')
    .description('the value of one key (a list one value per line); exit status 1 when it is not set')
    .action(async (name: string, _opts: unknown, cmd: Command) => {
      const { ctx, cfg: { formatConfigValue, readConfig }, key } = await namedKey(name, cmd)
      const value = (await readConfig(ctx.home))[key.key]
      if (value === undefined) setExit(EXIT_FAILURE)
      if (ctx.out.json) ctx.out.stdout(JSON.stringify(value ?? null))
      else if (value !== undefined) ctx.out.stdout(formatConfigValue(value))
    })

  group.command('set <key> <value...>')
    .description('set a key (a list key takes one or more values; on/off for a switch); `isnad start` uses it from its next start')
    .action(async (name: string, words: string[], _opts: unknown, cmd: Command) => {
      const { ctx, cfg: { parseConfigValue, readConfig, writeConfig, formatConfigValue }, key } = await namedKey(name, cmd)
      const value = parseConfigValue(key, words, key.key)
      const current = await readConfig(ctx.home) // a file it cannot trust is refused, never overwritten
      await writeConfig(ctx.home, { ...current, [key.key]: value })
      if (ctx.out.json) ctx.out.stdout(JSON.stringify({ key: key.key, value }))
      else ctx.out.stdout(`${key.key} = ${formatConfigValue(value).split('\n').join(', ')}`)
      await noteRunningDaemon(ctx)
    })

  group.command('unset <key>')
    .description('remove a key: `isnad start` falls back to its environment variable, else its default')
    .action(async (name: string, _opts: unknown, cmd: Command) => {
      const { ctx, cfg: { readConfig, writeConfig }, key } = await namedKey(name, cmd)
      const current = await readConfig(ctx.home)
      const had = current[key.key] !== undefined
      if (had) {
        const { [key.key]: _removed, ...rest } = current
        await writeConfig(ctx.home, rest)
      }
      if (ctx.out.json) ctx.out.stdout(JSON.stringify({ key: key.key, removed: had }))
      else ctx.out.stdout(had ? `${key.key} unset` : `${key.key} was not set`)
      if (had) await noteRunningDaemon(ctx)
    })
}
