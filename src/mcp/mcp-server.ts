import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { assertFileAnchorAllowed, type AnchorSource, type FileAnchorAccess } from '../anchor/index.js'
import type { NodeOperations, Signer } from '../api/operations.js'
import { ApiError } from '../api/errors.js'
import { IsnadError } from '../errors/index.js'
import { EVIDENCE_NOTICE, type NodeVia } from './evidence-envelope.js'
import { OPERATIONS, parseOperationInput } from '../api/table/index.js'
import { PRESENTERS, plain, toolInputOf } from './tools.js'

/**
 * What the tools need of a node: the CLI's CommandContext (src/cli/context.ts) satisfies it, so a
 * tool runs against the running daemon when there is one, else over the data directory opened for
 * that call and closed after it (the daemon, started later, then gets the lock).
 */
export interface NodeAccess {
  daemon: () => Promise<NodeOperations | null>
  withOps: <T>(fn: (ops: NodeOperations) => Promise<T>, mode?: 'read' | 'write') => Promise<T>
  signerDid: (as?: string) => Promise<string>
  withSigner: <T>(ops: NodeOperations, did: string, fn: (signer: Signer) => Promise<T>) => Promise<T>
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

/** An MCP server exposing the node as tools (issue 8 §1); connect it to a transport. */
export function createMcpServer (init: McpServerInit): McpServer {
  const server = new McpServer({ name: 'isnad', version: init.version }, {
    instructions: `Tools of an isnad node: signed agent memories with witnesses, anchors and local trust. ${EVIDENCE_NOTICE}`
  })
  const via = async (access: NodeAccess): Promise<NodeVia> => (await access.daemon()) === null ? 'data directory' : 'daemon'
  // The SDK would check the arguments against the listed schema itself, with its own error text.
  // The table's parse decides instead (parseOperationInput), so a bad argument gets the same code
  // here as over HTTP or the CLI: CID_INVALID, FIELD_TOO_LARGE, SCHEMA_INVALID for an unknown key.
  const internals = server as unknown as { validateToolInput: (tool: unknown, args: unknown) => Promise<unknown> }
  internals.validateToolInput = async (_tool, args) => args ?? {}

  for (const spec of OPERATIONS) {
    if (!('tool' in spec.mcp)) continue
    const present = PRESENTERS[spec.name] ?? plain
    server.registerTool(spec.mcp.tool, {
      title: spec.mcp.title,
      description: spec.summary,
      inputSchema: toolInputOf(spec),
      ...(spec.readOnly === true ? { annotations: { readOnlyHint: true } } : {})
    }, async (args: Record<string, unknown>) => await answer(async () => {
      if ('passphrase' in args) throw new IsnadError('SCHEMA_INVALID', `${spec.name} input is invalid: passphrase: not taken over MCP; the server reads it from --passphrase-file or $ISNAD_PASSPHRASE`)
      let input = parseOperationInput(spec, args) as Record<string, unknown>
      if (spec.name === 'addAnchor') input = await allowAnchorFile(input, init.anchorFiles)
      const access = init.access()
      const source = await via(access)
      const run = async (ops: NodeOperations): Promise<object> => {
        if (spec.signs !== true) return await present(await spec.run(ops, input, undefined), { ops, source })
        const did = await access.signerDid(input.as as string | undefined)
        return await access.withSigner(ops, did, async (signer) => await present(await spec.run(ops, input, signer), { ops, source }))
      }
      return await access.withOps(run, spec.readOnly === true ? 'read' : 'write')
    }))
  }

  return server
}

/** The anchor tool's file evidence, checked before any node is asked: a daemon would apply only its own allowance. */
async function allowAnchorFile (input: Record<string, unknown>, access: FileAnchorAccess | undefined): Promise<Record<string, unknown>> {
  const anchor = input.anchor as AnchorSource
  const allowance = access ?? { forbidden: [], allowed: [] }
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
