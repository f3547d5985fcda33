import { globalRegistry, type z } from 'zod'
import { IsnadError, type ErrorCode } from '../../errors/index.js'
import { schemaError } from '../../record/index.js'
import { MAX_REQUEST_BYTES } from '../constants.js'
import type { NodeOperations, Signer } from '../node-operations.js'
import type { PeerControl } from '../peer-control.js'
import { renamedArgumentHint } from './argument-rule.js'

/*
 * One declaration per operation (docs/architecture.md, "One table of operations"). Each surface — the HTTP routes and their OpenAPI
 * document, the HTTP client, the CLI, the MCP tools and the library — is an adapter over these
 * specs: the same name, the same input schema (closed: an unknown key is refused), the same parse
 * (so the same error code for the same bad input), the same handler on the node.
 */

/** What the handlers run on: the node's operations; the network's extras when a daemon runs. */
export type OperationNode = NodeOperations & Partial<PeerControl>

/** Where a non-path field travels over HTTP. */
export type HttpIn = 'none' | 'body' | 'query'

export interface HttpBinding {
  method: 'get' | 'post'
  /** OpenAPI form, `{id}` for a path parameter (one of the input's fields). */
  path: string
  /** The success status. @default 200 */
  status?: 200 | 201
  in: HttpIn
  /** The body is this one input field's value (a document, a bundle, a checkpoint), not an object of fields. */
  bodyField?: string
  /** A body may be absent (then `{}`). @default false */
  optionalBody?: boolean
  /** The largest body accepted (413 BODY_TOO_LARGE past it). @default MAX_REQUEST_BYTES when the route takes a body */
  maxBodyBytes?: number
  /** OpenAPI description beyond the summary. */
  description?: string
}

/**
 * How the CLI offers an operation: everything its command is generated from (src/cli/table-commands.ts;
 * docs/architecture.md, "One table of operations"). The `args` fields are positional arguments, every
 * other input field an option named after the field (`minTrust` → `--min-trust <min-trust>`; a
 * boolean is a flag, a list repeats, an object is JSON, an enum's choices and a number's bounds are
 * the zod schema's, checked by the command line as USAGE); `fields` says where a field's command line
 * differs from that. The values go to the table's parse as given: nothing is filled in that the user
 * did not give (but `defaultKey`), so the table's defaults apply as on every surface. The passphrase
 * field is never an option (argv is visible to `ps`): a signing operation's comes from
 * --passphrase-file or $ISNAD_PASSPHRASE. Only a process command (`start`, `status`, `config`, …)
 * is written by hand in src/cli/commands/; the generator leaves a command that exists alone.
 */
export interface CliBinding<I extends z.ZodObject = z.ZodObject, O extends z.ZodType = z.ZodType> {
  /** `isnad …` words of the command (`ledger prove`); ` --flag` after them: the operation is that flag of the command (`query --select`), whose options it shares by name. */
  command: string
  /** The input fields given as positional arguments, in order (a list field takes the rest). */
  args?: ReadonlyArray<keyof z.input<I> & string>
  /** Where a field's command line is not the field's own name and description. */
  fields?: { readonly [F in keyof z.input<I> & string]?: CliField }
  /** The output for a person; --json prints the output as it is. Absent: the output as JSON. */
  render?: (output: z.output<O>) => string
  /** `-q, --quiet`: print only this field of the output (the new record's id). */
  quiet?: keyof z.output<O> & string
  /** What --json prints, when one field of the output (a document other commands read) rather than the whole. */
  json?: keyof z.output<O> & string
  /** `-o, --out <file>`: write what stdout would get to the file; stderr says `wrote <this> to <file>`. */
  out?: (output: z.output<O>) => string
  /** The command exits 1 when this holds of the output (an invalid document), after printing it. */
  fails?: (output: z.output<O>) => boolean
  /**
   * Checks after the table's parse and before the operation opens anything to write, so that a
   * refused command leaves the data directory as it was (docs/threat-model.md, "Damage to the data
   * directory"); they refuse by throwing. `node` runs other operations where this one would run.
   */
  before?: (input: z.output<I>, node: CliNode) => Promise<void>
}

/** What a binding's `before` may ask: other operations of the table, and whether a daemon holds the home. */
export interface CliNode {
  call: (operation: string, input: Record<string, unknown>) => Promise<unknown>
  daemon: boolean
}

/** One input field on the command line, where its field's name and description are not the right ones. */
export interface CliField {
  /** The option's name, when not the field's kebab-cased name: `tag` (one tag per --tag) for the list `tags`. */
  flag?: string
  /** A one-letter short flag: `t` → `-t, --type`. */
  short?: string
  /** The value's label in help: `memory` → `<memory>` (a positional argument) or `--supersedes <memory>`. */
  value?: string
  /** The help text, when the field's description is not the one for a command line. */
  description?: string
  /** The value is read from a file, or stdin for `-`: a positional argument is the file's path; an option also has `--<flag>-file <path>`. */
  file?: CliFile
  /** Absent, the field is the did:key of the home's default agent key (UNKNOWN_KEY when there is none). */
  defaultKey?: boolean
  /** A flag that fills the field (a passphrase) from --passphrase-file or $ISNAD_PASSPHRASE: PASSPHRASE_REQUIRED when neither is set. */
  passphraseFlag?: string
  /** The field is built from options of its own (an anchor's evidence from --file, --git, --url, …). */
  from?: CliComposed
}

export interface CliFile {
  /** The largest file read; a larger one is RECORD_TOO_LARGE before it is read whole. */
  maxBytes: number
  /** The file is JSON, parsed into the field's value (JSON_INVALID when it is not); else its text is the value. */
  json?: boolean
}

/** A field built from options of its own. */
export interface CliComposed {
  /** The options by name (`git` → `--git`), each with its value's label; `many`: it takes several values. */
  options: Readonly<Record<string, { value: string, description: string, many?: boolean }>>
  /** The field's value from the options given (USAGE for a combination that names none); the table's parse checks it. */
  build: (given: Readonly<Record<string, string | string[] | undefined>>) => unknown
}

export interface OperationSpec<I extends z.ZodObject = z.ZodObject, O extends z.ZodType = z.ZodType> {
  /** The operation's one name: the library method, and the key of every other surface's name. */
  name: string
  /** One line for a person and an LLM: what it does and what it returns. */
  summary: string
  /** Closed object; every field `.describe()`d. Signing operations carry `as` and `passphrase`. */
  input: I
  /** What it returns on every surface (the HTTP response body). */
  output: O
  /** The codes it can give besides the transport's own (UNAUTHORIZED, BODY_TOO_LARGE, …). */
  errors: readonly ErrorCode[]
  /** Signs with a local key: the adapters resolve `as` / `passphrase` into a signer and wipe it after. */
  signs?: boolean
  /** Only reads: the CLI opens the data directory read-only; MCP marks the tool read-only. A handler that may sign (a fresh checkpoint) is not. */
  readOnly?: boolean
  /**
   * What a caller without a daemon opens to run it (the CLI, the library in local mode): the node
   * (the default); only the agent keys in keys/ (no data directory needed); or the ledgers alone,
   * without the index, so that a rebuild works when the index is too damaged to open and a proof is
   * read without the writer lock; or nothing: a document that carries its own proof is checked
   * offline, without a daemon or a data directory (`isnad verify`).
   */
  opens?: 'node' | 'keys' | 'ledgers' | 'nothing'
  /**
   * Old input names still accepted, mapped onto their new names (documented in the field's
   * description): a name a published surface (an HTTP body, MCP arguments) carried before the
   * argument naming rule (argument-rule.ts) renamed it.
   */
  aliases?: Readonly<Record<string, string>>
  /** Names a failed parse itself when its input has codes of its own (a bundle's envelope: BUNDLE_INVALID). */
  inputError?: (error: z.ZodError) => IsnadError | undefined
  http: HttpBinding
  /** The CLI command that runs it (src/cli/table-commands.ts generates it from this). */
  cli: CliBinding<I, O>
  /**
   * MCP tool name, or why the operation is not a tool. `claims`: the output holds other agents'
   * claims (memory summaries) that no presenter of its own wraps as evidence; the tool then shows it
   * under the evidence notice (FDR-Memory M-1), so a model reads them as claims, not instructions.
   */
  mcp: { tool: string, title: string, claims?: true } | { excluded: string }
  /** The handler on the node. `input` is parsed; a signer is given when `signs`. */
  run: (node: OperationNode, input: z.output<I>, signer: Signer | undefined) => Promise<z.input<O>>
}

/** The largest body the route accepts: its own limit, else MAX_REQUEST_BYTES for a route that takes a body; none without one. */
export function bodyLimitOf (spec: Pick<OperationSpec, 'http'>): number | undefined {
  return spec.http.maxBodyBytes ?? (spec.http.in === 'body' ? MAX_REQUEST_BYTES : undefined)
}

/** `{id}` → `id`, in order. */
export function pathParamsOf (spec: Pick<OperationSpec, 'http'>): string[] {
  return [...spec.http.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] as string)
}

/**
 * Keeps each spec's input and output types for its handler, and carries each field's description
 * onto its optional / default wrapper: zod keeps a description on the schema it was given to, and
 * `x.describe(…).optional()` would otherwise reach the OpenAPI document but not `field.description`.
 */
export function defineOperation<I extends z.ZodObject, O extends z.ZodType> (spec: OperationSpec<I, O>): OperationSpec<I, O> {
  for (const field of Object.values(spec.input.shape as Record<string, z.ZodType>)) {
    const inner = (field as { _zod: { def: { innerType?: z.ZodType } } })._zod.def.innerType
    if (field.description === undefined && inner?.description !== undefined) globalRegistry.add(field, { description: inner.description })
  }
  return spec
}

/** Marks a zod issue whose field is a record id, so the parse reports CID_INVALID (one code for a bad CID on every path). */
export const CID_ISSUE = { isnad: 'CID_INVALID' } as const
/** … and one whose field is a did:key: DID_INVALID, as the keystore and the record layer say. */
export const DID_ISSUE = { isnad: 'DID_INVALID' } as const

function markedCodeOf (issue: z.core.$ZodIssue): ErrorCode | undefined {
  if (issue.code !== 'custom') return undefined
  const mark = (issue.params as Record<string, unknown> | undefined)?.isnad
  return mark === CID_ISSUE.isnad || mark === DID_ISSUE.isnad ? mark : undefined
}

/** What the parse needs of an operation: also what an input outside the table (an MCP prompt's arguments) declares to be parsed alike. */
export type ParsedInput<I extends z.ZodObject = z.ZodObject> = Pick<OperationSpec<I>, 'name' | 'input' | 'aliases' | 'inputError'>

/**
 * The one parse every surface runs: old names mapped onto new ones, then the closed input schema.
 * A malformed record id is CID_INVALID, a malformed did:key DID_INVALID, a size limit
 * FIELD_TOO_LARGE, anything else SCHEMA_INVALID.
 */
export function parseOperationInput<I extends z.ZodObject> (spec: ParsedInput<I>, raw: unknown): z.output<I> {
  const value = withAliases(spec, raw)
  const result = spec.input.safeParse(value)
  if (result.success) return result.data
  const own = spec.inputError?.(result.error)
  if (own !== undefined) throw own
  const unknownKeys = result.error.issues.flatMap((i) => i.code === 'unrecognized_keys' && i.path.length === 0 ? i.keys : [])
  const renamed = renamedArgumentHint(Object.keys(spec.input.shape), unknownKeys)
  // A8: a caller that still says `memory` learns the new name instead of only "unrecognized key".
  if (renamed !== undefined) throw new IsnadError('SCHEMA_INVALID', `${spec.name} input is invalid: ${renamed} (docs/architecture.md, "Argument names")`, { details: { issues: result.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })) } })
  const error = schemaError(result.error, `${spec.name} input`)
  const marked = result.error.issues.map(markedCodeOf).find((code) => code !== undefined)
  if (error.code === 'SCHEMA_INVALID' && marked !== undefined) {
    const issue = result.error.issues.find((i) => markedCodeOf(i) !== undefined)
    throw new IsnadError(marked, `${spec.name} input is invalid: ${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'invalid'}`, { details: error.details })
  }
  throw error
}

/** The zod type under optional / default / nullable wrappers. */
export function baseTypeOf (schema: z.ZodType): string {
  let def = (schema as { _zod: { def: { type: string, innerType?: z.ZodType } } })._zod.def
  while ((def.type === 'optional' || def.type === 'default' || def.type === 'nullable') && def.innerType !== undefined) {
    def = (def.innerType as unknown as { _zod: { def: { type: string, innerType?: z.ZodType } } })._zod.def
  }
  return def.type
}

function isListField (spec: ParsedInput, name: string): boolean {
  const field = (spec.input.shape as Record<string, z.ZodType | undefined>)[name]
  return field !== undefined && baseTypeOf(field) === 'array'
}

function withAliases (spec: ParsedInput, raw: unknown): unknown {
  if (spec.aliases === undefined || typeof raw !== 'object' || raw === null || Array.isArray(raw)) return raw
  const value: Record<string, unknown> = { ...raw as Record<string, unknown> }
  for (const [old, name] of Object.entries(spec.aliases)) {
    if (!(old in value)) continue
    if (name in value) throw new IsnadError('USAGE', `${spec.name}: give \`${name}\` (\`${old}\` is its old name), not both`)
    const given = value[old]
    delete value[old]
    // An old name may have taken one value where the new one takes a list (`tag` → `tags`).
    value[name] = isListField(spec, name) && !Array.isArray(given) ? [given] : given
  }
  return value
}

/** Resolves the signing key when the operation signs, runs it, and wipes the seed whatever happened. */
export async function runOperation<I extends z.ZodObject, O extends z.ZodType> (
  spec: OperationSpec<I, O>, node: OperationNode, input: z.output<I>, passphrase?: string
): Promise<z.input<O>> {
  if (spec.signs !== true) return await spec.run(node, input, undefined)
  const fields = input as { as?: string, passphrase?: string }
  const signer = await node.resolveSigner(fields.as, fields.passphrase ?? passphrase)
  try {
    return await spec.run(node, input, signer)
  } finally {
    signer.secretKey.fill(0)
  }
}

/** The peer-control half of the node, or USAGE: it exists only in a running network node. */
export function peerControlOf (node: OperationNode, what: string): PeerControl {
  if (node.connectPeer !== undefined && node.disconnectPeer !== undefined && node.syncPeers !== undefined && node.networkStats !== undefined) {
    return node as PeerControl
  }
  throw new IsnadError('USAGE', `${what} needs a running network node (\`isnad start\`)`)
}
