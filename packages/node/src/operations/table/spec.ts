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
 * How the CLI offers an operation. The command is generated from it: the `args` fields are its
 * positional arguments, every other input field is an option named after the field (`minTrust` →
 * `--min-trust <value>`, a boolean a flag, a list repeatable, an object JSON), parsed by the table's
 * parse like every other surface's input. A few commands are still written by hand in
 * src/cli/commands/ (they read files, combine operations or print what no operation returns); the
 * generator leaves a command that exists alone.
 */
export interface CliBinding<I extends z.ZodObject = z.ZodObject, O extends z.ZodType = z.ZodType> {
  /** `isnad …` words of the command (`ledger prove`); ` --flag` after them: the operation is that option of the command (`query --select`). */
  command: string
  /** The input fields given as positional arguments, in order (a list field takes the rest). */
  args?: ReadonlyArray<keyof z.input<I> & string>
  /** The output for a person; --json prints the output as it is. Absent: the output as JSON. */
  render?: (output: z.output<O>) => string
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
   * read without the writer lock.
   */
  opens?: 'node' | 'keys' | 'ledgers'
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
