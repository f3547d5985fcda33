import type { Command } from 'commander'
import { IsnadError } from '../../errors/index.js'
import type { CommandContext } from '../command-context.js'

/*
 * `isnad sim` lives in the simulator's own package (isnad-sim, docs/simulation.md), which depends on
 * this one; the node depends on nothing of it. This is the one place the node reaches for it: by
 * package name, at run time, only when a command line names `sim` (the simulator loads libp2p's
 * daemons, vega and the rest: no other command pays for it).
 */

/** What the simulator's CLI entry (`isnad-sim/cli`) exports: it registers the `sim` commands. */
export type RegisterSimCommands = (program: Command, context: (cmd: Command) => CommandContext) => void

export const SIMULATOR_PACKAGE = 'isnad-sim'

const INSTALL_HINT = `the simulator is a package of its own: npm install ${SIMULATOR_PACKAGE} (and run it as isnad-sim, or as isnad sim beside it); a clone of the repository has it already (npm ci)`

/** Whether a command line may be a `sim` command, so its commands are worth loading. */
export function namesSimulator (argv: readonly string[]): boolean {
  return argv.slice(2).includes('sim')
}

/**
 * The simulator's commands, or null when its package is not installed. A simulator that is
 * installed but fails to load (a dependency of its own missing, a version without the entry) is an
 * error, not "not installed".
 */
export async function loadSimulatorCommands (specifier: string = `${SIMULATOR_PACKAGE}/cli`): Promise<RegisterSimCommands | null> {
  let entry: { registerSim?: unknown }
  try {
    entry = await import(specifier) as { registerSim?: unknown }
  } catch (err) {
    if (missingPackage(err, specifier)) return null
    throw err
  }
  if (typeof entry.registerSim !== 'function') throw new IsnadError('SIM_NOT_INSTALLED', `${specifier} has no registerSim: install the ${SIMULATOR_PACKAGE} of this isnad's version`)
  return entry.registerSim as RegisterSimCommands
}

/** Node's "cannot find" for the package itself, not for a module the package imports. */
function missingPackage (err: unknown, specifier: string): boolean {
  const code = (err as { code?: unknown } | null)?.code
  if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'ERR_PACKAGE_PATH_NOT_EXPORTED') return false
  const name = specifier.split('/')[0] ?? specifier
  return String((err as Error).message).includes(`'${name}'`) || String((err as Error).message).includes(`'${specifier}'`)
}

/** `isnad sim …` without the simulator: one command that takes any arguments and says how to install it. */
export function registerSimUnavailable (program: Command): void {
  program.command('sim')
    .description(`simulate a network of isnad nodes (needs the ${SIMULATOR_PACKAGE} package: docs/simulation.md)`)
    .argument('[arguments...]')
    .allowUnknownOption()
    .helpOption(false)
    .action(() => { throw new IsnadError('SIM_NOT_INSTALLED', INSTALL_HINT) })
}
