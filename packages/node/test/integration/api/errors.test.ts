import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { HTTP_STATUS_BY_CODE, errorResponseOf } from '../../../src/http/index.js'
import { MAX_BUNDLE_REQUEST_BYTES, MAX_REQUEST_BYTES } from '../../../src/operations/index.js'
import { ERROR_CODES, IsnadError } from '../../../src/errors/index.js'
import type { Bundle, MemoryView } from '../../../src/schema/index.js'
import { countsOf, jsonOf, startApi, type ApiFixture } from './api-fixture.js'

interface ErrorBody { error: { code: string, message: string } }

describe('API errors: stable codes, statuses from one table, nothing stored', () => {
  let api: ApiFixture
  let memory: MemoryView

  beforeAll(async () => {
    api = await startApi()
    memory = (await jsonOf<MemoryView>(await api.call('POST', '/v1/memories', { summary: 'the one memory', tags: ['x'] }))).body
  })

  afterAll(async () => { await api.stop() })

  /** Sends a request that must fail with `status` and `code`, and checks the store did not change. */
  async function refused (status: number, code: string, method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<void> {
    const before = await countsOf(api)
    const response = await jsonOf<ErrorBody>(await api.call(method, path, body, headers))
    const what = `${method} ${path} → ${JSON.stringify(response.body)}`
    expect(response.status, what).toBe(status)
    expect(response.body.error.code, what).toBe(code)
    expect(response.body.error.message, what).toBeTypeOf('string')
    expect(await countsOf(api), what).toEqual(before)
  }

  it('refuses invalid request bodies with 400 and the record layer\'s codes', async () => {
    await refused(400, 'FIELD_TOO_LARGE', 'POST', '/v1/memories', { summary: 'x'.repeat(513) })
    await refused(400, 'SCHEMA_INVALID', 'POST', '/v1/memories', { summary: 'typed wrong', type: 'rumour' })
    await refused(400, 'SCHEMA_INVALID', 'POST', '/v1/memories', { summary: 'unknown field', colour: 'blue' })
    await refused(400, 'SCHEMA_INVALID', 'POST', '/v1/memories', { summary: 'line\nbreak' })
    // A malformed did:key is DID_INVALID on every path, as the CLI always said.
    await refused(400, 'DID_INVALID', 'POST', '/v1/memories', { summary: 'bad key', as: 'did:web:example.com' })
    await refused(400, 'SCHEMA_INVALID', 'POST', '/v1/memories', {})
    await refused(400, 'JSON_INVALID', 'POST', '/v1/memories', '{"summary": ')
    await refused(400, 'SCHEMA_INVALID', 'POST', `/v1/memories/${memory.id}/attestations`, { verdict: 'confirm', claims: ['only on partial'], as: api.witness })
    await refused(400, 'SCHEMA_INVALID', 'POST', '/v1/export', { ids: [] })
    await refused(400, 'BUNDLE_INVALID', 'POST', '/v1/import', { format: 'isnad-bundle/v0', exported_at: '2026-01-01T00:00:00Z', records: [] })
  })

  it('refuses invalid paths and query strings with 400', async () => {
    // A malformed record id is CID_INVALID on every path (CLI, MCP, library alike).
    await refused(400, 'CID_INVALID', 'GET', '/v1/memories/not-a-cid')
    await refused(400, 'CID_INVALID', 'GET', '/v1/ledger/prove/not-a-cid')
    await refused(400, 'CID_INVALID', 'POST', '/v1/export', { ids: ['not-a-cid'] })
    // An unknown query parameter is a typo, refused like an unknown body field.
    await refused(400, 'SCHEMA_INVALID', 'GET', '/v1/memories?tags=ops&bogus=1')
    await refused(400, 'USAGE', 'GET', '/v1/memories?tags=ops&tag=ops')
    await refused(400, 'SCHEMA_INVALID', 'GET', '/v1/memories?minTrust=2')
    await refused(400, 'SCHEMA_INVALID', 'GET', '/v1/memories?limit=0')
    await refused(400, 'SCHEMA_INVALID', 'GET', '/v1/memories?since=yesterday')
    await refused(400, 'DID_INVALID', 'GET', '/v1/ids/did:key:nope')
    await refused(400, 'USAGE', 'GET', '/v1/memories?cursor=garbage')
  })

  it('answers 404 for what is not there, 422 for what a record rule refuses', async () => {
    const unknown = memory.id.slice(0, -2) + (memory.id.endsWith('a') ? 'ea' : 'aa')
    await refused(404, 'NOT_FOUND', 'GET', `/v1/memories/${unknown}`)
    await refused(404, 'NOT_FOUND', 'GET', `/v1/ledger/prove/${unknown}`)
    await refused(404, 'UNKNOWN_KEY', 'POST', '/v1/memories', { summary: 'no such key', as: 'did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK' })
    await refused(422, 'SELF_ATTESTATION', 'POST', `/v1/memories/${memory.id}/attestations`, { verdict: 'confirm' })
  })

  it('refuses a bundle with one forged record whole: 422 SIGNATURE_INVALID, nothing stored', async () => {
    const bundle = (await jsonOf<Bundle>(await api.call('POST', '/v1/export', { ids: [memory.id] }))).body
    const other = await startApi()
    try {
      const fresh = (await jsonOf<MemoryView>(await other.call('POST', '/v1/memories', { summary: 'theirs' }))).body
      const theirs = (await jsonOf<Bundle>(await other.call('POST', '/v1/export', { ids: [fresh.id] }))).body
      const [signed] = theirs.records
      if (signed?.record.kind !== 'memory') throw new Error('expected a memory')
      const forged = { ...signed, record: { ...signed.record, content: { ...signed.record.content, summary: 'forged' } } }
      await refused(422, 'SIGNATURE_INVALID', 'POST', '/v1/import', { ...bundle, records: [...theirs.records, forged] })
    } finally {
      await other.stop()
    }
  })

  it('asks for the passphrase of an encrypted key: 400 PASSPHRASE_REQUIRED, 403 PASSPHRASE_WRONG', async () => {
    const key = (await jsonOf<{ did: string }>(await api.call('POST', '/v1/ids', { passphrase: 'right' }))).body.did
    await refused(400, 'PASSPHRASE_REQUIRED', 'POST', '/v1/memories', { summary: 'locked', as: key })
    await refused(403, 'PASSPHRASE_WRONG', 'POST', '/v1/memories', { summary: 'locked', as: key, passphrase: 'wrong' })
  })

  it('refuses bodies over the limit with 413 before reading them', async () => {
    await refused(413, 'BODY_TOO_LARGE', 'POST', '/v1/memories', { summary: 'big', body: 'x'.repeat(MAX_REQUEST_BYTES) })
    const bundle = { format: 'isnad-bundle/v1', exported_at: '2026-01-01T00:00:00Z', records: [], pad: 'x'.repeat(MAX_BUNDLE_REQUEST_BYTES) }
    await refused(413, 'BODY_TOO_LARGE', 'POST', '/v1/import', bundle)
    // Without Content-Length the body is counted as it streams in.
    const chunked = new ReadableStream<Uint8Array>({
      start (controller) {
        controller.enqueue(new TextEncoder().encode(`{"summary":"streamed","body":"${'y'.repeat(MAX_REQUEST_BYTES)}"}`))
        controller.close()
      }
    })
    const response = await fetch(`${api.url}/v1/memories`, {
      method: 'POST', body: chunked, duplex: 'half', headers: { authorization: `Bearer ${api.token}`, 'content-type': 'application/json' }
    } as RequestInit)
    expect(response.status).toBe(413)
    expect(await response.json()).toMatchObject({ error: { code: 'BODY_TOO_LARGE' } })
  })

  it('refuses bodies that are not JSON with 415', async () => {
    await refused(415, 'UNSUPPORTED_MEDIA_TYPE', 'POST', '/v1/memories', undefined, { 'content-type': 'text/plain' })
    const response = await fetch(`${api.url}/v1/memories`, {
      method: 'POST', body: 'summary=x', headers: { authorization: `Bearer ${api.token}`, 'content-type': 'application/x-www-form-urlencoded' }
    })
    expect(response.status).toBe(415)
  })
})

describe('the status table', () => {
  it('maps every code of src/errors to a status', () => {
    for (const code of ERROR_CODES) expect(HTTP_STATUS_BY_CODE[code], code).toBeGreaterThanOrEqual(400)
    expect(HTTP_STATUS_BY_CODE.NOT_FOUND).toBe(404)
    expect(HTTP_STATUS_BY_CODE.SIGNATURE_INVALID).toBe(422)
    expect(HTTP_STATUS_BY_CODE.STORE_LOCKED).toBe(409)
    expect(HTTP_STATUS_BY_CODE.RECORD_TOO_LARGE).toBe(413)
  })

  it('answers 507 DISK_FULL for a full disk, named by the node or raw from LevelDB or fs, saying what to do', () => {
    expect(HTTP_STATUS_BY_CODE.DISK_FULL).toBe(507)
    const raw = [
      Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' }),
      Object.assign(new Error('EDQUOT: disk quota exceeded, write'), { code: 'EDQUOT' }),
      // classic-level: the errno only in LevelDB's text, under its own code
      Object.assign(new Error('Write failed'), { code: 'LEVEL_IO_ERROR', cause: new Error('IO error: /x/.memory/index/records/000012.log: No space left on device') }),
      new IsnadError('IO_ERROR', 'cannot write x', { cause: Object.assign(new Error('ENOSPC'), { code: 'ENOSPC' }) })
    ]
    for (const err of raw) {
      const { status, body } = errorResponseOf(err)
      expect([status, body.error.code], String(err)).toEqual([507, 'DISK_FULL'])
      expect(body.error.message, String(err)).toMatch(/the disk is full.*Nothing acknowledged was lost.*writes resume once space is freed/)
    }
  })

  it('answers 500 for an unknown error without its message', () => {
    expect(errorResponseOf(new Error('EACCES /home/secret/path'))).toEqual({ status: 500, body: { error: { code: 'INTERNAL', message: 'internal error' } } })
    expect(errorResponseOf(new IsnadError('LEDGER_LOCKED', 'held by pid 7'))).toEqual({ status: 409, body: { error: { code: 'LEDGER_LOCKED', message: 'held by pid 7' } } })
  })
})
