import type { Command } from 'commander'
import { nodeCryptoVerifier } from '../../identity/index.js'
import { MAX_BUNDLE_BYTES } from '../../schema/index.js'
import { parseJson, verifyDocument } from '../../view/index.js'
import type { CommandContext } from '../context.js'
import { EXIT_FAILURE, EXIT_OK, emit } from '../output.js'
import { readInput } from '../parse.js'
import { renderTrust } from '../render.js'

export function registerVerify (program: Command, context: (cmd: Command) => CommandContext, setExit: (code: number) => void): void {
  program.command('verify')
    .description('verify a memory view or bundle file offline; exit 0 valid, 1 invalid (with reasons)')
    .argument('<file>', 'a JSON file from `show --json` or `export`, or - for stdin')
    .action(async (file: string, _opts: unknown, cmd: Command) => {
      const ctx = context(cmd)
      const document = parseJson(await readInput(file, MAX_BUNDLE_BYTES), file)
      const report = verifyDocument(document, { verifier: nodeCryptoVerifier, now: Date.now() })
      emit(ctx.out, report, () => {
        const lines = [`${report.valid ? 'valid' : 'INVALID'} ${report.document} (${report.records.length} records)`]
        for (const r of report.records) {
          lines.push(`  ${r.valid ? 'ok  ' : 'FAIL'} ${r.kind.padEnd(15)} ${r.id ?? '(no id)'}${r.valid ? '' : `\n       ${r.code}: ${r.reason}`}`)
        }
        if (report.trust !== undefined) lines.push('', renderTrust(report.trust))
        return lines.join('\n')
      })
      setExit(report.valid ? EXIT_OK : EXIT_FAILURE)
    })
}
