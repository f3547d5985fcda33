import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHttpOperations, type HttpOperations } from '../../../src/api-access/client.js'
import { createNode } from '../../../src/library.js'
import { ensureBuilt } from '../../fixtures/build-dist.js'
import { createAgent } from '../../fixtures/records.js'
import { runIsnad, withTempDir } from '../cli/run-cli.js'
import { startApi, type ApiFixture } from './api-fixture.js'
import { connectMcp } from './mcp-fixture.js'

/*
 * `agent`, added to the table alone (its spec in network-ops.ts and its entry in table.ts): the
 * same answer over HTTP, MCP, the library and the generated CLI command, with no file of its own on
 * any surface.
 */

describe('agent: what this node knows of one agent, on every surface', () => {
  let api: ApiFixture
  let http: HttpOperations
  const outsider = createAgent(41).did

  beforeAll(async () => {
    ensureBuilt()
    api = await startApi()
    http = createHttpOperations({ url: api.url, token: api.token })
  }, 180_000)

  afterAll(async () => { await api.stop() })

  it('says an own agent is one, with its key (no secret, no file), a root, at reputation 1', async () => {
    const about = await http.call('agent', { did: api.witness })
    expect(about).toEqual({
      did: api.witness,
      key: { label: 'witness', created_at: expect.any(String), default: false, encrypted: false },
      root: { did: api.witness, source: 'own-agent' },
      reputation: expect.objectContaining({ did: api.witness, root: true, reputation: 1 })
    })
    expect(await api.operations.keyInfo(api.witness)).toMatchObject(about.key ?? {})
  })

  it('says an unknown agent is neither, until the operator makes it a root', async () => {
    expect(await http.call('agent', { did: outsider })).toMatchObject({ key: null, root: null, reputation: { root: false } })
    await http.call('addTrustRoot', { did: outsider })
    try {
      expect(await http.call('agent', { did: outsider })).toMatchObject({ key: null, root: { did: outsider, source: 'added' }, reputation: { root: true, reputation: 1 } })
    } finally {
      await http.call('removeTrustRoot', { did: outsider })
    }
  })

  it('refuses a malformed did with DID_INVALID, as every operation does', async () => {
    await expect(http.call('agent', { did: 'did:key:nope' })).rejects.toMatchObject({ code: 'DID_INVALID' })
  })

  it('is the MCP tool about_agent, with the same answer', async () => {
    const client = await connectMcp(api, 'agent-test')
    try {
      const result = await client.callTool({ name: 'about_agent', arguments: { did: api.author } })
      expect(result.structuredContent).toEqual(await http.call('agent', { did: api.author }))
    } finally {
      await client.close()
    }
  })

  it('is the library method node.agent and the generated command `isnad agent <did>`', async () => {
    await withTempDir(async (home) => {
      const node = await createNode({ home })
      const own = (await node.listKeys({}))[0]?.did ?? ''
      const viaLibrary = await node.agent({ did: own })
      await node.close()
      expect(viaLibrary).toMatchObject({ did: own, key: { default: true }, root: { source: 'own-agent' } })

      const json = await runIsnad(['agent', own, '--json'], { home })
      expect(json.code, json.stderr).toBe(0)
      expect(json.json()).toEqual(viaLibrary)
      const text = await runIsnad(['agent', outsider], { home })
      expect(text.code, text.stderr).toBe(0)
      expect(text.stdout).toContain(`agent ${outsider}\n  own agent  no\n  trust root no\n  ${outsider}  reputation 0.0000`)
      const bad = await runIsnad(['agent', 'did:key:nope', '--json'], { home })
      expect(bad.errorCode()).toBe('DID_INVALID')
    })
  }, 60_000)
})
