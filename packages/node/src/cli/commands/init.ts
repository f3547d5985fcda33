import type { Command } from 'commander'
import { requirePassphrase, type CommandContext } from '../command-context.js'
import { emit } from '../output.js'

export function registerInit (program: Command, context: (cmd: Command) => CommandContext): void {
  program.command('init')
    .description('create the node home: .memory/ (with its LevelDB index) and keys/ with a default agent key')
    .option('--label <label>', 'label of the default key', 'default')
    .option('--encrypt', 'encrypt the default key with the passphrase from --passphrase-file or $ISNAD_PASSPHRASE')
    .action(async (opts: { label: string, encrypt?: boolean }, cmd: Command) => {
      const ctx = context(cmd)
      const passphrase = opts.encrypt === true ? await requirePassphrase(ctx) : undefined
      const { initHome } = await import('../../node/home/init-home.js')
      const result = await initHome(ctx.home, { label: opts.label, ...(passphrase === undefined ? {} : { passphrase }) })
      emit(ctx.out, { home: result.paths.home, data: result.paths.data, keys: result.paths.keys, created_key: result.createdKey, default_key: result.defaultKey }, () => [
        `${result.createdKey ? 'initialized' : 'already initialized'} ${result.paths.data}`,
        `default agent: ${result.defaultKey.did}${result.defaultKey.encrypted ? ' (encrypted)' : ''}`
      ].join('\n'))
    })
}
