import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ApiEventHub, type InboxItem, type NodeOperations, type PeerInfo, type Signer, type WitnessRequestInput, type WitnessRequestResult } from '../../../src/operations/index.js'
import { type LocalOperations } from '../../../src/operations/local/index.js'
import { signRecord, type MemoryView, type WitnessRequestRecord } from '../../../src/index.js'
import { jsonOf, startApi, type ApiFixture } from './api-fixture.js'
import { SseReader } from '../../fixtures/sse-client.js'

/**
 * Stands in for the network node the lead builds: the local operations, plus witness requests that
 * are signed and land in an inbox (as if gossiped back to this node), and a fixed peer list.
 */
function withFakeNetwork (local: LocalOperations, hub: ApiEventHub): NodeOperations {
  const inbox: InboxItem[] = []
  const network = {
    async requestWitnesses (input: WitnessRequestInput, signer: Signer): Promise<WitnessRequestResult> {
      const view = await local.show(input.memory)
      const record: WitnessRequestRecord = {
        kind: 'witness_request', version: 1, memory: input.memory, requester: signer.did, created_at: view.provenance.created_at,
        ...(input.to === undefined ? {} : { witnesses: input.to }), ...(input.expiresAt === undefined ? {} : { expires_at: input.expiresAt })
      }
      const { id, signed } = signRecord(record, signer.secretKey)
      const item: InboxItem = { request: id, memory: input.memory, requester: signer.did, to: input.to ?? [], created_at: record.created_at, type: view.content.type, summary: view.content.summary }
      inbox.push(item)
      hub.emit({ type: 'inbox', data: item })
      return { id, record, signature: signed.signature }
    },
    async inbox (): Promise<InboxItem[]> { return [...inbox] },
    async peers (): Promise<PeerInfo[]> { return [{ id: '12D3KooWFakePeer', addresses: ['/ip4/127.0.0.1/tcp/4001'] }] }
  }
  // Every other operation is the local one, unchanged.
  return new Proxy(local, {
    get: (target, key, receiver) => key in network ? network[key as keyof typeof network] : Reflect.get(target, key, receiver)
  })
}

describe('GET /v1/events and the network routes', () => {
  let api: ApiFixture
  let memory: MemoryView

  beforeAll(async () => {
    api = await startApi({ wrap: withFakeNetwork })
    memory = (await jsonOf<MemoryView>(await api.call('POST', '/v1/memories', { summary: 'watch this', tags: ['sse'] }))).body
  })

  afterAll(async () => { await api.stop() })

  it('streams an attestation event after an attest call', async () => {
    const { reader, response } = await SseReader.open(`${api.url}/v1/events`, api.token)
    try {
      expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/)
      const attested = await jsonOf<{ attestation: string }>(await api.call('POST', `/v1/memories/${memory.id}/attestations`, { verdict: 'partial', claims: ['the summary'], as: api.witness }))
      expect(attested.status).toBe(201)
      const event = await reader.next()
      expect(event.event).toBe('attestation')
      expect(event.id).toMatch(/^[0-9a-f]{8}\.\d+$/)
      expect(event.data).toMatchObject({ id: attested.body.attestation, memory: memory.id, witness: api.witness, verdict: 'partial' })
    } finally {
      reader.close()
    }
  })

  it('resumes from Last-Event-ID with the events missed while disconnected', async () => {
    const first = await SseReader.open(`${api.url}/v1/events`, api.token)
    const second = (await jsonOf<MemoryView>(await api.call('POST', '/v1/memories', { summary: 'another' }))).body
    await api.call('POST', `/v1/memories/${second.id}/attestations`, { verdict: 'confirm', as: api.witness })
    const seen = await first.reader.next()
    first.reader.close()
    // Missed while away: a dispute of the second memory.
    const missed = await jsonOf<{ attestation: string }>(await api.call('POST', `/v1/memories/${second.id}/attestations`, { verdict: 'dispute', as: api.witness }))
    const resumed = await SseReader.open(`${api.url}/v1/events`, api.token, seen.id)
    try {
      expect(await resumed.reader.next()).toMatchObject({ event: 'attestation', data: { id: missed.body.attestation, verdict: 'dispute' } })
    } finally {
      resumed.reader.close()
    }
    // An id from another server run (another epoch) replays nothing rather than the wrong events.
    const foreign = await SseReader.open(`${api.url}/v1/events`, api.token, 'deadbeef.1')
    try {
      await expect(foreign.reader.next(300)).rejects.toThrow(/timed out/)
    } finally {
      foreign.reader.close()
    }
  })

  it('POST /v1/witness-requests signs a request, which reaches the inbox and the event stream', async () => {
    const { reader } = await SseReader.open(`${api.url}/v1/events`, api.token)
    try {
      const created = await jsonOf<WitnessRequestResult>(await api.call('POST', '/v1/witness-requests', { id: memory.id, to: [api.witness] }))
      expect(created).toMatchObject({ status: 201, body: { record: { kind: 'witness_request', memory: memory.id, requester: api.author, witnesses: [api.witness] } } })
      expect(await reader.next()).toMatchObject({ event: 'inbox', data: { request: created.body.id, memory: memory.id, to: [api.witness], summary: 'watch this' } })
      const inbox = await jsonOf<{ items: InboxItem[] }>(await api.call('GET', '/v1/inbox'))
      expect(inbox).toMatchObject({ status: 200, body: { items: [{ request: created.body.id }] } })
    } finally {
      reader.close()
    }
  })

  it('GET /v1/peers lists the peers', async () => {
    expect(await jsonOf(await api.call('GET', '/v1/peers'))).toEqual({
      status: 200, body: { peers: [{ id: '12D3KooWFakePeer', addresses: ['/ip4/127.0.0.1/tcp/4001'] }] }
    })
  })

  it('closing the server ends open event streams', async () => {
    const extra = await startApi()
    const { reader } = await SseReader.open(`${extra.url}/v1/events`, extra.token)
    await extra.stop()
    await expect(reader.next(2000)).rejects.toThrow(/ended|terminated|aborted|other side closed/i)
  })
})
