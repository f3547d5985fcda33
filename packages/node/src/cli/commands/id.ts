import type { Command } from 'commander'
import { IsnadError } from '../../errors/index.js'
import type { KeyEventResult } from '../../key-events/index.js'
import type { KeyInfo } from '../../keystore/index.js'
import { isIsoTimestamp } from '../../schema/index.js'
import type { CommandContext } from '../command-context.js'
import { runsOperation } from '../operation-command.js'
import { emit } from '../output.js'
import { requirePassphrase } from './init.js'

function describeKey (key: KeyInfo): string {
  const flags = [key.default ? 'default' : '', key.encrypted ? 'encrypted' : ''].filter((f) => f !== '').join(', ')
  return `${key.did}  ${key.label ?? ''}${flags === '' ? '' : `  (${flags})`}`
}

/** A UTC ISO-8601 instant given on the command line (record-v1 R5); USAGE otherwise. */
function parseInstant (value: string): string {
  if (!isIsoTimestamp(value)) throw new IsnadError('USAGE', `${value} is not a UTC ISO-8601 timestamp like 2026-02-05T16:00:00Z`)
  return value
}

function describeEvent (result: KeyEventResult): string {
  return [
    ...(result.incepted ? [`identity ${result.identity}: key log started (the next rotation will reveal its committed key)`] : []),
    `${result.type} ${result.event} of ${result.identity}`,
    `key:         ${result.key}`,
    `current key: ${result.current_key ?? '(none: the log is closed)'}`,
    `events:      ${result.events}`
  ].join('\n')
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
      // The key is made through keys/ when no daemon runs (the spec's `opens`).
      const key = await ctx.call('createKey', {
        ...(opts.label === undefined ? {} : { label: opts.label }), default: opts.default === true, ...(passphrase === undefined ? {} : { passphrase })
      })
      emit(ctx.out, key, () => opts.quiet === true ? key.did : describeKey(key))
    })

  id.command('show')
    .description('show one key (default: the default key); never prints secret material')
    .argument('[did]', 'the did:key to show')
    .action(async (did: string | undefined, _opts: unknown, cmd: Command) => {
      const ctx = context(cmd)
      const target = did ?? await ctx.keystore().defaultDid()
      if (target === null) throw new IsnadError('UNKNOWN_KEY', 'no default key; run `isnad init`')
      const key = await ctx.call('keyInfo', { did: target })
      emit(ctx.out, key, () => [
        `did:       ${key.did}`,
        `label:     ${key.label ?? '-'}`,
        `created:   ${key.created_at}`,
        `default:   ${key.default ? 'yes' : 'no'}`,
        `encrypted: ${key.encrypted ? 'yes' : 'no'}`,
        `file:      ${key.file}`
      ].join('\n'))
    })

  // Key lifecycle (record-v1 §13): every event is signed by the identity's current key (--as, else the default key).
  runsOperation(id.command('rotate')
    .description('rotate the identity to the key its log committed to, committing to a new one (starts the log when there is none)')
    .option('--as <did>', 'the identity\'s current key (default: the default key)')
    .option('--compromised-since <time>', 'the retired key leaked: refuse what it signed from this instant on', parseInstant), context, {
    operation: 'rotateKey',
    passphrase: true,
    render: describeEvent
  })

  runsOperation(id.command('revoke')
    .description('revoke a key of the identity (default: the signing key itself, which closes the log)')
    .argument('[key]', 'the did:key to revoke: a current or former key of the identity, or a delegate')
    .option('--as <did>', 'the identity\'s current key (default: the default key)')
    .option('--effective-at <time>', 'revoked from this instant (default: now; never earlier than now)', parseInstant)
    .option('--compromised-since <time>', 'the key leaked: refuse what it signed from this earlier instant on', parseInstant)
    .option('--reason <text>', 'a short note kept in the event'), context, {
    operation: 'revokeKey',
    args: ['key'],
    passphrase: true,
    render: describeEvent
  })

  runsOperation(id.command('delegate')
    .description('delegate a device sub-key to the identity: a new key, or an existing one of keys/')
    .argument('[key]', 'an existing did:key of this home to delegate')
    .option('--as <did>', 'the identity\'s current key (default: the default key)')
    .option('--label <label>', 'a name for the new key')
    .option('--expires-at <time>', 'the delegation ends at this instant', parseInstant), context, {
    operation: 'delegateKey',
    args: ['key'],
    passphrase: true,
    render: describeEvent
  })
}
