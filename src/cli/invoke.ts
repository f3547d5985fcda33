import type { z } from 'zod'
import type { OPERATION_SPECS, OperationName, OperationSpec } from '../operations/index.js'
import type { CommandContext } from './command-context.js'

/*
 * The CLI's way into the table of operations (src/operations/table): a command turns its arguments and
 * options into the operation's input, which is parsed here exactly as the HTTP API and the MCP
 * tools parse it (so `isnad show not-a-cid` is CID_INVALID with or without a daemon), then runs the
 * operation's handler through the daemon when one runs, else over the data directory. The table is
 * loaded when a command runs (its schemas reach the anchor and FDR modules), not on every start-up.
 */

const table = async (): Promise<typeof import('../operations/index.js')> => await import('../operations/index.js')

type Spec<N extends OperationName> = (typeof OPERATION_SPECS)[N]
export type OperationInput<N extends OperationName> = z.input<Spec<N>['input']>
export type OperationOutput<N extends OperationName> = z.output<Spec<N>['output']>

/** The operation's input from a command's values: the table's parse, its codes. */
export async function inputFor<N extends OperationName> (name: N, raw: OperationInput<N>): Promise<z.output<Spec<N>['input']>> {
  const { parseOperationInput } = await table()
  return parseOperationInput(await specOf(name), raw) as z.output<Spec<N>['input']>
}

/**
 * Parses and runs one operation. A signing operation signs as `as` (else the default key), its key
 * unlocked with --passphrase-file or $ISNAD_PASSPHRASE, and the seed wiped after. Operations that
 * only read open the data directory read-only.
 */
export async function invoke<N extends OperationName> (ctx: CommandContext, name: N, raw: OperationInput<N>): Promise<OperationOutput<N>> {
  const input = await inputFor(name, raw) as Record<string, unknown>
  return await runParsed(ctx, await specOf(name), input) as OperationOutput<N>
}

/** Runs an input already parsed by `inputFor` (a command that checks something between the two). */
export async function runParsed (ctx: CommandContext, spec: OperationSpec, input: Record<string, unknown>): Promise<unknown> {
  if (spec.signs !== true) return await ctx.withOps(async (ops) => await spec.run(ops, input, undefined), spec.readOnly === true ? 'read' : 'write')
  const did = await ctx.signerDid(input.as as string | undefined)
  return await ctx.withOps(async (ops) => await ctx.withSigner(ops, did, async (signer) => await spec.run(ops, input, signer)))
}

/** The operation's entry in the table. */
export async function specOf (name: OperationName): Promise<OperationSpec> {
  return (await table()).OPERATION_SPECS[name] as unknown as OperationSpec
}
