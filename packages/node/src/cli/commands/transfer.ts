import { writeFile } from 'node:fs/promises'
import type { Command } from 'commander'
import { IsnadError } from '../../errors/index.js'
import { MAX_BUNDLE_BYTES } from '../../schema/index.js'
import type { CommandContext } from '../command-context.js'
import { invoke } from '../invoke.js'
import { emit } from '../output.js'
import { parseBundle, readInput } from '../option-parsers.js'

export function registerTransfer (program: Command, context: (cmd: Command) => CommandContext): void {
  program.command('export')
    .description('write a JSON bundle of memories with all their witnesses, anchors and requests')
    .argument('<memory...>', 'memory ids (CIDs)')
    .option('-o, --out <file>', 'write to a file instead of stdout')
    .action(async (ids: string[], opts: { out?: string }, cmd: Command) => {
      const ctx = context(cmd)
      const bundle = await invoke(ctx, 'exportBundle', { ids })
      const text = JSON.stringify(bundle, null, 2) + '\n'
      if (opts.out === undefined) {
        ctx.out.stdout(text)
        return
      }
      await writeFile(opts.out, text, { mode: 0o644 })
      ctx.out.stderr(`wrote ${bundle.records.length} records to ${opts.out}`)
    })

  program.command('import')
    .description('verify a bundle and store it; any bad record refuses the whole bundle')
    .argument('<file>', 'a bundle file, or - for stdin')
    .action(async (file: string, _opts: unknown, cmd: Command) => {
      const ctx = context(cmd)
      const bundle = parseBundle(await readInput(file, MAX_BUNDLE_BYTES))
      // Every record verified before the node is opened for writing (docs/threat-model.md, "Damage to the data directory"): a refused
      // bundle leaves the data directory byte for byte as it was; ingest checks them again.
      const { nodeCryptoVerifier } = await import('../../fast-crypto/index.js')
      const { verifyRecordAsync } = await import('../../record/index.js')
      const now = Date.now()
      const verdicts = await Promise.allSettled(bundle.records.map(async (record) => await verifyRecordAsync(record, { verifier: nodeCryptoVerifier, now })))
      // The first bad record by position, named as ingest names it (`record #N: …`).
      const index = verdicts.findIndex((verdict) => verdict.status === 'rejected')
      const failed = verdicts[index]
      if (failed?.status === 'rejected') {
        const err: unknown = failed.reason
        if (!(err instanceof IsnadError)) throw err
        throw new IsnadError(err.code, `record #${index + 1}: ${err.message}`, { details: { index, ...err.details }, cause: err })
      }
      const result = await invoke(ctx, 'importBundle', { bundle })
      emit(ctx.out, result, () =>
        `imported ${result.stored.length} new records (${result.duplicates.length} already present), rescored ${result.rescored.length} memories`)
    })
}
