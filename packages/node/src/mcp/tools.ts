import { z } from 'zod'
import type { OperationCaller } from '../operations/index.js'
import { OPERATIONS, type OperationSpec } from '../operations/index.js'
import type { SelectedMemory } from '../fdr/index.js'
import type { QueryResultItem } from '../node/index.js'
import type { MemoryView } from '../schema/index.js'
import { evidenceEnvelope, evidenceOfQueryItem, evidenceOfView, EVIDENCE_NOTICE, type NodeVia } from './evidence-envelope.js'

/*
 * The MCP tools are the table's operations (src/operations/table): the same input schema minus
 * `passphrase` (a key's passphrase never passes through the model's context; the server reads it
 * from --passphrase-file or $ISNAD_PASSPHRASE, as the CLI does), the same parse, the same handler.
 * What differs is how a result is shown to a model: retrieved memories come wrapped as evidence
 * with their trust and source (FDR-Memory M-1), never bare.
 */

/** A tool's listed input: the operation's fields without `passphrase`, closed. */
export function toolInputOf (spec: OperationSpec): z.ZodObject {
  const shape = Object.fromEntries(Object.entries(spec.input.shape).filter(([name]) => name !== 'passphrase'))
  return z.strictObject(shape)
}

/** A tool: the operation it runs and what `tools/list` says of it. */
export interface Tool {
  spec: OperationSpec
  name: string
  title: string
  input: z.ZodObject
}

/** The tools by name: every operation of the table that has one. */
export const TOOLS: ReadonlyMap<string, Tool> = new Map(OPERATIONS.flatMap((spec) => 'tool' in spec.mcp
  ? [[spec.mcp.tool, { spec, name: spec.mcp.tool, title: spec.mcp.title, input: toolInputOf(spec) }] as const]
  : []))

/**
 * The `tools/list` answer: each tool's input as JSON Schema (draft-07, the input side of every
 * transform), its summary as the description, and the read-only hint for operations that change
 * nothing: what the SDK's McpServer listed for the same zod schemas (test/integration/mcp/tool-list.test.ts).
 */
export function toolListOf (tools: ReadonlyMap<string, Tool>): Array<Record<string, unknown> & { name: string, inputSchema: { type: 'object' } }> {
  return [...tools.values()].map((tool) => ({
    name: tool.name,
    title: tool.title,
    description: tool.spec.summary,
    inputSchema: z.toJSONSchema(tool.input, { target: 'draft-7', io: 'input' }) as { type: 'object' },
    ...(tool.spec.readOnly === true ? { annotations: { readOnlyHint: true } } : {}),
    // No tool runs as an MCP task (the spec's default, which McpServer also lists).
    execution: { taskSupport: 'forbidden' }
  }))
}

export interface PresentContext { call: OperationCaller['call'], source: NodeVia }
type Presenter = (output: unknown, context: PresentContext) => Promise<object>

/** Structured content is an object: a list is given as `{ items }`. */
const asObject = (output: unknown): object => Array.isArray(output) ? { items: output } : output as object
const plain: Presenter = async (output) => asObject(output)

/** Other agents' claims (an inbox's summaries, a history's versions): the same notice as retrieved memories. */
const asClaims: Presenter = async (output) => ({ notice: EVIDENCE_NOTICE, ...asObject(output) })

/** How a tool's output is shown: its own presenter, else the notice when it declares claims, else as it is. */
export function presenterOf (spec: OperationSpec): Presenter {
  return PRESENTERS[spec.name] ?? ('claims' in spec.mcp && spec.mcp.claims === true ? asClaims : plain)
}

/** How the operations that return memories show them: as evidence. */
export const PRESENTERS: Readonly<Record<string, Presenter>> = {
  remember: async (view, { source }) => evidenceEnvelope([evidenceOfView(view as MemoryView, source)]),
  show: async (view, { source }) => evidenceEnvelope([evidenceOfView(view as MemoryView, source)]),
  attest: async (output, { source }) => {
    const { attestation, memory } = output as { attestation: string, memory: MemoryView }
    return { attestation, ...evidenceEnvelope([evidenceOfView(memory, source)]) }
  },
  addAnchor: async (output, { source }) => {
    const { anchor, memory } = output as { anchor: string, memory: MemoryView }
    return { anchor, ...evidenceEnvelope([evidenceOfView(memory, source)]) }
  },
  query: async (output, { source }) => {
    const page = output as { items: QueryResultItem[], next?: string }
    return evidenceEnvelope(page.items.map((item) => evidenceOfQueryItem(item, source)), page.next)
  },
  select: async (output, { call, source }) => {
    const { selected } = output as { selected: SelectedMemory[] }
    return evidenceEnvelope(await Promise.all(selected.map(async (selection) => ({
      ...evidenceOfView(await call('show', { id: selection.ref.worldId }), source),
      selection
    }))))
  },
}
