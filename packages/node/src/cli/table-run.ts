import { writeFile } from 'node:fs/promises'
import type { Command } from 'commander'
import type { z } from 'zod'
import { IsnadError } from '../errors/index.js'
import { parseJson } from '../memory-view/index.js'
import { parseOperationInput, type CliFile, type OperationName, type OperationSpec } from '../operations/index.js'
import { requirePassphrase, type CommandContext } from './command-context.js'
import { EXIT_FAILURE, emit } from './output.js'
import { readInput } from './option-parsers.js'
import { kebabOf, numberFault } from './table-options.js'

/*
 * What a generated command does when it runs (table-commands.ts makes it): its values become the
 * operation's input as its spec's `cli` declaration says (files read, a field built from its
 * options, the default key filled in), the table's parse checks it, the declaration's `before`
 * checks run, the operation runs where CommandContext.call chooses, and the output is printed
 * (--quiet, --json, -o) with the exit status the declaration gives it.
 */

/** What one option of a generated command fills: an input field (its value, a file's content, a passphrase, a part of a built field) or the output's shape. */
export type OptionSource =
  | { kind: 'value' | 'file' | 'passphrase', field: string, long?: string }
  | { kind: 'part', field: string, part: string, long?: string }
  | { kind: 'quiet' | 'out', long?: string }

/** How a generated command runs one operation. */
export interface CommandPlan {
  spec: OperationSpec
  /** The flag (attribute name) that selects this operation on another's command: `select` for `query --select`. */
  flag?: string
  /** The input fields its positional arguments fill, in order. */
  args: readonly string[]
  /** Each option by commander's attribute name. */
  options: Map<string, OptionSource>
}

/** The action of a generated command: commander calls it with the arguments, the options, then the command. */
export async function runPlanned (plans: readonly CommandPlan[], params: unknown[], context: (cmd: Command) => CommandContext, setExit: (code: number) => void): Promise<void> {
  const cmd = params[params.length - 1] as Command
  const opts = params[params.length - 2] as Record<string, unknown>
  const plan = plans.find((p) => p.flag !== undefined && opts[p.flag] === true) ?? plans[0]
  if (plan === undefined) return
  refuseOthers(plans, plan, opts)
  const ctx = context(cmd)
  const { spec } = plan
  const raw = await inputOf(plan, params.slice(0, -2), opts, ctx)
  const parsed = parseOperationInput(spec, raw) as Record<string, unknown>
  // The refusals that need no writing session come first (docs/threat-model.md, "Damage to the data directory").
  if (spec.signs === true) await ctx.signerDid(parsed.as as string | undefined)
  if (spec.cli.before !== undefined) {
    const call = async (name: string, input: Record<string, unknown>): Promise<unknown> => await ctx.call(name as OperationName, input as never)
    await spec.cli.before(parsed, { call, daemon: await ctx.daemon() !== null })
  }
  const output = await ctx.call(spec.name as OperationName, raw as never) as unknown
  await print(ctx, plan, output, opts)
  if (spec.cli.fails?.(output) === true) setExit(EXIT_FAILURE)
}

/** USAGE for an option of another operation of the command (`query --since` with `--select`). */
function refuseOthers (plans: readonly CommandPlan[], plan: CommandPlan, opts: Record<string, unknown>): void {
  for (const [name, value] of Object.entries(opts)) {
    if (value === undefined || plan.options.has(name) || plans.some((p) => p.flag === name)) continue
    const owner = plans.find((p) => p.options.has(name))
    const long = owner?.options.get(name)?.long ?? name
    if (owner?.flag !== undefined) throw new IsnadError('USAGE', `${long} goes with --${owner.flag}`)
    throw new IsnadError('USAGE', `${long} does not go with --${plan.flag ?? ''}`)
  }
}

async function inputOf (plan: CommandPlan, positional: readonly unknown[], opts: Record<string, unknown>, ctx: CommandContext): Promise<Record<string, unknown>> {
  const { spec } = plan
  const shape = spec.input.shape as Record<string, z.ZodType>
  const fields = spec.cli.fields ?? {}
  const input: Record<string, unknown> = {}
  for (const [i, field] of plan.args.entries()) {
    const value = positional[i]
    if (value === undefined) continue
    const file = fields[field]?.file
    input[field] = file === undefined ? value : await readField(value as string, file)
  }
  const parts = new Map<string, Record<string, string | string[]>>()
  for (const [name, source] of plan.options) {
    const value = opts[name]
    // --quiet and --out shape the output, not the input.
    if (value === undefined || !('field' in source)) continue
    const { field } = source
    if (source.kind === 'value') {
      const fault = numberFault(shape[field] as z.ZodType, value)
      if (fault !== undefined) throw new IsnadError('USAGE', `${source.long ?? name} ${fault}`)
      input[field] ??= value
    } else if (source.kind === 'file') {
      const given = [...plan.options].find(([n, s]) => s.kind === 'value' && s.field === field && opts[n] !== undefined)?.[1]
      if (given !== undefined) throw new IsnadError('USAGE', `give the ${kebabOf(field)} with ${given.long ?? ''} or ${source.long ?? ''}, not both`)
      input[field] = await readField(value as string, fields[field]?.file as CliFile)
    } else if (source.kind === 'passphrase') {
      if (value === true) input[field] = await requirePassphrase(ctx)
    } else if (source.kind === 'part') {
      parts.set(field, { ...parts.get(field), [source.part]: value as string | string[] })
    }
  }
  for (const [field, cli] of Object.entries(fields)) {
    const from = cli?.from
    if (from !== undefined && (parts.has(field) || !(shape[field] as z.ZodType).isOptional())) input[field] = from.build(parts.get(field) ?? {})
    if (cli?.defaultKey === true && input[field] === undefined) input[field] = await ctx.signerDid()
  }
  return input
}

/** A field's value from a file, or stdin for `-`: its text, or the JSON it holds. */
async function readField (path: string, file: CliFile): Promise<unknown> {
  const text = await readInput(path, file.maxBytes)
  return file.json === true ? parseJson(text, path) : text
}

/** The output on stdout (or in the -o file): --json the output (or its declared field), --quiet one field, else the rendering. */
async function print (ctx: CommandContext, plan: CommandPlan, output: unknown, opts: Record<string, unknown>): Promise<void> {
  const { cli } = plan.spec
  const fields = output as Record<string, unknown>
  const data = cli.json === undefined ? output : fields[cli.json]
  const text = (): string => cli.quiet !== undefined && opts.quiet === true
    ? String(fields[cli.quiet])
    : cli.render === undefined ? JSON.stringify(output, null, 2) : cli.render(output)
  const file = opts.out
  if (cli.out === undefined || typeof file !== 'string') {
    emit(ctx.out, data, text)
    return
  }
  await writeFile(file, `${ctx.out.json ? JSON.stringify(data, null, 2) : text()}\n`, { mode: 0o644 })
  ctx.out.stderr(`wrote ${cli.out(output)} to ${file}`)
}
