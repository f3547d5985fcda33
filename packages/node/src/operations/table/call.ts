import type { z } from 'zod'
import { parseOperationInput, runOperation, type OperationNode, type OperationSpec } from './spec.js'
import { OPERATION_SPECS, type OperationName } from './table.js'

/*
 * One way to run any operation of the table, on every surface: `call(name, input)` with the input and
 * output the table declares. The HTTP client implements it over a daemon's API, `localCaller` over
 * the node's own operations; the library's methods and the CLI's commands are built on it.
 */

/** An operation's input, with the names every surface uses (docs/architecture.md, "Argument names"). */
export type OperationInput<N extends OperationName> = z.input<(typeof OPERATION_SPECS)[N]['input']>
/** What the operation returns: the same shape on every surface (the HTTP response body). */
export type OperationOutput<N extends OperationName> = z.output<(typeof OPERATION_SPECS)[N]['output']>

export interface OperationCaller {
  call: <N extends OperationName>(name: N, input: OperationInput<N>) => Promise<OperationOutput<N>>
}

/** One method per operation of the table, named after it: adding an operation adds its method. */
export type OperationMethods = { readonly [N in OperationName]: (input: OperationInput<N>) => Promise<OperationOutput<N>> }

/**
 * The table's operations run on a node of this process: the table's parse, then its handler; a
 * signing operation signs as `as` (else the default key), unlocked with the input's passphrase or
 * `passphrase`, and the seed is wiped after.
 */
export function localCaller (node: OperationNode, passphrase?: string): OperationCaller {
  return {
    async call<N extends OperationName> (name: N, raw: OperationInput<N>): Promise<OperationOutput<N>> {
      const spec = OPERATION_SPECS[name] as unknown as OperationSpec
      return await runOperation(spec, node, parseOperationInput(spec, raw), passphrase) as OperationOutput<N>
    }
  }
}

/** `caller.call(name, input)` as `methods[name](input)`, for every operation of the table. */
export function operationMethods (caller: OperationCaller): OperationMethods {
  const entries = Object.keys(OPERATION_SPECS).map((name) => [name, async (input: unknown) => await caller.call(name as OperationName, input as never)])
  return Object.fromEntries(entries) as unknown as OperationMethods
}
