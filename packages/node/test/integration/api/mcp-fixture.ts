import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import { createMcpServer, type NodeAccess } from '../../../src/mcp/index.js'
import { localCaller, OPERATION_SPECS } from '../../../src/operations/index.js'
import type { ApiFixture } from './api-fixture.js'

/** An MCP client of a server over the fixture's operations (the ones its API serves), through the SDK's in-memory transport. */
export async function connectMcp (api: ApiFixture, name: string): Promise<Client> {
  const access: NodeAccess = {
    daemon: async () => null,
    // A signing tool signs as the fixture's author unless it names a key.
    call: async (name, input) => await localCaller(api.operations).call(name, OPERATION_SPECS[name].signs === true ? { as: api.author, ...input } : input)
  }
  const server = createMcpServer({ access: () => access, version: 'test' })
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
  await server.connect(serverSide)
  const client = new Client({ name, version: '1.0.0' })
  await client.connect(clientSide)
  return client
}
