import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHttpOperations, type HttpOperations } from '../../../src/api-access/client.js'
import { ApiError } from '../../../src/api-access/index.js'
import { IsnadError } from '../../../src/errors/index.js'
import { startApi, type ApiFixture } from '../api/api-fixture.js'

const UNKNOWN = 'bafyreigeuaqg4arao66zdeisdv3amxwpjpdeuy4plrhiti66hcrungztki'

/** What an operation threw, as the CLI would print it. */
async function failureOf (fn: () => Promise<unknown>): Promise<{ type: string, code: string, message: string, details?: unknown }> {
  try {
    await fn()
  } catch (err) {
    if (err instanceof IsnadError) return { type: 'IsnadError', code: err.code, message: err.message, ...(err.details === undefined ? {} : { details: err.details }) }
    if (err instanceof ApiError) return { type: 'ApiError', code: err.code, message: err.message }
    throw err
  }
  throw new Error('expected a failure')
}

describe('createHttpOperations against the API server', () => {
  let api: ApiFixture
  let http: HttpOperations

  beforeAll(async () => {
    api = await startApi()
    http = createHttpOperations({ url: api.url, token: api.token })
  })
  afterAll(async () => { await api.stop() })

  it('answers every operation as the local operations do', async () => {
    const local = api.operations
    expect(await http.call('status', {})).toEqual(await local.status())
    expect(await http.call('listKeys', {})).toEqual(await local.listKeys())
    expect(await http.call('keyInfo', { did: api.witness })).toEqual(await local.keyInfo(api.witness))
    const view = await http.call('remember', { type: 'fact', summary: 'over HTTP', tags: ['http', 'cli'], confidence: 0.6 })
    expect(view.provenance.author.agent_id).toBe(api.author)
    const attested = await http.call('attest', { id: view.id, verdict: 'partial', claims: ['over'], as: api.witness })
    expect(attested.memory.witnesses.map((w) => w.attestation)).toEqual(['partial'])
    expect(await http.call('show', { id: view.id })).toEqual({ ...await local.show(view.id), trust: expect.any(Object) })
    expect((await http.call('explainTrust', { id: view.id })).score).toBe((await local.explainTrust(view.id)).score)
    expect(await http.call('query', { tags: ['http', 'cli'], minTrust: 0.3, limit: 5 })).toEqual(await local.query({ tags: ['http', 'cli'], minTrust: 0.3, limit: 5 }))

    const bundle = await http.call('exportBundle', { ids: [view.id] })
    expect(bundle.records).toHaveLength(2)
    expect(await http.call('importBundle', { bundle })).toMatchObject({ stored: [], duplicates: expect.arrayContaining([view.id, attested.attestation]) })
    expect((await http.call('verify', { document: bundle })).valid).toBe(true)
    const inclusion = await http.call('proveRecord', { id: view.id })
    expect((await http.call('verify', { document: inclusion })).valid).toBe(true)
    expect((await http.call('latestCheckpoint', {})).record.size).toBeGreaterThan(0)
    expect((await http.call('observeCheckpoint', { checkpoint: await http.call('latestCheckpoint', {}) })).outcome).toBe('known')

    const unanswered = await http.call('remember', { type: 'observation', summary: 'who saw it?' })
    const request = await http.call('requestWitnesses', { id: unanswered.id, to: [api.witness] })
    expect(request.record.witnesses).toEqual([api.witness])
    expect((await http.call('inbox', {})).items.map((i) => i.request)).toContain(request.id)
  })

  it('turns error responses back into the same errors, code, message and details', async () => {
    const local = api.operations
    expect(await failureOf(async () => await http.call('show', { id: UNKNOWN }))).toEqual(await failureOf(async () => await local.show(UNKNOWN)))
    expect(await failureOf(async () => (await http.call('peers', {})).peers)).toEqual(await failureOf(async () => await local.peers()))
    expect(await failureOf(async () => await http.call('keyInfo', { did: 'did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK' })))
      .toEqual(await failureOf(async () => await local.keyInfo('did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK')))
    const memory = (await http.call('remember', { type: 'fact', summary: 'mine' })).id
    expect(await failureOf(async () => await http.call('attest', { id: memory, verdict: 'confirm' })))
      .toMatchObject({ type: 'IsnadError', code: 'SELF_ATTESTATION' })
  })

  it('reports a wrong token as UNAUTHORIZED, an absent daemon and a silent one as IO_ERROR', async () => {
    const wrong = createHttpOperations({ url: api.url, token: 'A'.repeat(43) })
    expect(await failureOf(async () => await wrong.call('status', {}))).toMatchObject({ type: 'ApiError', code: 'UNAUTHORIZED' })

    const absent = createHttpOperations({ url: 'http://127.0.0.1:9', token: api.token })
    const refused = await failureOf(async () => await absent.call('status', {}))
    expect(refused).toMatchObject({ type: 'IsnadError', code: 'IO_ERROR' })
    expect(refused.message).toContain('cannot reach the daemon at http://127.0.0.1:9')

    // A daemon that accepts the request and never answers: the deadline ends the wait.
    const silent: typeof fetch = async (_input, init) => await new Promise<Response>((_resolve, reject) => {
      init?.signal?.addEventListener('abort', () => { reject(init.signal?.reason) })
    })
    const hung = createHttpOperations({ url: api.url, token: api.token, fetch: silent, timeoutMs: 50 })
    const timedOut = await failureOf(async () => await hung.call('status', {}))
    expect(timedOut).toMatchObject({ type: 'IsnadError', code: 'IO_ERROR' })
    expect(timedOut.message).toContain('did not answer GET /v1/status within 50 ms')
  })
})
