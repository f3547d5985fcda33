import { describe, expect, it } from 'vitest'
import { createCheckpoint, hashLeaf, signCheckpoint } from '../../../src/merkle/index.js'
import { GossipValidator, MAX_CHECKPOINT_AGE_MS, RecordGate, TOPICS, encodeWitnessEnvelope } from '../../../src/net/index.js'
import { encodeCanonical, encodeSignedRecord } from '../../../src/record/index.js'
import type { WitnessRequestRecord } from '../../../src/schema/index.js'
import { signRecord } from '../../../src/record/index.js'
import { createAgent, createAttestation, createMemory, createWitnessRequest } from '../../fixtures/records.js'
import { CountingVerifier } from '../../integration/net/fixtures/counting-verifier.js'
import { MemoryHost } from '../../integration/net/fixtures/memory-host.js'
import { verified } from '../../integration/net/fixtures/harness.js'

const NOW = Date.parse('2026-02-06T00:00:00Z')

function setup (): { validator: GossipValidator, host: MemoryHost, verifier: CountingVerifier } {
  const host = new MemoryHost()
  const verifier = new CountingVerifier()
  const validator = new GossipValidator({
    gate: new RecordGate({ host, verifier, clock: () => NOW }),
    host,
    verifier,
    clock: () => NOW
  })
  return { validator, host, verifier }
}

const bytes = encodeSignedRecord

describe('gossip validators (gossip-v1 §3–§5)', () => {
  it('accepts a new record on its topic with its verified form, ignores a stored one (R5)', async () => {
    const { validator, host, verifier } = setup()
    const memory = createMemory(createAgent(1))
    const decision = await validator.validate(TOPICS.memories, bytes(memory.signed), 'peer')
    expect(decision).toMatchObject({ result: 'accept', records: [{ id: memory.id }] })
    host.putLocal(verified(memory.signed))
    expect(await validator.validate(TOPICS.memories, bytes(memory.signed), 'peer')).toMatchObject({ result: 'ignore' })
    expect(verifier.total).toBe(1)
  })

  it('rejects a record of the wrong kind for the topic and unknown topics (R3)', async () => {
    const { validator } = setup()
    const memory = createMemory(createAgent(1))
    expect(await validator.validate(TOPICS.attestations, bytes(memory.signed), 'peer')).toMatchObject({ result: 'reject' })
    expect(await validator.validate('isnad/v1/other', bytes(memory.signed), 'peer')).toMatchObject({ result: 'reject' })
  })

  it('names the memory of an attestation it holds nowhere as missing, and stores or fetches nothing while judging (R10)', async () => {
    const { validator, host } = setup()
    const memory = createMemory(createAgent(1))
    const attestation = createAttestation(createAgent(2), memory.id)
    const decision = await validator.validate(TOPICS.attestations, bytes(attestation.signed), 'sender')
    expect(decision).toMatchObject({ result: 'accept', records: [{ id: attestation.id }], missingMemory: memory.id })
    expect(host.log).toEqual([]) // judged only: the host stores after delivery
    host.putLocal(verified(memory.signed))
    const known = await validator.validate(TOPICS.attestations, bytes(createAttestation(createAgent(3), memory.id).signed), 'sender')
    expect(known).toMatchObject({ result: 'accept' })
    expect(known).not.toHaveProperty('missingMemory')
  })

  it('accepts a witness request with its memory, both verified once (§4, R8)', async () => {
    const { validator, host, verifier } = setup()
    const memory = createMemory(createAgent(1))
    const request = createWitnessRequest(createAgent(1), memory.id)
    const envelope = encodeWitnessEnvelope(bytes(request.signed), bytes(memory.signed))
    expect(await validator.validate(TOPICS.witnessRequests, envelope, 'p')).toMatchObject({ result: 'accept', records: [{ id: memory.id }, { id: request.id }] })
    expect(verifier.total).toBe(2)
    // Memory already stored: only the request is handed over.
    const host2 = setup()
    host2.host.putLocal(verified(memory.signed))
    expect(await host2.validator.validate(TOPICS.witnessRequests, envelope, 'p')).toMatchObject({ result: 'accept', records: [{ id: request.id }] })
    expect(host2.verifier.total).toBe(1)
    expect(host.records.size).toBe(0) // the validator never stores
  })

  it('rejects an envelope whose memory is not the requested one, ignores an expired request (R8, R9)', async () => {
    const { validator } = setup()
    const memory = createMemory(createAgent(1))
    const other = createMemory(createAgent(1))
    const request = createWitnessRequest(createAgent(1), memory.id)
    expect(await validator.validate(TOPICS.witnessRequests, encodeWitnessEnvelope(bytes(request.signed), bytes(other.signed)), 'p')).toMatchObject({ result: 'reject' })
    const expired: WitnessRequestRecord = { ...request.signed.record, expires_at: '2026-02-05T17:00:00Z' }
    const signed = signRecord(expired, createAgent(1).secretKey).signed
    expect(await validator.validate(TOPICS.witnessRequests, encodeWitnessEnvelope(bytes(signed), bytes(memory.signed)), 'p')).toMatchObject({ result: 'ignore' })
    expect(await validator.validate(TOPICS.witnessRequests, Uint8Array.of(1, 2), 'p')).toMatchObject({ result: 'reject' })
  })

  it('validates checkpoints: accepts a fresh one once, ignores stale and repeated ones, rejects bad signatures (R11, R12)', async () => {
    const { validator } = setup()
    const log = createAgent(9)
    const at = (ms: number): string => new Date(ms).toISOString()
    const checkpoint = (createdAt: string): Uint8Array => encodeCanonical(signCheckpoint(createCheckpoint({ log: log.did, size: 1, root: hashLeaf(Uint8Array.of(1)), createdAt }), log.secretKey).signed)
    const fresh = checkpoint(at(NOW - 1000))
    expect(await validator.validate(TOPICS.checkpoints, fresh, 'p')).toMatchObject({ result: 'accept', records: [], checkpoint: { signed: { record: { size: 1 } } } })
    expect(await validator.validate(TOPICS.checkpoints, fresh, 'p')).toMatchObject({ result: 'ignore' })
    expect(await validator.validate(TOPICS.checkpoints, checkpoint(at(NOW - MAX_CHECKPOINT_AGE_MS - 1000)), 'p')).toMatchObject({ result: 'ignore' })
    expect(await validator.validate(TOPICS.checkpoints, checkpoint(at(NOW + 60 * 60 * 1000)), 'p')).toMatchObject({ result: 'ignore' })
    const forged = signCheckpoint(createCheckpoint({ log: log.did, size: 2, root: hashLeaf(Uint8Array.of(2)), createdAt: at(NOW) }), log.secretKey).signed
    const tampered = encodeCanonical({ ...forged, record: { ...forged.record, size: 3 } })
    expect(await validator.validate(TOPICS.checkpoints, tampered, 'p')).toMatchObject({ result: 'reject' })
  })
})

describe('witness-request envelope, duplicate request (gossip-v1 R8, R5)', () => {
  it('ignores a stored request before verifying anything', async () => {
    const { validator, host, verifier } = setup()
    const memory = createMemory(createAgent(1))
    const request = createWitnessRequest(createAgent(1), memory.id)
    host.putLocal(verified(request.signed))
    const envelope = encodeWitnessEnvelope(encodeSignedRecord(request.signed), encodeSignedRecord(memory.signed))
    expect(await validator.validate(TOPICS.witnessRequests, envelope, 'p')).toMatchObject({ result: 'ignore' })
    expect(verifier.total).toBe(0)
  })
})
