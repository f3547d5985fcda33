import { Argument, InvalidArgumentError, Option } from 'commander'
import type { z } from 'zod'
import { baseTypeOf, type CliField } from '../operations/index.js'
import { collect } from './option-parsers.js'

/*
 * The arguments and options of a generated command (table-commands.ts), from each input field's zod
 * schema and its `cli.fields` entry: the name, a short flag, the value's label, the help text, an
 * enum's choices. What commander cannot check from the text alone is left to the table's parse.
 */

/** `minTrust` → `min-trust`. */
export function kebabOf (name: string): string {
  return name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)
}

/** The schema under optional / default wrappers, where its checks (an enum's options, a number's bounds) are. */
function innerOf (schema: z.ZodType): z.ZodType {
  let inner = schema as unknown as { _zod: { def: { type: string, innerType?: z.ZodType } } }
  while ((inner._zod.def.type === 'optional' || inner._zod.def.type === 'default' || inner._zod.def.type === 'nullable') && inner._zod.def.innerType !== undefined) {
    inner = inner._zod.def.innerType as unknown as typeof inner
  }
  return inner as unknown as z.ZodType
}

/** An enum field's choices, shown in help and checked by commander (USAGE, exit 2). */
function choicesOf (schema: z.ZodType): string[] | undefined {
  return baseTypeOf(schema) === 'enum' ? (innerOf(schema) as unknown as { options: string[] }).options : undefined
}

/**
 * Where a number is outside its field's bounds or fails its field's own check (a shard count's power
 * of two), what it must be; undefined when it meets them (or is not a number field).
 */
export function numberFault (schema: z.ZodType, value: unknown): string | undefined {
  if (typeof value !== 'number' || baseTypeOf(schema) !== 'number') return undefined
  const inner = innerOf(schema)
  const { minValue, maxValue, isInt } = inner as unknown as { minValue: number | null, maxValue: number | null, isInt: boolean }
  const inside = (minValue === null || value >= minValue) && (maxValue === null || value <= maxValue) && (!isInt || Number.isInteger(value))
  if (inside) return inner.safeParse(value).error?.issues[0]?.message
  // zod's .int() alone bounds a number by the safe integers: not a bound worth naming.
  const [min, max] = [minValue === Number.MIN_SAFE_INTEGER ? null : minValue, maxValue === Number.MAX_SAFE_INTEGER ? null : maxValue]
  const range = min !== null && max !== null ? ` from ${min} to ${max}` : min !== null ? ` of at least ${min}` : max !== null ? ` of at most ${max}` : ''
  return `must be ${isInt ? 'an integer' : 'a number'}${range}`
}

export function argumentOf (field: string, schema: z.ZodType, cli: CliField | undefined, optional: boolean): Argument {
  const list = baseTypeOf(schema) === 'array'
  const label = `${cli?.value ?? kebabOf(field)}${list ? '...' : ''}`
  const description = cli?.description ?? schema.description ?? ''
  const argument = new Argument(optional ? `[${label}]` : `<${label}>`, cli?.file === undefined ? description : `${description}: a file, or - for stdin`)
  const choices = choicesOf(schema)
  return choices === undefined ? argument : argument.choices(choices)
}

/** `--min-trust <min-trust>`: a boolean is a flag, a list repeats, a number or an object is parsed from its text. */
export function optionOf (field: string, schema: z.ZodType, cli: CliField | undefined): Option {
  const long = `--${cli?.flag ?? kebabOf(field)}`
  const flags = cli?.short === undefined ? long : `-${cli.short}, ${long}`
  const description = cli?.description ?? schema.description
  const type = baseTypeOf(schema)
  if (type === 'boolean') return new Option(flags, description)
  const option = new Option(`${flags} <${cli?.value ?? (type === 'array' ? 'value' : kebabOf(field))}>`, description)
  const choices = choicesOf(schema)
  if (choices !== undefined) return option.choices(choices)
  if (type === 'array') return option.argParser(collect)
  if (type === 'number') return option.argParser(numberOf)
  if (type === 'object' || type === 'union' || type === 'record') return option.argParser(jsonOf)
  return option
}

/** `--body-file <path>` beside `--body`: the field's value read from a file. */
export function fileOptionOf (field: string, cli: CliField): Option {
  return new Option(`--${cli.flag ?? kebabOf(field)}-file <path>`, `read the ${kebabOf(field)} from a file, or - for stdin`)
}

function numberOf (value: string): number {
  const number = Number(value)
  if (value.trim() === '' || !Number.isFinite(number)) throw new InvalidArgumentError('must be a number')
  return number
}

function jsonOf (value: string): unknown {
  try {
    return JSON.parse(value)
  } catch {
    throw new InvalidArgumentError('must be JSON')
  }
}
