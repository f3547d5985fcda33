import { Command } from 'commander'
import { checkIndex, registerLedgerAudit } from '../../../src/cli/commands/ledger-audit.js'
import { createContext, type GlobalOptions } from '../../../src/cli/command-context.js'
import { reportError, type Output } from '../../../src/cli/output.js'
import { reindex } from '../../../src/node/index.js'

/**
 * `isnad ledger …` run in-process on a real home with `--json`, wired as src/cli/program.ts wires it
 * (the node's reindex and index check; every other hook the command's default).
 */
export async function runLedgerCli (home: string, ...args: string[]): Promise<{ code: number, json: <T>() => T }> {
  let stdout = ''
  const out: Output = { json: true, stdout: (t) => { stdout += t + '\n' }, stderr: () => {} }
  let code = 0
  const program = new Command('isnad').option('--home <dir>').option('--json').exitOverride()
  registerLedgerAudit(program.command('ledger'), (cmd) => createContext(cmd.optsWithGlobals<GlobalOptions>(), out), {
    reindex: async (ctx) => { await reindex(ctx.home) },
    indexCheck: checkIndex,
    setExit: (c) => { code = c }
  })
  try {
    await program.parseAsync(['node', 'isnad', '--home', home, '--json', ...args])
  } catch (err) {
    code = reportError(out, err)
  }
  return { code, json: <T>() => JSON.parse(stdout) as T }
}
