import { ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js'
import { ErrorCode, McpError, type ListResourcesResult, type ReadResourceResult, type ResourceTemplate as ListedTemplate } from '@modelcontextprotocol/sdk/types.js'
import { ApiError } from '../api-access/index.js'
import type { OperationCaller } from '../operations/index.js'
import { OPERATION_SPECS, parseOperationInput } from '../operations/index.js'
import { IsnadError } from '../errors/index.js'
import type { MemoryView } from '../schema/index.js'
import { chainOfView } from './chain.js'
import { evidenceEnvelope, evidenceOfView, type NodeVia } from './evidence-envelope.js'

/*
 * The MCP resources (the protocol's resources/list, resources/templates/list, resources/read):
 * a memory at `isnad://memory/{id}` and its isnad chain at `isnad://memory/{id}/chain`, both JSON.
 * A memory is read as the `show_memory` tool answers (the evidence envelope) with its full view
 * (record-v1 §7), which the `verify` tool checks offline; the chain is chain.ts's.
 * The list is the memories, most trusted and newest first, a page at a time (the query's cursor).
 */

export const MEMORY_TEMPLATE = new ResourceTemplate('isnad://memory/{id}', { list: undefined })
export const CHAIN_TEMPLATE = new ResourceTemplate('isnad://memory/{id}/chain', { list: undefined })

/** @default 50 — memories per resources/list page. */
export const RESOURCE_PAGE_SIZE = 50

/** The MCP specification's code for a resource that does not exist. */
const RESOURCE_NOT_FOUND = -32002

const JSON_TYPE = 'application/json'

export const RESOURCE_TEMPLATES: ListedTemplate[] = [
  {
    name: 'memory',
    title: 'A memory',
    uriTemplate: MEMORY_TEMPLATE.uriTemplate.toString(),
    description: 'One memory as evidence (its trust level and score, source and claim) with its full signed view, which the verify tool checks offline.',
    mimeType: JSON_TYPE
  },
  {
    name: 'memory-chain',
    title: 'A memory\'s isnad chain',
    uriTemplate: CHAIN_TEMPLATE.uriTemplate.toString(),
    description: 'Who signed the memory, who witnessed it with which verdict, which anchors tie it to outside evidence, and for each whether this node counted it or refused it and why.',
    mimeType: JSON_TYPE
  }
]

/** How the resource handlers reach a node: the table's read operations, through the daemon when one runs. */
export type ReadNode = <T>(fn: (call: OperationCaller['call'], via: NodeVia) => Promise<T>) => Promise<T>

export async function listMemoryResources (read: ReadNode, cursor?: string): Promise<ListResourcesResult> {
  const page = await read(async (call) => await call('query', { limit: RESOURCE_PAGE_SIZE, ...(cursor === undefined ? {} : { cursor }) }))
    .catch((err: unknown) => { throw protocolErrorOf(err) })
  return {
    resources: page.items.map((item) => ({
      uri: MEMORY_TEMPLATE.uriTemplate.expand({ id: item.id }),
      name: `memory ${item.id}`,
      // The summary is the author's claim, shown to a person picking a resource; the level travels with it.
      title: item.summary,
      description: `${item.level} (trust ${item.trust}) ${item.type} by ${item.author}, ${item.created_at}`,
      mimeType: JSON_TYPE
    })),
    ...(page.next === undefined ? {} : { nextCursor: page.next })
  }
}

export async function readResource (read: ReadNode, uri: string): Promise<ReadResourceResult> {
  const chain = CHAIN_TEMPLATE.uriTemplate.match(uri)
  const memory = chain === null ? MEMORY_TEMPLATE.uriTemplate.match(uri) : null
  const given = (chain ?? memory)?.id
  if (typeof given !== 'string') throw new McpError(RESOURCE_NOT_FOUND, `Resource ${uri} not found: isnad's resources are isnad://memory/{id} and isnad://memory/{id}/chain`)
  const id = idOf(given, uri)
  const value = await read(async (call, via) => {
    const view: MemoryView = await call('show', { id })
    return chain === null ? { ...evidenceEnvelope([evidenceOfView(view, via)]), view } : chainOfView(view, via)
  }).catch((err: unknown) => { throw protocolErrorOf(err, uri) })
  return { contents: [{ uri, mimeType: JSON_TYPE, text: JSON.stringify(value, null, 2) }] }
}

/** The show operation's parse, before any node is opened: a malformed id is CID_INVALID here as on every other surface. */
function idOf (given: string, uri: string): string {
  try {
    return parseOperationInput(OPERATION_SPECS.show, { id: given }).id
  } catch (err) {
    throw protocolErrorOf(err, uri)
  }
}

/** A node's error as the protocol's, its stable code leading the message as in a tool error. */
export function protocolErrorOf (err: unknown, uri?: string): McpError {
  if (err instanceof McpError) return err
  if (err instanceof IsnadError || err instanceof ApiError) {
    const code = err.code === 'NOT_FOUND' && uri !== undefined ? RESOURCE_NOT_FOUND : err.code === 'INTERNAL' ? ErrorCode.InternalError : ErrorCode.InvalidParams
    return new McpError(code, `${err.code}: ${err.message}`, { code: err.code })
  }
  return new McpError(ErrorCode.InternalError, `INTERNAL: ${err instanceof Error ? err.message : String(err)}`)
}
