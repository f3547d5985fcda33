import { Command, CommanderError } from 'commander'
import { IsnadError } from '../errors/index.js'
import { createContext, type CommandContext, type GlobalOptions } from './command-context.js'
import { EXIT_OK, EXIT_USAGE, createOutput, reportError, type Output } from './output.js'
import { registerConfig } from './commands/config.js'
import { registerInit } from './commands/init.js'
import { checkIndex, registerLedgerAudit } from './commands/ledger-audit.js'
import { registerDashboard } from './commands/dashboard.js'
import { registerMcp } from './commands/mcp.js'
import { loadSimulatorCommands, namesSimulator, registerSimUnavailable, type RegisterSimCommands } from './commands/simulator.js'
import { registerStart } from './commands/start.js'
import { registerStatus } from './commands/status.js'
import { commandGroup, registerTableCommands } from './table-commands.js'
import { registerTrust } from './commands/trust.js'
import { packageVersion } from './version.js'

const VERSION = packageVersion()

/**
 * Runs the `isnad` CLI and resolves to its exit status. Data goes to stdout (JSON with --json),
 * logs and errors to stderr; errors carry their stable code.
 */
export async function runCli (argv: readonly string[], options: { simulator?: RegisterSimCommands } = {}): Promise<number> {
  const json = argv.includes('--json')
  const out = createOutput(json)
  let exitCode = EXIT_OK

  try {
    // The simulator's commands (the isnad-sim package) are given by its own bin, else loaded by name.
    const simulator = options.simulator ?? (namesSimulator(argv) ? await loadSimulatorCommands() : null)
    const program = createProgram(out, (code) => { exitCode = code }, simulator)
    await program.parseAsync(argv as string[])
    return exitCode
  } catch (err) {
    if (err instanceof CommanderError) {
      // --help and --version end through exitOverride with code 0; a command group run without
      // its subcommand has printed its help already.
      if (err.exitCode === 0) return EXIT_OK
      if (err.code === 'commander.help' || err.code === 'commander.helpDisplayed') return EXIT_USAGE
      return reportError(out, new IsnadError('USAGE', `${err.message.replace(/^error: /, '')} (see --help)`))
    }
    return reportError(out, err)
  }
}

/** The `isnad` program with every command registered (test/integration/api/operation-table.test.ts walks it). */
export function createProgram (out: Output, setExit: (code: number) => void, simulator: RegisterSimCommands | null = null): Command {
  const program = new Command('isnad')
    .description('isnad: signed agent memories with witnesses, anchors and local trust')
    .version(VERSION)
    .option('--home <dir>', 'node home holding .memory/ and keys/ (default: $ISNAD_HOME, else ~/.isnad)')
    .option('--json', 'machine-readable output on stdout')
    .option('--passphrase-file <path>', 'file holding the passphrase of encrypted keys (else $ISNAD_PASSPHRASE)')
    .exitOverride()
    .configureOutput({
      writeOut: (text) => { process.stdout.write(text) },
      writeErr: (text) => { process.stderr.write(text) },
      // commander's own usage errors (unknown option, missing argument, bad value) are reported
      // below in the form of every other error, `isnad: error USAGE: …` (JSON with --json), exit 2.
      outputError: () => {}
    })

  const context = (cmd: Command): CommandContext => createContext(cmd.optsWithGlobals<GlobalOptions>(), out)
  registerInit(program, context)
  registerStatus(program, context)
  registerTrust(program, context)
  registerLedgerAudit(commandGroup(program, 'ledger'), context, {
    reindex: async (ctx) => { await ctx.call('reindex', {}) },
    indexCheck: checkIndex,
    setExit
  })
  registerStart(program, context)
  registerConfig(program, context, setExit)
  if (simulator === null) registerSimUnavailable(program)
  else simulator(program, context)
  registerMcp(program, context, VERSION)
  registerDashboard(program, context)
  // Last: every operation of the table whose command is not written above.
  registerTableCommands(program, context, setExit)
  return program
}
