import { Option, type Command } from 'commander'
import type { z } from 'zod'
import { OPERATIONS, type OperationSpec } from '../operations/index.js'
import type { CommandContext } from './command-context.js'
import { runPlanned, type CommandPlan, type OptionSource } from './table-run.js'
import { argumentOf, fileOptionOf, kebabOf, optionOf } from './table-options.js'

/*
 * The CLI commands generated from the table of operations (docs/architecture.md, "One table of
 * operations"): every operation gets its command from its spec's `cli` declaration (CliBinding in
 * operations/table/spec.ts), so an operation added to the table is a command without a file of its
 * own. Only a process command (`start`, `status`, `config`, …) is written by hand in commands/; the
 * generator leaves a command that exists alone. test/integration/api/operation-table.test.ts walks
 * the plans: every option of a generated command fills an input field or shapes the output.
 */

const PLANS = new WeakMap<Command, CommandPlan[]>()

/** The operations a generated command runs: its own first, then those a flag of it selects (`query --select`). */
export function plansOf (command: Command): readonly CommandPlan[] | undefined {
  return PLANS.get(command)
}

/** Adds the command of every operation of the table (or of `specs`) that has none yet (registered after the hand-written ones). */
export function registerTableCommands (program: Command, context: (cmd: Command) => CommandContext, setExit: (code: number) => void, specs: readonly OperationSpec[] = OPERATIONS): void {
  const flagged: OperationSpec[] = []
  for (const spec of specs) {
    const words = spec.cli.command.split(' ')
    // `query --select`: a flag of another operation's command, added once that command exists.
    if (words.some((word) => word.startsWith('-'))) {
      flagged.push(spec)
      continue
    }
    const parent = groupOf(program, words.slice(0, -1))
    const name = words.at(-1) as string
    if (parent.commands.some((c) => c.name() === name)) continue
    const command = parent.command(name).description(spec.summary)
    PLANS.set(command, [planOf(command, spec)])
    command.action(async (...params: unknown[]) => { await runPlanned(PLANS.get(command) ?? [], params, context, setExit) })
  }
  for (const spec of flagged) {
    const [words = '', flag = ''] = spec.cli.command.split(' --')
    const command = findCommand(program, words.split(' '))
    const plans = command === undefined ? undefined : PLANS.get(command)
    if (command === undefined || plans === undefined) continue
    command.addOption(new Option(`--${flag}`, spec.summary))
    plans.push(planOf(command, spec, flag))
  }
}

/** What a group of commands is about, in `isnad --help` (its commands come from the table). */
const GROUPS: Readonly<Record<string, string>> = {
  id: 'agent identities (Ed25519 did:key) in keys/',
  anchor: 'anchor memories to external evidence and check it (protocols/anchors-v1.md)',
  witness: 'ask other agents to witness a memory',
  ledger: 'the .memory/ ledgers: rebuild the index, prove records, checkpoints, audit'
}

/** The command group `name` of `parent`, made with its description when missing. */
export function commandGroup (parent: Command, name: string): Command {
  return parent.commands.find((c) => c.name() === name) ?? parent.command(name).description(GROUPS[name] ?? '')
}

/** The command group at `words` (`id`, `trust root`), made when missing. */
function groupOf (program: Command, words: readonly string[]): Command {
  return words.reduce(commandGroup, program)
}

function findCommand (program: Command, words: readonly string[]): Command | undefined {
  let command: Command | undefined = program
  for (const word of words) command = command?.commands.find((c) => c.name() === word)
  return command
}

/**
 * The arguments and options of one operation on `command`, and which input field each fills. A
 * flagged operation shares the options its fields have in common with the command's own (same
 * name); its other options say in their help that they go with its flag.
 */
function planOf (command: Command, spec: OperationSpec, flag?: string): CommandPlan {
  const shape = spec.input.shape as Record<string, z.ZodType>
  const fields = spec.cli.fields ?? {}
  const args = (spec.cli.args ?? []) as readonly string[]
  const options = new Map<string, OptionSource>()
  const plan: CommandPlan = { spec, args, options, ...(flag === undefined ? {} : { flag: attributeOf(flag) }) }
  const add = (option: Option, source: OptionSource): void => {
    if (!command.options.some((o) => o.long === option.long)) {
      if (flag !== undefined) option.description = `with --${flag}: ${option.description}`
      command.addOption(option)
    }
    options.set(option.attributeName(), { ...source, long: option.long ?? '' })
  }

  args.forEach((field, i) => {
    const schema = shape[field] as z.ZodType
    // A later positional keeps an earlier optional one optional (commander wants them in that order).
    const optional = schema.isOptional() || fields[field]?.defaultKey === true || args.slice(0, i).some((f) => (shape[f] as z.ZodType).isOptional())
    command.addArgument(argumentOf(field, schema, fields[field], optional))
  })
  for (const [field, schema] of Object.entries(shape)) {
    if (args.includes(field)) continue
    const cli = fields[field]
    if (cli?.from !== undefined) {
      for (const [part, o] of Object.entries(cli.from.options)) add(new Option(`--${part} <${o.value}${o.many === true ? '...' : ''}>`, o.description), { field, kind: 'part', part })
    } else if (cli?.passphraseFlag !== undefined) {
      add(new Option(`--${cli.passphraseFlag}`, cli.description ?? 'read the passphrase from --passphrase-file or $ISNAD_PASSPHRASE'), { field, kind: 'passphrase' })
    } else if (field !== 'passphrase') {
      // A passphrase is read from --passphrase-file or $ISNAD_PASSPHRASE, never from argv (ps shows argv).
      add(optionOf(field, schema, cli), { field, kind: 'value' })
      if (cli?.file !== undefined) add(fileOptionOf(field, cli), { field, kind: 'file' })
    }
  }
  const { quiet, out } = spec.cli
  if (quiet !== undefined) add(new Option('-q, --quiet', `print only ${quietLabelOf(spec, quiet)}`), { kind: 'quiet' })
  if (out !== undefined) add(new Option('-o, --out <file>', 'write to a file instead of stdout'), { kind: 'out' })
  return plan
}

/** The output field --quiet prints, in the output schema's words when it has them (`the new anchor's id`). */
function quietLabelOf (spec: OperationSpec, field: string): string {
  const shape = (spec.output as unknown as { shape?: Record<string, z.ZodType> }).shape
  return shape?.[field]?.description ?? `the ${kebabOf(field)}`
}

function attributeOf (flag: string): string {
  return flag.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase())
}
