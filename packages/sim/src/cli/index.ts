import { runCli } from 'isnad/cli'
import { registerSim } from './sim-command.js'

/*
 * The simulator's command line. `isnad-sim <command>` is `isnad sim <command>`: the node's CLI (its
 * global options, output and error codes) with the simulator's commands given to it; the node's
 * own `isnad sim` loads registerSim from here by package name (isnad-sim/cli).
 */
export { registerSim } from './sim-command.js'

/** Runs `isnad-sim` with `argv` (process.argv): its arguments are those of `isnad sim`. */
export async function runSimCli (argv: readonly string[]): Promise<number> {
  const [node = process.execPath, script = 'isnad-sim', ...rest] = argv
  return await runCli([node, script, 'sim', ...rest], { simulator: registerSim })
}
