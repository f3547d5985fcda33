import { Argument, InvalidArgumentError, Option, type Command } from 'commander'
import type { z } from 'zod'
import { baseTypeOf, OPERATIONS, type OperationName, type OperationSpec } from '../operations/index.js'
import type { CommandContext } from './command-context.js'
import { runsOperation } from './operation-command.js'
import { collect } from './option-parsers.js'

/*
 * The CLI commands generated from the table of operations (docs/architecture.md, "One table of
 * operations"): each operation whose command is not written by hand in commands/ gets one from its
 * spec's `cli` binding, so an operation added to the table is a command without a file of its own.
 * Arguments and options are the input's fields under their own names; their values go to the
 * table's parse as given (nothing is filled in, so the table's defaults apply as on every surface).
 */

/** Adds the command of every operation of the table that has none yet (registered after the hand-written ones). */
export function registerTableCommands (program: Command, context: (cmd: Command) => CommandContext): void {
  for (const spec of OPERATIONS) {
    const words = spec.cli.command.split(' ')
    // `query --select`: an option of a command, not a command of its own.
    if (words.some((word) => word.startsWith('-'))) continue
    const parent = groupOf(program, words.slice(0, -1))
    const name = words.at(-1) as string
    if (parent.commands.some((c) => c.name() === name)) continue
    commandOf(parent.command(name), spec, context)
  }
}

/** The command group at `words` (`id`, `ledger`), made when missing. */
function groupOf (program: Command, words: readonly string[]): Command {
  let group = program
  for (const word of words) group = group.commands.find((c) => c.name() === word) ?? group.command(word)
  return group
}

function commandOf (command: Command, spec: OperationSpec, context: (cmd: Command) => CommandContext): Command {
  const shape = spec.input.shape as Record<string, z.ZodType>
  const args = (spec.cli.args ?? []) as readonly string[]
  command.description(spec.summary)
  for (const field of args) command.addArgument(argumentOf(field, shape[field] as z.ZodType))
  for (const [field, schema] of Object.entries(shape)) {
    // A passphrase is read from --passphrase-file or $ISNAD_PASSPHRASE, never from argv (ps shows argv).
    if (args.includes(field) || field === 'passphrase') continue
    command.addOption(optionOf(field, schema))
  }
  return runsOperation(command, context, {
    operation: spec.name as OperationName,
    args,
    render: (output) => spec.cli.render === undefined ? JSON.stringify(output, null, 2) : spec.cli.render(output)
  })
}

function argumentOf (field: string, schema: z.ZodType): Argument {
  const list = baseTypeOf(schema) === 'array'
  const label = `${field}${list ? '...' : ''}`
  return new Argument(schema.isOptional() ? `[${label}]` : `<${label}>`, schema.description)
}

/** `--min-trust <value>`: a boolean is a flag, a list repeats, a number or an object is parsed from its text. */
function optionOf (field: string, schema: z.ZodType): Option {
  const flag = `--${field.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`
  const type = baseTypeOf(schema)
  if (type === 'boolean') return new Option(flag, schema.description)
  const option = new Option(`${flag} <${type === 'array' ? 'value' : field}>`, schema.description)
  if (type === 'array') return option.argParser(collect)
  if (type === 'number') return option.argParser(numberOf)
  if (type === 'object' || type === 'union' || type === 'record') return option.argParser(jsonOf)
  return option
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
