import type { Command } from 'commander'
import type { ReindexResult } from '../../operations/index.js'
import { MAX_BUNDLE_BYTES } from '../../schema/index.js'
import { parseJson } from '../../memory-view/index.js'
import type { CommandContext } from '../command-context.js'
import { invoke, type OperationInput } from '../invoke.js'
import { emit } from '../output.js'
import { readInput } from '../option-parsers.js'

/*
 * Through the daemon when one holds the home; else reindex, prove and checkpoint work on the
 * ledgers alone (their specs' `opens`): a rebuild is what repairs an index too damaged to open,
 * and proofs and checkpoints are read from the journal's state without the writer lock.
 */

/** `isnad ledger reindex` (and the hook of `ledger repair`). */
export async function runReindex (ctx: CommandContext): Promise<ReindexResult> {
  return await invoke(ctx, 'reindex', {})
}

export function registerLedger (program: Command, context: (cmd: Command) => CommandContext): Command {
  const ledger = program.command('ledger').description('the .memory/ ledgers: rebuild the index, prove records, checkpoints, audit')

  // reindex, prove and checkpoint are generated from the table (table-commands.ts).
  ledger.command('observe')
    .description('keep a signed checkpoint of some log; a conflicting one is recorded as proof of misbehaviour')
    .argument('<file>', 'a checkpoint JSON file (from `isnad ledger checkpoint --json`), or - for stdin')
    .action(async (file: string, _opts: unknown, cmd: Command) => {
      const ctx = context(cmd)
      const document = parseJson(await readInput(file, MAX_BUNDLE_BYTES), file) as OperationInput<'observeCheckpoint'>['checkpoint']
      const { outcome } = await invoke(ctx, 'observeCheckpoint', { checkpoint: document })
      emit(ctx.out, { outcome }, () => outcome === 'conflict'
        ? 'CONFLICT: this log signed another root for the same size; recorded in coordination/conflicts.jsonl'
        : outcome === 'known' ? 'already known' : 'kept')
    })

  return ledger
}
