import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Bundle, MemoryView, TrustResult } from '../../../src/schema/index.js'
import { countsOf, jsonOf, startApi, type ApiFixture } from './api-fixture.js'

/** The happy path of every route, against a real LocalNode in a temp home. */
describe('the local HTTP API over a LocalNode', () => {
  let api: ApiFixture
  let other: ApiFixture
  let memory: MemoryView
  let encrypted: string

  beforeAll(async () => {
    api = await startApi()
    other = await startApi()
  })

  afterAll(async () => {
    await api.stop()
    await other.stop()
  })

  it('GET /v1/status and GET /v1/ids describe the home and its agents', async () => {
    const status = await jsonOf(await api.call('GET', '/v1/status'))
    expect(status).toMatchObject({ status: 200, body: { home: api.home, records: { memory: 0, attestation: 0, anchor: 0, witness_request: 0 } } })
    expect(status.body.agents).toEqual(expect.arrayContaining([
      { did: api.author, label: 'default', default: true },
      { did: api.witness, label: 'witness', default: false }
    ]))
    const ids = await jsonOf<Array<{ did: string, default: boolean }>>(await api.call('GET', '/v1/ids'))
    expect(ids.status).toBe(200)
    expect(ids.body.map((k) => k.did).sort()).toEqual([api.author, api.witness].sort())
    const one = await jsonOf(await api.call('GET', `/v1/ids/${api.author}`))
    expect(one).toMatchObject({ status: 200, body: { did: api.author, default: true, encrypted: false } })
  })

  it('POST /v1/ids creates keys, encrypted when given a passphrase, and never returns a secret', async () => {
    const created = await jsonOf<{ did: string }>(await api.call('POST', '/v1/ids', { label: 'carol', passphrase: 'correct horse' }))
    expect(created).toMatchObject({ status: 201, body: { label: 'carol', encrypted: true, default: false } })
    expect(JSON.stringify(created.body)).not.toMatch(/seed|secret|nonce/)
    encrypted = created.body.did
    const bare = await api.call('POST', '/v1/ids')
    expect(bare.status).toBe(201)
  })

  it('POST /v1/memories remembers, signing with the default key or the one named by `as`', async () => {
    const created = await jsonOf<MemoryView>(await api.call('POST', '/v1/memories', {
      type: 'decision', summary: 'serve the API on loopback only', body: 'docs/threat-model.md', tags: ['api', 'security'], confidence: 0.9
    }))
    expect(created.status).toBe(201)
    memory = created.body
    expect(memory).toMatchObject({
      version: 1,
      content: { type: 'decision', summary: 'serve the API on loopback only', body: 'docs/threat-model.md', tags: ['api', 'security'] },
      provenance: { author: { agent_id: api.author }, context: { confidence: 0.9 } },
      witnesses: []
    })
    const signed = await jsonOf<MemoryView>(await api.call('POST', '/v1/memories', { summary: 'as carol', as: encrypted, passphrase: 'correct horse', tags: ['api'] }))
    expect(signed).toMatchObject({ status: 201, body: { content: { type: 'observation', body: 'as carol' }, provenance: { author: { agent_id: encrypted } } } })
  })

  it('GET /v1/memories/{id} and /trust return the view and the explanation', async () => {
    const shown = await jsonOf<MemoryView>(await api.call('GET', `/v1/memories/${memory.id}`))
    expect(shown.status).toBe(200)
    expect({ ...shown.body, trust: undefined }).toEqual({ ...memory, trust: undefined })
    const trust = await jsonOf<TrustResult>(await api.call('GET', `/v1/memories/${memory.id}/trust`))
    expect(trust).toMatchObject({ status: 200, body: { policy: 'isnad-reputation', factors: { signature_valid: true, witness_count: 0 } } })
  })

  it('POST /v1/memories/{id}/attestations witnesses as another local agent and rescores', async () => {
    const before = (await jsonOf<TrustResult>(await api.call('GET', `/v1/memories/${memory.id}/trust`))).body.score
    const result = await jsonOf<{ attestation: string, memory: MemoryView }>(
      await api.call('POST', `/v1/memories/${memory.id}/attestations`, { verdict: 'confirm', notes: 'seen it', as: api.witness }))
    expect(result.status).toBe(201)
    expect(result.body.memory.witnesses).toMatchObject([{ id: result.body.attestation, agent_id: api.witness, attestation: 'confirm', notes: 'seen it' }])
    const after = (await jsonOf<TrustResult>(await api.call('GET', `/v1/memories/${memory.id}/trust`))).body.score
    expect(after).toBeGreaterThan(before)
  })

  it('GET /v1/memories queries by tag, type, author, trust, and pages with a cursor', async () => {
    const ids = async (query: string): Promise<string[]> => {
      const page = await jsonOf<{ items: Array<{ id: string }> }>(await api.call('GET', `/v1/memories${query}`))
      expect(page.status, query).toBe(200)
      return page.body.items.map((i) => i.id)
    }
    expect(await ids('?tag=api&tag=security')).toEqual([memory.id])
    expect(await ids('?tag=api')).toHaveLength(2)
    expect(await ids('?type=decision')).toEqual([memory.id])
    expect(await ids(`?author=${encodeURIComponent(api.author)}`)).toEqual([memory.id])
    expect(await ids('?minTrust=0.99')).toEqual([])
    const first = await jsonOf<{ items: Array<{ id: string, level: string }>, next?: string }>(await api.call('GET', '/v1/memories?limit=1'))
    expect(first.body.items).toMatchObject([{ id: memory.id, level: expect.any(String) }])
    expect(first.body.next).toBeTypeOf('string')
    expect(await ids(`?limit=1&cursor=${encodeURIComponent(first.body.next ?? '')}`)).toHaveLength(1)
  })

  it('POST /v1/verify checks a view offline', async () => {
    const view = (await jsonOf<MemoryView>(await api.call('GET', `/v1/memories/${memory.id}`))).body
    const report = await jsonOf(await api.call('POST', '/v1/verify', view))
    expect(report).toMatchObject({ status: 200, body: { valid: true, document: 'memory-view' } })
    const forged = { ...view, content: { ...view.content, summary: 'something else' } }
    const refused = await jsonOf<{ valid: boolean, records: Array<{ valid: boolean }> }>(await api.call('POST', '/v1/verify', forged))
    expect(refused.status).toBe(200)
    expect(refused.body.valid).toBe(false)
  })

  it('POST /v1/export and POST /v1/import move a memory with its evidence to another node', async () => {
    const bundle = await jsonOf<Bundle>(await api.call('POST', '/v1/export', { ids: [memory.id] }))
    expect(bundle.status).toBe(200)
    expect(bundle.body.format).toBe('isnad-bundle/v1')
    expect(bundle.body.records.map((r) => r.record.kind).sort()).toEqual(['attestation', 'memory'])
    const imported = await jsonOf<{ stored: string[], duplicates: string[] }>(await other.call('POST', '/v1/import', bundle.body))
    expect(imported.status).toBe(200)
    expect(imported.body.stored).toHaveLength(2)
    expect(imported.body.stored).toContain(memory.id)
    const again = await jsonOf<{ stored: string[], duplicates: string[] }>(await other.call('POST', '/v1/import', bundle.body))
    expect(again.body).toMatchObject({ stored: [], duplicates: expect.arrayContaining([memory.id]) })
    expect((await jsonOf<MemoryView>(await other.call('GET', `/v1/memories/${memory.id}`))).body.witnesses).toHaveLength(1)
  })

  it('GET /v1/ledger/checkpoint and /prove/{cid} give a proof that POST /v1/verify accepts', async () => {
    const checkpoint = await jsonOf<{ record: { size: number, log: string } }>(await api.call('GET', '/v1/ledger/checkpoint'))
    expect(checkpoint.status).toBe(200)
    expect(checkpoint.body.record.size).toBeGreaterThanOrEqual(3)
    const proof = await jsonOf<{ record: string }>(await api.call('GET', `/v1/ledger/prove/${memory.id}`))
    expect(proof).toMatchObject({ status: 200, body: { record: memory.id } })
    const report = await jsonOf(await api.call('POST', '/v1/verify', proof.body))
    expect(report).toMatchObject({ status: 200, body: { valid: true, document: 'record-inclusion' } })
  })

  it('POST /v1/ledger/observe keeps another node\'s checkpoint', async () => {
    const theirs = (await jsonOf(await other.call('GET', '/v1/ledger/checkpoint'))).body
    expect(await jsonOf(await api.call('POST', '/v1/ledger/observe', theirs))).toEqual({ status: 200, body: { outcome: 'new' } })
    expect(await jsonOf(await api.call('POST', '/v1/ledger/observe', theirs))).toEqual({ status: 200, body: { outcome: 'known' } })
  })

  it('POST /v1/ledger/reindex rebuilds the index; the node keeps serving the same data', async () => {
    const before = await countsOf(api)
    const result = await jsonOf<{ records: number, memories: number }>(await api.call('POST', '/v1/ledger/reindex'))
    expect(result.status).toBe(200)
    expect(result.body).toMatchObject({ records: before.memory! + before.attestation!, memories: before.memory })
    expect(await countsOf(api)).toEqual(before)
    expect((await api.call('GET', `/v1/memories/${memory.id}`)).status).toBe(200)
    // Requests made while the index is rebuilt wait for it rather than failing.
    const [reindexed, shown] = await Promise.all([api.call('POST', '/v1/ledger/reindex'), api.call('GET', `/v1/memories/${memory.id}`)])
    expect([reindexed.status, shown.status]).toEqual([200, 200])
  })

  it('peers need a running network node; witness requests and the inbox work locally', async () => {
    const response = await jsonOf<{ error: { code: string, message: string } }>(await api.call('GET', '/v1/peers'))
    expect(response.status).toBe(400)
    expect(response.body.error).toMatchObject({ code: 'USAGE', message: expect.stringMatching(/needs a running network node/) })
    const keys = await jsonOf<Array<{ did: string, default: boolean }>>(await api.call('POST', '/v1/ids', { label: 'witness' }))
    const witness = (keys.body as unknown as { did: string }).did
    const request = await jsonOf<{ id: string, record: { witnesses?: string[] } }>(await api.call('POST', '/v1/witness-requests', { id: memory.id, to: [witness] }))
    expect(request.status).toBe(201)
    expect(request.body.record.witnesses).toEqual([witness])
    const inbox = await jsonOf<{ items: Array<{ request: string, to: string[] }> }>(await api.call('GET', '/v1/inbox'))
    expect(inbox.body.items).toContainEqual(expect.objectContaining({ request: request.body.id, to: [witness] }))
  })
})
