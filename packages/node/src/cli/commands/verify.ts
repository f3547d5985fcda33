import type { Command } from 'commander'
import type { FdrReport } from '../../fdr/index.js'
import { nodeCryptoVerifier } from '../../fast-crypto/index.js'
import { MAX_BUNDLE_BYTES } from '../../schema/index.js'
import { parseJson, type DocumentReport } from '../../memory-view/index.js'
import type { CommandContext } from '../command-context.js'
import { EXIT_FAILURE, EXIT_OK, emit } from '../output.js'
import { readInput } from '../option-parsers.js'
import { renderTrust } from '../../operations/index.js'

/*
 * `isnad verify` never opens the node: every document it takes carries its own proof, so it works
 * on a machine with no data directory at all (FDR M-12, record-v1 §7).
 */
export function registerVerify (program: Command, context: (cmd: Command) => CommandContext, setExit: (code: number) => void): void {
  program.command('verify')
    .description('verify a memory view, bundle, inclusion proof, FDR proof or selection offline; exit 0 valid, 1 invalid (with reasons)')
    .argument('<file>', 'a JSON file from `show --json`, `export`, `ledger prove`, `query --select --json`, or - for stdin')
    .action(async (file: string, _opts: unknown, cmd: Command) => {
      const ctx = context(cmd)
      const document = parseJson(await readInput(file, MAX_BUNDLE_BYTES), file)
      // The check the `verify` operation runs on every surface, here without opening the node; the
      // table is loaded when the command runs, not on every start-up (its schemas reach the anchor modules).
      const { verifyAnyDocument } = await import('../../operations/index.js')
      const report = verifyAnyDocument(document, nodeCryptoVerifier, Date.now())
      emit(ctx.out, report, () => renderReport(report))
      setExit(report.valid ? EXIT_OK : EXIT_FAILURE)
    })
}

function renderReport (report: DocumentReport | FdrReport): string {
  if (!('records' in report)) return renderFdrReport(report)
  const lines = [`${report.valid ? 'valid' : 'INVALID'} ${report.document} (${report.records.length} records)`]
  for (const r of report.records) {
    lines.push(`  ${r.valid ? 'ok  ' : 'FAIL'} ${r.kind.padEnd(15)} ${r.id ?? '(no id)'}${r.valid ? '' : `\n       ${r.code}: ${r.reason}`}`)
  }
  if (report.trust !== undefined) lines.push('', renderTrust(report.trust))
  return lines.join('\n')
}

function renderFdrReport (report: FdrReport): string {
  if (report.proof !== undefined) {
    return `${report.valid ? 'valid' : 'INVALID'} fdr-proof${report.valid ? '' : `\n  ${report.proof.code ?? ''}: ${report.proof.reason ?? ''}`}`
  }
  const verdicts = report.verdicts ?? []
  const lines = [`${report.valid ? 'valid' : 'INVALID'} fdr-selection (${verdicts.length} selected)`]
  for (const v of verdicts) {
    lines.push(`  ${v.accepted ? 'ok  ' : 'FAIL'} ${v.worldId ?? '(unreadable)'}${v.accepted ? '' : `\n       ${v.code ?? ''}: ${v.reason ?? ''}`}`)
  }
  return lines.join('\n')
}
