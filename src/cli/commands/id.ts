import type { Command } from 'commander'
import { IsnadError } from '../../errors/index.js'
import type { KeyInfo } from '../../keys/index.js'
import type { CommandContext } from '../context.js'
import { emit } from '../output.js'
import { requirePassphrase } from './init.js'

function describeKey (key: KeyInfo): string {
  const flags = [key.default ? 'default' : '', key.encrypted ? 'encrypted' : ''].filter((f) => f !== '').join(', ')
  return `${key.did}  ${key.label ?? ''}${flags === '' ? '' : `  (${flags})`}`
}

export function registerId (program: Command, context: (cmd: Command) => CommandContext): void {
  const id = program.command('id').description('agent identities (Ed25519 did:key) in keys/')

  id.command('new')
    .description('create a new agent key')
    .option('--label <label>', 'a name for people')
    .option('--default', 'make it the default signing key')
    .option('--encrypt', 'encrypt it with the passphrase from --passphrase-file or $ISNAD_PASSPHRASE')
    .option('-q, --quiet', 'print only the new did')
    .action(async (opts: { label?: string, default?: boolean, encrypt?: boolean, quiet?: boolean }, cmd: Command) => {
      const ctx = context(cmd)
      const passphrase = opts.encrypt === true ? await requirePassphrase(ctx) : undefined
      const key = await ctx.withKeys(async (keys) => await keys.createKey({
        ...(opts.label === undefined ? {} : { label: opts.label }),
        makeDefault: opts.default === true,
        ...(passphrase === undefined ? {} : { passphrase })
      }))
      emit(ctx.out, key, () => opts.quiet === true ? key.did : describeKey(key))
    })

  id.command('list')
    .description('list the agent keys of this home')
    .action(async (_opts: unknown, cmd: Command) => {
      const ctx = context(cmd)
      const keys = await ctx.withKeys(async (ops) => await ops.listKeys())
      emit(ctx.out, keys, () => keys.length === 0 ? 'no keys; run `isnad init`' : keys.map(describeKey).join('\n'))
    })

  id.command('show')
    .description('show one key (default: the default key); never prints secret material')
    .argument('[did]', 'the did:key to show')
    .action(async (did: string | undefined, _opts: unknown, cmd: Command) => {
      const ctx = context(cmd)
      const key = await ctx.withKeys(async (keys) => {
        const target = did ?? await ctx.keystore().defaultDid()
        if (target === null) throw new IsnadError('UNKNOWN_KEY', 'no default key; run `isnad init`')
        return await keys.keyInfo(target)
      })
      emit(ctx.out, key, () => [
        `did:       ${key.did}`,
        `label:     ${key.label ?? '-'}`,
        `created:   ${key.created_at}`,
        `default:   ${key.default ? 'yes' : 'no'}`,
        `encrypted: ${key.encrypted ? 'yes' : 'no'}`,
        `file:      ${key.file}`
      ].join('\n'))
    })
}
