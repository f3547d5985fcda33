import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { describe, expect, it } from 'vitest'
import type { NodeAccess } from '../../../src/mcp/index.js'
import { createMcpServer } from '../../../src/mcp/index.js'
import { TOOLS, toolListOf } from '../../../src/mcp/tools.js'

/*
 * The MCP server is the SDK's low-level Server with tools/list and tools/call of our own,
 * no longer McpServer with its private validateToolInput replaced. What an agent sees must not have
 * changed: the list is what McpServer listed for the same zod schemas, and a call to a tool that
 * does not exist gets the same answer.
 */

async function connect (server: { connect: McpServer['connect'] }): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
  await server.connect(serverSide)
  const client = new Client({ name: 'tool-list', version: '1.0.0' })
  await client.connect(clientSide)
  return client
}

/** A node that must not be reached: every call here is refused or answered before it. */
const unreachable: NodeAccess = {
  daemon: async () => { throw new Error('no node in this test') },
  call: async () => { throw new Error('no node in this test') }
}

describe('the MCP tools as an agent sees them', () => {
  it('lists every tool as the SDK\'s McpServer listed it', async () => {
    const reference = new McpServer({ name: 'isnad', version: 'test' })
    for (const tool of TOOLS.values()) {
      reference.registerTool(tool.name, {
        title: tool.title,
        description: tool.spec.summary,
        inputSchema: tool.input,
        ...(tool.spec.readOnly === true ? { annotations: { readOnlyHint: true } } : {})
      }, async () => ({ content: [] }))
    }
    const referenceClient = await connect(reference)
    const client = await connect(createMcpServer({ access: () => unreachable, version: 'test' }))
    const expected = (await referenceClient.listTools()).tools
    const listed = (await client.listTools()).tools
    expect(listed.length).toBe(TOOLS.size)
    expect(TOOLS.size).toBeGreaterThan(10)
    expect(listed).toEqual(expected)
    expect(JSON.parse(JSON.stringify(toolListOf(TOOLS)))).toEqual(expected)
    // A tool that does not exist: the same answer.
    const missing = await client.callTool({ name: 'no_such_tool', arguments: {} })
    expect(missing).toEqual(await referenceClient.callTool({ name: 'no_such_tool', arguments: {} }))
    expect(missing.isError).toBe(true)
  })

  it('refuses bad arguments with the table\'s codes before it asks a node', async () => {
    const client = await connect(createMcpServer({ access: () => unreachable, version: 'test' }))
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['query_memories', { tag: 'ops', bogus: 1 }, 'SCHEMA_INVALID'],
      ['show_memory', { id: 'not-a-cid' }, 'CID_INVALID'],
      ['remember', { type: 'fact', summary: 'x', passphrase: 'secret' }, 'SCHEMA_INVALID']
    ]
    for (const [name, args, code] of cases) {
      const result = await client.callTool({ name, arguments: args }) as CallToolResult
      expect(result.isError, `${name} ${JSON.stringify(args)}`).toBe(true)
      const first = result.content[0]
      expect(first?.type === 'text' ? first.text : '', `${name} ${JSON.stringify(args)}`).toMatch(new RegExp(`^${code}: `))
    }
  })
})
