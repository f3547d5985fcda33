import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { LONE_CHECKS_PER_TURN, RecordGate, peekRecordId } from '../../../src/net/index.js'
import { encodeCanonical, encodeSignedRecord, signRecord } from '../../../src/record/index.js'
import { MAX_RECORD_BYTES, type SignedRecord } from '../../../src/schema/index.js'
import { createAgent, createAnchor, createAttestation, createMemory, createWitnessRequest } from '../../fixtures/records.js'
import { CountingVerifier } from '../../integration/net/fixtures/counting-verifier.js'
import { verified } from '../../integration/net/fixtures/harness.js'
import { MemoryHost } from '../../integration/net/fixtures/memory-host.js'
import { anyRecord, secretKeyOf } from '../record/arbitraries.js'

function tamper (signed: SignedRecord): Uint8Array {
  const { signature } = signed
  return encodeSignedRecord({ record: signed.record, signature: (signature[0] === 'A' ? 'B' : 'A') + signature.slice(1) })
}

function gate (host = new MemoryHost(), now = Date.parse('2026-02-06T00:00:00Z')): { gate: RecordGate, host: MemoryHost, verifier: CountingVerifier } {
  const verifier = new CountingVerifier()
  return { gate: new RecordGate({ host, verifier, clock: () => now }), host, verifier }
}

describe('peekRecordId (gossip-v1 R4)', () => {
  it('reads the id of every kind of record from its canonical bytes, without decoding', () => {
    const memory = createMemory(createAgent(1))
    for (const { id, signed } of [memory, createAttestation(createAgent(2), memory.id), createAnchor(createAgent(2), memory.id), createWitnessRequest(createAgent(1), memory.id)]) {
      expect(peekRecordId(encodeSignedRecord(signed)), signed.record.kind).toBe(id)
    }
  })

  it('agrees with the record id for any valid record', () => {
    fc.assert(fc.property(anyRecord, (record) => {
      const { id, signed } = signRecord(record, secretKeyOf(record))
      expect(peekRecordId(encodeSignedRecord(signed))).toBe(id)
    }), { numRuns: 100 })
  })

  it('gives undefined for bytes that are not laid out canonically', () => {
    const { signed } = createMemory(createAgent(1))
    const bytes = encodeSignedRecord(signed)
    expect(peekRecordId(bytes.subarray(0, bytes.length - 1))).toBeUndefined()
    expect(peekRecordId(encodeCanonical({ record: signed.record, signature: signed.signature, x: 1 }))).toBeUndefined()
    expect(peekRecordId(new Uint8Array(10))).toBeUndefined()
  })
})

describe('RecordGate: one verification per record, duplicates first (gossip-v1 §3)', () => {
  it('verifies a new record once, then reports it cached; stored records are known without a check', async () => {
    const { gate: g, host, verifier } = gate()
    const memory = createMemory(createAgent(1))
    const bytes = encodeSignedRecord(memory.signed)
    expect(await g.check(bytes, 'memory')).toMatchObject({ status: 'verified', id: memory.id })
    expect(await g.check(bytes, 'memory')).toMatchObject({ status: 'cached', id: memory.id })
    host.putLocal(verified(memory.signed))
    expect(await g.check(bytes, 'memory')).toEqual({ status: 'known', id: memory.id })
    expect(verifier.total).toBe(1)
    expect(g.recentBytes(memory.id)).toEqual(bytes)
  })

  it('refuses a recently verified record offered for another kind (R3)', async () => {
    const { gate: g } = gate()
    const bytes = encodeSignedRecord(createMemory(createAgent(1)).signed)
    await g.check(bytes, 'memory')
    expect(await g.check(bytes, 'attestation')).toMatchObject({ status: 'invalid', error: { code: 'WRONG_KIND' } })
  })

  it('classifies failures: invalid for the sender\'s faults, ignored for records from the future (R7)', async () => {
    const { gate: g } = gate()
    const memory = createMemory(createAgent(1))
    const future = createMemory(createAgent(1), { created_at: '2026-03-01T00:00:00Z' })
    const results = await g.checkMany([
      tamper(memory.signed),
      encodeSignedRecord(createAttestation(createAgent(2), memory.id).signed),
      new Uint8Array(MAX_RECORD_BYTES + 1),
      Uint8Array.of(0xff, 0x00),
      encodeSignedRecord(future.signed)
    ], 'memory')
    expect(results.map((r) => r.status)).toEqual(['invalid', 'invalid', 'invalid', 'invalid', 'ignored'])
    expect(results.map((r) => 'error' in r ? r.error.code : undefined)).toEqual([
      'SIGNATURE_INVALID', 'WRONG_KIND', 'RECORD_TOO_LARGE', 'DECODE_FAILED', 'TIMESTAMP_IN_FUTURE'
    ])
  })

  it('checks a lone gossiped record\'s signature on the calling thread, a burst\'s beyond LONE_CHECKS_PER_TURN and a batch\'s with the async form', async () => {
    // gossipsub forwards a message only after its validator answered: a thread hop in check()
    // would be paid at every hop of the message's way (figure 8a's late messages).
    const { gate: g, verifier } = gate()
    const memory = createMemory(createAgent(1))
    expect(await g.check(encodeSignedRecord(memory.signed), 'memory')).toMatchObject({ status: 'verified', id: memory.id })
    await new Promise((resolve) => setImmediate(resolve))
    expect(await g.check(tamper(createMemory(createAgent(2)).signed), 'memory')).toMatchObject({ status: 'invalid', error: { code: 'SIGNATURE_INVALID' } })
    expect({ total: verifier.total, async: verifier.asyncCalls }).toEqual({ total: 2, async: 0 })
    await new Promise((resolve) => setImmediate(resolve))
    const burst = Array.from({ length: 10 }, (_, i) => encodeSignedRecord(createMemory(createAgent(10 + i)).signed))
    expect((await Promise.all(burst.map(async (bytes) => await g.check(bytes, 'memory')))).every((r) => r.status === 'verified')).toBe(true)
    expect({ total: verifier.total, async: verifier.asyncCalls }).toEqual({ total: 12, async: 10 - LONE_CHECKS_PER_TURN })
    const batch = [createMemory(createAgent(3)), createMemory(createAgent(4))].map((m) => encodeSignedRecord(m.signed))
    expect((await g.checkMany(batch, 'memory')).map((r) => r.status)).toEqual(['verified', 'verified'])
    expect(verifier.asyncCalls).toBe(10 - LONE_CHECKS_PER_TURN + 2)
  })

  it('a tampered copy of a cached record is verified again, not taken from the cache', async () => {
    const { gate: g, verifier } = gate()
    const memory = createMemory(createAgent(1))
    await g.check(encodeSignedRecord(memory.signed))
    expect(await g.check(tamper(memory.signed))).toMatchObject({ status: 'invalid', error: { code: 'SIGNATURE_INVALID' } })
    expect(verifier.total).toBe(2)
  })
})

describe('RecordGate under concurrency', () => {
  it('checks a record arriving by two paths at once a single time', async () => {
    const { gate: g, verifier } = gate()
    const bytes = encodeSignedRecord(createMemory(createAgent(1)).signed)
    const [a, b] = await Promise.all([g.check(bytes, 'memory'), g.checkMany([bytes])])
    expect([a.status, b[0]?.status].sort()).toEqual(['cached', 'verified'])
    expect(verifier.total).toBe(1)
  })

  it('asks the host once for the checks begun together, and gives each its own answers', async () => {
    const { gate: g, host } = gate()
    const agent = createAgent(1)
    const stored = createMemory(agent, { summary: 'stored' })
    host.putLocal(verified(stored.signed))
    const others = [createMemory(agent, { summary: 'one' }), createMemory(agent, { summary: 'two' })]
    const asked: string[][] = []
    const has = host.has.bind(host)
    host.has = async (ids) => { asked.push([...ids]); return await has(ids) }
    // As gossipsub validates a burst: one message per check, all begun in one turn.
    const results = await Promise.all([
      g.check(encodeSignedRecord(others[0]!.signed), 'memory'),
      g.checkMany([encodeSignedRecord(stored.signed), encodeSignedRecord(others[1]!.signed)], 'memory'),
      g.check(encodeSignedRecord(stored.signed), 'memory')
    ])
    expect(asked).toEqual([[others[0]!.id, stored.id, others[1]!.id, stored.id]])
    expect(g.hostCalls).toBe(1)
    expect(results[0]).toMatchObject({ status: 'verified', id: others[0]!.id })
    expect(results[1].map((r) => r.status)).toEqual(['known', 'verified'])
    expect(results[2]).toEqual({ status: 'known', id: stored.id })
    // A later turn asks again.
    expect(await g.check(encodeSignedRecord(others[1]!.signed), 'memory')).toMatchObject({ status: 'cached' })
    expect(g.hostCalls).toBe(2)
  })

  it('fails every check that asked when the host fails, and the next turn asks afresh', async () => {
    const { gate: g, host } = gate()
    const agent = createAgent(1)
    const has = host.has.bind(host)
    host.has = async () => { throw new Error('store closed') }
    const first = [createMemory(agent, { summary: 'a' }), createMemory(agent, { summary: 'b' })]
    const outcomes = await Promise.allSettled(first.map((m) => g.check(encodeSignedRecord(m.signed), 'memory')))
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected'])
    host.has = has
    expect(await g.check(encodeSignedRecord(first[0]!.signed), 'memory')).toMatchObject({ status: 'verified' })
  })

  it('check gives what checkMany gives for the same single input, whatever it is', async () => {
    const agent = createAgent(1)
    const stored = createMemory(agent, { summary: 'stored' })
    const fresh = createMemory(agent, { summary: 'fresh' })
    const inputs: Array<[string, Uint8Array, 'memory' | 'attestation' | undefined]> = [
      ['new', encodeSignedRecord(fresh.signed), 'memory'],
      ['new, other kind expected', encodeSignedRecord(fresh.signed), 'attestation'],
      ['stored', encodeSignedRecord(stored.signed), 'memory'],
      ['tampered', tamper(fresh.signed), 'memory'],
      ['too large', new Uint8Array(MAX_RECORD_BYTES + 1), undefined],
      ['not a record', Uint8Array.of(1, 2, 3), undefined],
      ['from the future', encodeSignedRecord(createMemory(agent, { created_at: '2027-01-01T00:00:00Z' }).signed), 'memory']
    ]
    for (const [what, bytes, kind] of inputs) {
      // Twice each, on fresh gates: the second call meets the first one's cache.
      const one = gate()
      const many = gate()
      for (const g of [one, many]) g.host.putLocal(verified(stored.signed))
      for (let round = 0; round < 2; round++) {
        const single = await one.gate.check(bytes, kind)
        const [batched] = await many.gate.checkMany([bytes], kind)
        expect(single, `${what} (${round})`).toEqual(batched)
      }
      expect(one.verifier.total, what).toBe(many.verifier.total)
    }
  })
})
