import type { z } from 'zod'
import type { OPERATION_SPECS, OperationInput, OperationName, OperationOutput, OperationSpec } from '../operations/index.js'
import type { CommandContext } from './command-context.js'

/*
 * The CLI's way into the table of operations (src/operations/table): a command turns its arguments and
 * options into the operation's input, which is parsed exactly as the HTTP API and the MCP tools parse
 * it (so `isnad show not-a-cid` is CID_INVALID with or without a daemon), then runs through the
 * context's `call` (the daemon when one runs, else what the spec opens). The generated commands
 * (table-commands.ts) load the table at start-up; it holds none of the heavy stacks
 * (test/integration/cli/startup-imports.test.ts).
 */

const table = async (): Promise<typeof import('../operations/index.js')> => await import('../operations/index.js')

type Spec<N extends OperationName> = (typeof OPERATION_SPECS)[N]
export type { OperationInput, OperationOutput }

/** The operation's input from a command's values: the table's parse, its codes. */
export async function inputFor<N extends OperationName> (name: N, raw: OperationInput<N>): Promise<z.output<Spec<N>['input']>> {
  const { parseOperationInput } = await table()
  return parseOperationInput(await specOf(name), raw) as z.output<Spec<N>['input']>
}

/** Parses and runs one operation (CommandContext.call). */
export async function invoke<N extends OperationName> (ctx: CommandContext, name: N, raw: OperationInput<N>): Promise<OperationOutput<N>> {
  return await ctx.call(name, raw)
}

/** Runs an input already parsed by `inputFor` (a command that checks something between the two). */
export async function runParsed (ctx: CommandContext, spec: OperationSpec, input: Record<string, unknown>): Promise<unknown> {
  return await ctx.call(spec.name as OperationName, input as never)
}

/** The operation's entry in the table. */
export async function specOf (name: OperationName): Promise<OperationSpec> {
  return (await table()).OPERATION_SPECS[name] as unknown as OperationSpec
}
