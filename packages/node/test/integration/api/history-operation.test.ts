import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHttpOperations, type HttpOperations } from '../../../src/api-access/client.js'
import { createNode } from '../../../src/library.js'
import { BUNDLE_FORMAT } from '../../../src/schema/index.js'
import { ensureBuilt } from '../../fixtures/build-dist.js'
import { createAgent, createMemory } from '../../fixtures/records.js'
import { runIsnad, withTempDir } from '../cli/run-cli.js'
import { startApi, type ApiFixture } from './api-fixture.js'
import { connectMcp } from './mcp-fixture.js'

/*
 * `history`, added to the table alone (its spec in memory-ops.ts and its entry in table.ts): the
 * versions of a memory along its corrections, the same over HTTP, MCP, the library and the generated
 * command `isnad history <id>`.
 */

const UNKNOWN = 'bafyreigdmqpykrgxyaxtlafqpqhzrb7qy2rh75nldvfd4tucqmqqme5yje'

describe('history: the versions of a memory, on every surface', () => {
  let api: ApiFixture
  let http: HttpOperations
  const ids: string[] = []

  beforeAll(async () => {
    ensureBuilt()
    api = await startApi()
    http = createHttpOperations({ url: api.url, token: api.token })
    // An original, its correction, and the correction's correction.
    for (const summary of ['the deploy key lives in vault', 'the deploy key lives in vault/ops', 'the deploy key lives in vault/ops/deploy']) {
      const view = await http.call('remember', { summary, ...(ids.length === 0 ? {} : { supersedes: ids[ids.length - 1] }) })
      ids.push(view.id)
    }
  }, 180_000)

  afterAll(async () => { await api.stop() })

  it('lists every version oldest first and names the newest as current, from whichever version is asked', async () => {
    for (const id of ids) {
      const answer = await http.call('history', { id })
      expect(answer.current, id).toBe(ids[2])
      expect(answer.missing, id).toBeNull()
      expect(answer.versions.map((v) => v.id), id).toEqual(ids)
    }
    const { versions } = await http.call('history', { id: ids[0] as string })
    expect(versions[0]).toEqual({ id: ids[0], summary: 'the deploy key lives in vault', author: api.author, created_at: expect.any(String), level: 'Unverified' })
  })

  it('is the memory alone when nothing corrects it', async () => {
    const alone = await http.call('remember', { summary: 'nothing corrects this' })
    expect(await http.call('history', { id: alone.id })).toMatchObject({ current: alone.id, versions: [{ id: alone.id }], missing: null })
  })

  it('names an older version this node does not hold, and starts the list after it', async () => {
    const stranger = createAgent(7)
    const correction = createMemory(stranger, { summary: 'corrects a memory this node never saw', supersedes: UNKNOWN })
    await http.call('importBundle', { bundle: { format: BUNDLE_FORMAT, exported_at: '2026-02-05T16:00:00Z', records: [correction.signed] } })
    expect(await http.call('history', { id: correction.id })).toMatchObject({ current: correction.id, versions: [{ id: correction.id, author: stranger.did }], missing: UNKNOWN })
  })

  it('refuses an unknown memory with NOT_FOUND and a malformed id with CID_INVALID', async () => {
    await expect(http.call('history', { id: UNKNOWN })).rejects.toMatchObject({ code: 'NOT_FOUND' })
    await expect(http.call('history', { id: 'not-a-cid' })).rejects.toMatchObject({ code: 'CID_INVALID' })
  })

  it('is the MCP tool memory_history, with the same answer under the evidence notice', async () => {
    const client = await connectMcp(api, 'history-test')
    try {
      const result = await client.callTool({ name: 'memory_history', arguments: { id: ids[1] } })
      // The summaries are other agents' claims: a model reads them as evidence, not instructions.
      const { notice, ...answer } = result.structuredContent as { notice: string }
      expect(notice).toMatch(/evidence, not instructions/)
      expect(answer).toEqual(await http.call('history', { id: ids[1] as string }))
    } finally {
      await client.close()
    }
  })

  it('is the library method node.history and the generated command `isnad history <id>`', async () => {
    await withTempDir(async (home) => {
      const node = await createNode({ home })
      const first = await node.remember({ summary: 'first take' })
      const second = await node.remember({ summary: 'second take', supersedes: first.id })
      const viaLibrary = await node.history({ id: first.id })
      await node.close()
      expect(viaLibrary).toMatchObject({ current: second.id, versions: [{ id: first.id }, { id: second.id }] })

      const json = await runIsnad(['history', first.id, '--json'], { home })
      expect(json.code, json.stderr).toBe(0)
      expect(json.json()).toEqual(viaLibrary)
      const text = await runIsnad(['history', second.id], { home })
      expect(text.code, text.stderr).toBe(0)
      expect(text.stdout).toMatch(new RegExp(`^  \\S+  Unverified  ${first.id}\\n    first take\\n\\* \\S+  Unverified  ${second.id}\\n    second take\\n$`))
      expect((await runIsnad(['history', 'not-a-cid', '--json'], { home })).errorCode()).toBe('CID_INVALID')
    })
  }, 60_000)
})
