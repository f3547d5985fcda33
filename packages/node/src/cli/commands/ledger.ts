import type { Command } from 'commander'
import type { ReindexResult } from '../../operations/index.js'
import { MAX_BUNDLE_BYTES } from '../../schema/index.js'
import { parseJson } from '../../memory-view/index.js'
import type { CommandContext } from '../command-context.js'
import { inputFor, invoke, type OperationInput } from '../invoke.js'
import { emit } from '../output.js'
import { readInput } from '../option-parsers.js'

/*
 * Through the daemon when one holds the home; else these three work on the data directory directly
 * rather than over local operations: a rebuild is what repairs an index too damaged to open, and
 * proofs and checkpoints are read from the journal's state without the writer lock (the local
 * operations sign a fresh checkpoint first, which needs it, and journal the session).
 */

/** The node's ledger operations, loaded only when a command runs without a daemon. */
const ledgerOps = async (): Promise<typeof import('../../node/audit/ledger-ops.js')> => await import('../../node/audit/ledger-ops.js')

/** `isnad ledger reindex` (and the hook of `ledger repair`). */
export async function runReindex (ctx: CommandContext): Promise<ReindexResult> {
  const daemon = await ctx.daemon()
  return daemon === null ? await (await ledgerOps()).reindex(ctx.home) : await daemon.reindex()
}

export function registerLedger (program: Command, context: (cmd: Command) => CommandContext): Command {
  const ledger = program.command('ledger').description('the .memory/ ledgers: rebuild the index, prove records, checkpoints, audit')

  ledger.command('reindex')
    .description('rebuild the LevelDB index from the ledgers alone')
    .action(async (_opts: unknown, cmd: Command) => {
      const ctx = context(cmd)
      const result = await runReindex(ctx)
      emit(ctx.out, result, () =>
        `reindexed ${result.events} events (${result.records} records, ${result.memories} memories) up to lc ${result.lastLc} in ${result.ms} ms`)
    })

  ledger.command('prove')
    .description('a self-contained proof that a record is in this node\'s signed Merkle log (check it with `isnad verify`)')
    .argument('<cid>', 'a record id')
    .action(async (id: string, _opts: unknown, cmd: Command) => {
      const ctx = context(cmd)
      const { id: record } = await inputFor('proveRecord', { id })
      const daemon = await ctx.daemon()
      const inclusion = daemon === null ? await (await ledgerOps()).proveRecord(ctx.home, record) : await daemon.proveRecord(record)
      ctx.out.stdout(JSON.stringify(inclusion, null, 2))
    })

  ledger.command('checkpoint')
    .description('the newest checkpoint this node signed (size and RFC 6962 root of its log)')
    .action(async (_opts: unknown, cmd: Command) => {
      const ctx = context(cmd)
      const daemon = await ctx.daemon()
      const checkpoint = daemon === null ? await (await ledgerOps()).latestCheckpoint(ctx.home) : await daemon.latestCheckpoint()
      emit(ctx.out, checkpoint, () => `log ${checkpoint.record.log}\nsize ${checkpoint.record.size}\nroot ${checkpoint.record.root}\nat   ${checkpoint.record.created_at}`)
    })

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
