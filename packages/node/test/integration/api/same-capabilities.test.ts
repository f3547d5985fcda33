import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connectMcp } from './mcp-fixture.js'
import { jsonOf, startApi, type ApiFixture } from './api-fixture.js'
import { createHttpOperations, type HttpOperations } from '../../../src/api-access/index.js'
import { localCaller } from '../../../src/operations/index.js'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'

/*
 * What one surface can do, every surface can: an FDR selection is verified by the `verify`
 * operation over HTTP, MCP and the table's call (the library's and the CLI's way in), and
 * `explainTrust` carries the roots and the reputation of everyone the score rests on, on each.
 */
describe('the same capabilities on HTTP, MCP and the table\'s call', () => {
  let api: ApiFixture
  let mcp: Client
  let http: HttpOperations
  let memory: string

  beforeAll(async () => {
    api = await startApi()
    mcp = await connectMcp(api, 'same-capabilities')
    http = createHttpOperations({ url: api.url, token: api.token })
    const local = localCaller(api.operations)
    memory = (await local.call('remember', { type: 'fact', summary: 'the deploy needs a VPN', tags: ['ops'] })).id
    await local.call('attest', { id: memory, verdict: 'confirm', as: api.witness })
  })

  afterAll(async () => {
    await mcp.close()
    await api.stop()
  })

  const toolJson = async (name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> => {
    const result = await mcp.callTool({ name, arguments: args }) as { isError?: boolean, content: Array<{ text: string }> }
    expect(result.isError, result.content[0]?.text).not.toBe(true)
    return JSON.parse(result.content[0]?.text ?? '{}') as Record<string, unknown>
  }

  it('verifies an FDR selection, and refuses a tampered one, on every surface', async () => {
    const { selected } = await http.call('select', { selector: api.author, tags: ['ops'] })
    expect(selected).toHaveLength(1)
    const tampered = structuredClone(selected)
    const entry = tampered[0] as { ref: { worldId: string } }
    entry.ref.worldId = entry.ref.worldId.replace(/.$/, (c) => c === 'a' ? 'b' : 'a')
    for (const [document, valid] of [[{ selected }, true], [{ selected: tampered }, false]] as const) {
      const viaCall = await localCaller(api.operations).call('verify', { document })
      const viaClient = await http.call('verify', { document })
      const viaHttp = await jsonOf(await api.call('POST', '/v1/verify', document))
      const viaMcp = await toolJson('verify', { document })
      for (const report of [viaCall, viaClient, viaHttp.body, viaMcp]) expect(report).toMatchObject({ valid, document: 'fdr-selection' })
    }
  })

  it('explains trust with the roots and the reputation of the author and the witness on every surface', async () => {
    const viaCall = await localCaller(api.operations).call('explainTrust', { id: memory })
    expect(Object.keys(viaCall.reputation.agents).sort()).toEqual([api.author, api.witness].sort())
    expect(viaCall.reputation.roots.length).toBeGreaterThan(0)
    // The same standing and score on each (a result carries the time it was computed at).
    const same = { score: viaCall.score, level: viaCall.level, reputation: viaCall.reputation }
    expect(await http.call('explainTrust', { id: memory })).toMatchObject(same)
    expect((await jsonOf(await api.call('GET', `/v1/memories/${memory}/trust`))).body).toMatchObject(same)
    expect(await toolJson('explain_trust', { id: memory })).toMatchObject(same)
  })
})
