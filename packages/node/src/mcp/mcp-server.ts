import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import {
  CallToolRequestSchema, ErrorCode, GetPromptRequestSchema, ListPromptsRequestSchema, ListResourcesRequestSchema, ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema, McpError, ReadResourceRequestSchema, type CallToolResult
} from '@modelcontextprotocol/sdk/types.js'
import { assertFileAnchorAllowed, type AnchorSource, type FileAnchorAccess } from '../anchor/index.js'
import type { OperationCaller, OperationName } from '../operations/index.js'
import { ApiError } from '../api-access/index.js'
import { IsnadError } from '../errors/index.js'
import { EVIDENCE_NOTICE, type NodeVia } from './evidence-envelope.js'
import { parseOperationInput } from '../operations/index.js'
import { getPrompt, PROMPTS, WEIGH_MEMORY } from './prompts.js'
import { listMemoryResources, readResource, RESOURCE_TEMPLATES, type ReadNode } from './resources.js'
import { TOOLS, presenterOf, toolListOf, type Tool } from './tools.js'

/**
 * What the tools, resources and prompts need of a node: the CLI's CommandContext
 * (src/cli/command-context.ts) satisfies it, so each call runs against the running daemon when there
 * is one, else over the data directory opened for that call and closed after it (the daemon,
 * started later, then gets the lock). `daemon` says which (null: none runs).
 */
export interface NodeAccess extends OperationCaller {
  daemon: () => Promise<OperationCaller | null>
}

export interface McpServerInit {
  /** A fresh access per tool call, so a daemon started or stopped meanwhile is noticed. */
  access: () => NodeAccess
  version: string
  /**
   * Which files the `anchor` tool may read (anchors-v1 §2.1): the model is a remote client, so
   * nothing unless the operator allowed directories (`isnad mcp --anchor-dir`), and never the home's
   * private files. @default nothing at all
   */
  anchorFiles?: FileAnchorAccess
}

/**
 * An MCP server exposing the node as tools, resources and a prompt; connect it to a transport. The
 * SDK's low-level Server with our own `tools/list` and `tools/call`, both derived from the table of
 * operations: the list is the table's inputs as JSON Schema, and a call is parsed by the table's
 * parse (parseOperationInput), so a bad argument gets the same code here as over HTTP or the CLI —
 * CID_INVALID, FIELD_TOO_LARGE, SCHEMA_INVALID for an unknown key — rather than the SDK's own text.
 * The resources are each memory and its isnad chain (resources.ts); the prompt, how to weigh a
 * memory by its trust level (prompts.ts).
 */
export function createMcpServer (init: McpServerInit): Server {
  const server = new Server({ name: 'isnad', version: init.version }, {
    capabilities: { tools: {}, resources: {}, prompts: {} },
    instructions: 'Tools of an isnad node: signed agent memories with witnesses, anchors and local trust. ' +
      `Each memory is also a resource (isnad://memory/{id}, and its isnad chain at isnad://memory/{id}/chain); the prompt ${WEIGH_MEMORY} says how to weigh a memory by its trust level. ${EVIDENCE_NOTICE}`
  })
  const list = toolListOf(TOOLS)
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: list }))
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = TOOLS.get(request.params.name)
    // As the SDK's McpServer answers a tool it does not have: a tool error with the protocol's message.
    if (tool === undefined) return { isError: true, content: [{ type: 'text', text: new McpError(ErrorCode.InvalidParams, `Tool ${request.params.name} not found`).message }] }
    return await answer(async () => await call(tool, request.params.arguments ?? {}, init))
  })
  const read: ReadNode = async (fn) => {
    const access = init.access()
    const via = await viaOf(access)
    return await fn(access.call, via)
  }
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({ resourceTemplates: RESOURCE_TEMPLATES }))
  server.setRequestHandler(ListResourcesRequestSchema, async (request) => await listMemoryResources(read, request.params?.cursor))
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => await readResource(read, request.params.uri))
  server.setRequestHandler(ListPromptsRequestSchema, () => ({ prompts: PROMPTS }))
  server.setRequestHandler(GetPromptRequestSchema, async (request) => await getPrompt(read, request.params.name, request.params.arguments))
  return server
}

async function call (tool: Tool, args: Record<string, unknown>, init: McpServerInit): Promise<object> {
  const { spec } = tool
  if ('passphrase' in args) throw new IsnadError('SCHEMA_INVALID', `${spec.name} input is invalid: passphrase: not taken over MCP; the server reads it from --passphrase-file or $ISNAD_PASSPHRASE`)
  let input = parseOperationInput(spec, args) as Record<string, unknown>
  if (spec.name === 'addAnchor') input = await allowAnchorFile(input, init.anchorFiles)
  const access = init.access()
  const source = await viaOf(access)
  const present = presenterOf(spec)
  return await present(await access.call(spec.name as OperationName, input as never), { call: access.call, source })
}

/** How the operator lets the model anchor files, as a refusal names it (anchors-v1 §2.1). */
const MCP_ANCHOR_DIR_FIX = '`--anchor-dir <dir>` in the arguments of `isnad mcp` (the MCP client\'s configuration)'

/** Which node answers: the running daemon, else this process over the data directory. */
async function viaOf (access: NodeAccess): Promise<NodeVia> {
  return (await access.daemon()) === null ? 'data directory' : 'daemon'
}

/** The anchor tool's file evidence, checked before any node is asked: a daemon would apply only its own allowance. */
async function allowAnchorFile (input: Record<string, unknown>, access: FileAnchorAccess | undefined): Promise<Record<string, unknown>> {
  const anchor = input.anchor as AnchorSource
  const allowance: FileAnchorAccess = { allowedBy: MCP_ANCHOR_DIR_FIX, ...(access ?? { forbidden: [], allowed: [] }) }
  // Checked here, before any node is asked: a daemon would apply only its own allowance. A git
  // repository is read like a file (anchors-v1 §2.1, F6).
  if (anchor.source === 'file') return { ...input, anchor: { ...anchor, path: await assertFileAnchorAllowed(anchor.path, allowance) } }
  if (anchor.source === 'git') return { ...input, anchor: { ...anchor, repository: await assertFileAnchorAllowed(anchor.repository, allowance) } }
  return input
}

/**
 * A tool's result as JSON text (and structured content); an error as a tool error naming its
 * stable code, so the agent sees what was wrong instead of a protocol failure.
 */
async function answer (fn: () => Promise<object>): Promise<CallToolResult> {
  try {
    const value = await fn()
    return { content: [{ type: 'text', text: JSON.stringify(value, null, 2) }], structuredContent: { ...value } }
  } catch (err) {
    const code = err instanceof IsnadError || err instanceof ApiError ? err.code : 'INTERNAL'
    const message = err instanceof Error ? err.message : String(err)
    return { isError: true, content: [{ type: 'text', text: `${code}: ${message}` }] }
  }
}
