import { InvalidArgumentError, type Command } from 'commander'
import type { WitnessRequestResult } from '../../operations/index.js'
import { isIsoTimestamp } from '../../schema/index.js'
import type { CommandContext } from '../command-context.js'
import { runsOperation } from '../operation-command.js'
import { collect } from '../option-parsers.js'

/*
 * `isnad witness request`. Without a daemon, a witness request is journaled and stored for local
 * agents only. The inbox and the peers commands are generated from the table (table-commands.ts);
 * what needs the network itself is refused there with USAGE and exit status 2, as every USAGE is.
 */

function timestamp (value: string): string {
  if (!isIsoTimestamp(value)) throw new InvalidArgumentError('must be a UTC timestamp like 2026-02-05T16:00:00Z')
  return value
}

function renderRequest (result: WitnessRequestResult): string {
  const { record } = result
  const lines = [
    `witness request ${result.id}`,
    `  memory    ${record.memory}`,
    `  requester ${record.requester}`,
    `  to        ${record.witnesses === undefined ? 'anyone (open request)' : record.witnesses.join('\n            ')}`
  ]
  if (record.expires_at !== undefined) lines.push(`  expires   ${record.expires_at}`)
  return lines.join('\n')
}

export function registerNetwork (program: Command, context: (cmd: Command) => CommandContext): void {
  const witness = program.command('witness').description('ask other agents to witness a memory')
  runsOperation(witness.command('request')
    .description('sign and store a witness request for a stored memory; a running node (`isnad start`) publishes it, answers arrive as attestations')
    .argument('<memory>', 'the memory id (CID)')
    .option('--to <did>', 'an addressed witness (repeatable; default: an open request anyone may answer)', collect)
    .option('--as <did>', 'request as this key instead of the default')
    .option('--expires <time>', 'when the request lapses (ISO-8601 UTC)', timestamp)
    .option('-q, --quiet', 'print only the request\'s id'), context, {
    operation: 'requestWitnesses',
    args: ['id'],
    rename: { expires: 'expiresAt' },
    local: ['quiet'],
    render: (result, opts) => opts.quiet === true ? result.id : renderRequest(result)
  })
}
