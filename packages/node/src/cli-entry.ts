/*
 * The node's CLI for the simulator's commands (`isnad/cli`): what the `sim` commands are written
 * with and the CLI they plug into. Light, as the CLI's start-up is: `isnad sim --help` loads none of
 * the simulation (engine.ts, `isnad/engine`, is what a simulation runs). Not a stable API for other
 * programs: it follows the simulator.
 */
export { runCli } from './cli/index.js'
export { type RegisterSimCommands } from './cli/commands/simulator.js'
export { type CommandContext } from './cli/command-context.js'
export { parsePositiveInt } from './cli/option-parsers.js'
export { emit } from './cli/output.js'
export { IsnadError } from './errors/index.js'
