import type { Command } from 'commander'
import type { OperationName } from '../operations/index.js'
import type { CommandContext } from './command-context.js'
import { invoke, type OperationInput, type OperationOutput } from './invoke.js'
import { emit } from './output.js'

/*
 * A command that is one operation of the table (docs/architecture.md): its arguments and options are the
 * operation's input fields, under the field's name unless `rename` says otherwise, and nothing is
 * given that the user did not give, so the table's defaults apply as on every other surface. The
 * table's parse checks the input (its codes), the table's handler runs it (through the daemon when
 * one runs). test/integration/api/operation-table.test.ts walks these bindings: every option of a
 * bound command must be a field of its operation's input (or the command's own, listed in `local`).
 */

export interface OperationBinding<N extends OperationName> {
  operation: N
  /** The input field each positional argument fills, in order. */
  args?: readonly string[]
  /** Options whose input field has another name (`--expires` → `expiresAt`), by commander's attribute name. */
  rename?: Readonly<Record<string, string>>
  /** Options that shape the output (`--quiet`), not input fields. */
  local?: readonly string[]
  /** The command's own step between its values and the table's parse (a body read from a file). */
  prepare?: (input: Record<string, unknown>, opts: Record<string, unknown>) => Promise<Record<string, unknown>>
  /** Key operations take the passphrase as a field: read from --passphrase-file or $ISNAD_PASSPHRASE. */
  passphrase?: boolean
  /** The text rendering; `opts` are the command's options. */
  render: (output: OperationOutput<N>, opts: Record<string, unknown>) => string
  /** What --json prints, when not the output itself. */
  json?: (output: OperationOutput<N>, input: Record<string, unknown>) => unknown
}

type AnyBinding = OperationBinding<OperationName>

const BINDINGS = new WeakMap<Command, AnyBinding>()

/** The operation a command runs, when it was made with `runsOperation`. */
export function bindingOf (command: Command): AnyBinding | undefined {
  return BINDINGS.get(command)
}

/** The operation's input from a command's values: given values only, renamed where the field's name differs. */
export function inputOfValues (binding: Pick<AnyBinding, 'args' | 'rename' | 'local'>, positional: readonly unknown[], opts: Record<string, unknown>): Record<string, unknown> {
  const input: Record<string, unknown> = {}
  binding.args?.forEach((field, i) => { if (positional[i] !== undefined) input[field] = positional[i] })
  for (const [name, value] of Object.entries(opts)) {
    if (value === undefined || binding.local?.includes(name) === true) continue
    input[binding.rename?.[name] ?? name] = value
  }
  return input
}

/** Makes `command` run the operation: commander calls the action with the arguments, the options, then the command. */
export function runsOperation<N extends OperationName> (command: Command, context: (cmd: Command) => CommandContext, binding: OperationBinding<N>): Command {
  BINDINGS.set(command, binding as unknown as AnyBinding)
  return command.action(async (...params: unknown[]) => {
    const cmd = params[params.length - 1] as Command
    const opts = params[params.length - 2] as Record<string, unknown>
    const ctx = context(cmd)
    const values = inputOfValues(binding, params.slice(0, -2), opts)
    const input = binding.prepare === undefined ? values : await binding.prepare(values, opts)
    if (binding.passphrase === true) {
      const passphrase = await ctx.passphrase()
      if (passphrase !== undefined) input.passphrase = passphrase
    }
    const output = await invoke(ctx, binding.operation, input as OperationInput<N>)
    emit(ctx.out, binding.json === undefined ? output : binding.json(output, input), () => binding.render(output, opts))
  })
}
