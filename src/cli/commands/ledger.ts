import type { Command } from 'commander'
import { MAX_BUNDLE_BYTES } from '../../schema/index.js'
import { latestCheckpoint, observeCheckpoint, proveRecord, reindex } from '../../node/index.js'
import { parseJson } from '../../view/index.js'
import type { CommandContext } from '../context.js'
import { emit } from '../output.js'
import { readInput } from '../parse.js'

export function registerLedger (program: Command, context: (cmd: Command) => CommandContext): Command {
  const ledger = program.command('ledger').description('the .memory/ ledgers: rebuild the index, prove records, checkpoints, audit')

  ledger.command('reindex')
    .description('rebuild the LevelDB index from the ledgers alone')
    .action(async (_opts: unknown, cmd: Command) => {
      const ctx = context(cmd)
      const result = await reindex(ctx.home)
      emit(ctx.out, result, () =>
        `reindexed ${result.events} events (${result.records} records, ${result.memories} memories) up to lc ${result.lastLc} in ${result.ms} ms`)
    })

  ledger.command('prove')
    .description('a self-contained proof that a record is in this node\'s signed Merkle log (check it with `isnad verify`)')
    .argument('<cid>', 'a record id')
    .action(async (id: string, _opts: unknown, cmd: Command) => {
      const ctx = context(cmd)
      const inclusion = await proveRecord(ctx.home, id)
      ctx.out.stdout(JSON.stringify(inclusion, null, 2))
    })

  ledger.command('checkpoint')
    .description('the newest checkpoint this node signed (size and RFC 6962 root of its log)')
    .action(async (_opts: unknown, cmd: Command) => {
      const ctx = context(cmd)
      const checkpoint = await latestCheckpoint(ctx.home)
      emit(ctx.out, checkpoint, () => `log ${checkpoint.record.log}\nsize ${checkpoint.record.size}\nroot ${checkpoint.record.root}\nat   ${checkpoint.record.created_at}`)
    })

  ledger.command('observe')
    .description('keep a signed checkpoint of some log; a conflicting one is recorded as proof of misbehaviour')
    .argument('<file>', 'a checkpoint JSON file (from `isnad ledger checkpoint --json`), or - for stdin')
    .action(async (file: string, _opts: unknown, cmd: Command) => {
      const ctx = context(cmd)
      const outcome = await observeCheckpoint(ctx.home, parseJson(await readInput(file, MAX_BUNDLE_BYTES), file))
      emit(ctx.out, { outcome }, () => outcome === 'conflict'
        ? 'CONFLICT: this log signed another root for the same size; recorded in coordination/conflicts.jsonl'
        : outcome === 'known' ? 'already known' : 'kept')
    })

  return ledger
}
