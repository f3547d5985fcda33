import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { encodeSignedRecord, isIsnadError, nodeCryptoVerifier, verifyRecordBytes, type ErrorCode } from '../../../src/index.js'
import type { RecordStore, StoredRecord, TrustEntry } from '../../../src/record-index/index.js'
import {
  createAgent, createAnchor, createAttestation, createMemory, createWitnessRequest
} from '../../fixtures/records.js'
import { describeRecordStoreQueries } from './record-store-query.suite.js'

/** One store under test; `reopen` builds a second store over the same data, for persistent stores. */
export interface StoreInstance {
  store: RecordStore
  reopen?: () => RecordStore
}

export type StoreFactory = () => Promise<StoreInstance>

export interface SuiteOptions {
  /** fast-check runs of the query oracle property; each run builds a fresh store. */
  propertyRuns: number
}

export async function expectIsnadError (promise: Promise<unknown>, code: ErrorCode): Promise<void> {
  const err: unknown = await promise.then(() => null, (e: unknown) => e)
  expect(isIsnadError(err, code), `expected IsnadError ${code}, got ${String(err)}`).toBe(true)
}

export function trustOf (score: number): TrustEntry {
  return { score, level: score >= 0.6 ? 'Anchored' : 'Unverified', policy: 'isnad-v0.1', computed_at: '2026-02-05T19:00:00Z' }
}

const alice = createAgent(0)
const bob = createAgent(1)
const carol = createAgent(2)

/** The shared contract of RecordStore, run against every implementation (STYLE: one suite). */
export function describeRecordStore (name: string, factory: StoreFactory, options: SuiteOptions): void {
  describe(`${name}: RecordStore contract`, () => {
    let instance: StoreInstance
    let store: RecordStore

    beforeEach(async () => {
      instance = await factory()
      store = instance.store
      await store.open()
    })
    afterEach(async () => { await store.close() })

    it('round-trips records: get returns the same signed record, exists and getMemory agree', async () => {
      const memory = createMemory(alice, { tags: ['rust', 'ffi'], body: 'body\nwith lines' })
      const attestation = createAttestation(bob, memory.id)
      expect(await store.putMany([memory, attestation])).toEqual([memory.id, attestation.id])
      expect(await store.get(memory.id)).toEqual(memory)
      expect(await store.get(attestation.id)).toEqual(attestation)
      expect(await store.getMemory(memory.id)).toEqual(memory)
      expect(await store.getMemory(attestation.id)).toBeNull()
      expect(await store.exists(memory.id)).toBe(true)
      const absent = createMemory(alice).id
      expect(await store.exists(absent)).toBe(false)
      expect(await store.get(absent)).toBeNull()
      expect(await store.getMemory(absent)).toBeNull()
    })

    it('existsMany answers for many ids at once, in input order, duplicates included', async () => {
      const memory = createMemory(alice)
      const attestation = createAttestation(bob, memory.id)
      const absent = createMemory(carol).id
      expect(await store.existsMany([])).toEqual([])
      expect(await store.existsMany([memory.id, absent])).toEqual([false, false])
      await store.putMany([memory, attestation])
      expect(await store.existsMany([absent, memory.id, attestation.id, memory.id])).toEqual([false, true, true, true])
    })

    it('getBytesMany answers the canonical bytes of many records, in input order, that callers cannot alter', async () => {
      const memory = createMemory(alice)
      const attestation = createAttestation(bob, memory.id)
      const absent = createMemory(carol).id
      expect(await store.getBytesMany([])).toEqual([])
      await store.putMany([memory, { ...attestation, bytes: encodeSignedRecord(attestation.signed) }])
      const canonical = [encodeSignedRecord(memory.signed), encodeSignedRecord(attestation.signed)]
      const plain = (list: Array<Uint8Array | undefined>): Array<Uint8Array | undefined> => list.map((b) => b === undefined ? b : Uint8Array.from(b))
      const read = await store.getBytesMany([attestation.id, absent, memory.id, attestation.id])
      expect(plain(read)).toEqual([canonical[1], undefined, canonical[0], canonical[1]])
      read[0]!.fill(0)
      expect(plain(await store.getBytesMany([attestation.id]))).toEqual([canonical[1]])
      expect(await store.get(attestation.id)).toEqual(attestation)
    })

    it('stores the canonical bytes a verification built without encoding again, checked against the id', async () => {
      const memory = createMemory(alice, { tags: ['b'] })
      const attestation = createAttestation(bob, memory.id)
      const bytes = encodeSignedRecord(memory.signed)
      expect(await store.putMany([{ ...memory, bytes }, { ...attestation, bytes: encodeSignedRecord(attestation.signed) }])).toEqual([memory.id, attestation.id])
      // What is returned carries no bytes, and the caller's buffer is not what the store holds.
      bytes.fill(0)
      expect(await store.get(memory.id)).toEqual(memory)
      expect(await store.getMemory(memory.id)).toEqual(memory)
      expect(await store.attestationsFor(memory.id)).toEqual([attestation])
      expect((await store.query({ tags: ['b'] })).items.map((h) => h.id)).toEqual([memory.id])
      expect(await store.count()).toEqual({ memory: 1, attestation: 1, anchor: 0, witness_request: 0 })
    })

    it('refuses bytes that are not those of the record named by the id (CID_MISMATCH), storing nothing', async () => {
      const good = createMemory(alice)
      const memory = createMemory(alice)
      const other = createMemory(bob)
      // Another record's bytes: well formed, signed with another signature.
      await expectIsnadError(store.putMany([good, { ...memory, bytes: encodeSignedRecord(other.signed) }]), 'CID_MISMATCH')
      // Another record's bytes carrying this record's signature: the record part hashes to another id.
      const swapped = encodeSignedRecord({ record: other.signed.record, signature: memory.signed.signature })
      await expectIsnadError(store.putMany([good, { ...memory, bytes: swapped }]), 'CID_MISMATCH')
      // This record's bytes, cut short or followed by anything.
      const own = encodeSignedRecord(memory.signed)
      await expectIsnadError(store.putMany([good, { ...memory, bytes: own.subarray(0, own.length - 1) }]), 'CID_MISMATCH')
      await expectIsnadError(store.putMany([good, { ...memory, bytes: Uint8Array.from([...own, 0]) }]), 'CID_MISMATCH')
      expect(await store.existsMany([good.id, memory.id])).toEqual([false, false])
      expect(await store.count()).toEqual({ memory: 0, attestation: 0, anchor: 0, witness_request: 0 })
    })

    it('takes the bytes verification built for their id as they are, and checks them against any other id', async () => {
      const memory = createMemory(alice)
      const other = createMemory(bob)
      const verified = verifyRecordBytes(encodeSignedRecord(memory.signed), { verifier: nodeCryptoVerifier, now: Date.now() })
      // Verified bytes named by another record's id are hashed like any others, and refused.
      await expectIsnadError(store.putMany([{ ...other, bytes: verified.bytes }]), 'CID_MISMATCH')
      expect(await store.putMany([{ id: verified.id, signed: verified.signed, bytes: verified.bytes }])).toEqual([memory.id])
      expect(await store.get(memory.id)).toEqual(memory)
    })

    it('returns copies: mutating a returned record changes nothing stored', async () => {
      const memory = createMemory(alice, { tags: ['x'] })
      await store.putMany([memory])
      const first = await store.get(memory.id)
      if (first?.signed.record.kind !== 'memory') throw new Error('expected a memory')
      first.signed.record.content.tags.push('changed')
      expect(await store.get(memory.id)).toEqual(memory)
    })

    it('is idempotent: a stored id is a no-op and is not reported again', async () => {
      const m1 = createMemory(alice, { tags: ['a'] })
      const m2 = createMemory(alice, { tags: ['a'] })
      expect(await store.putMany([m1, m1])).toEqual([m1.id])
      expect(await store.putMany([m1, m2])).toEqual([m2.id])
      expect(await store.putMany([m1, m2])).toEqual([])
      expect(await store.count()).toEqual({ memory: 2, attestation: 0, anchor: 0, witness_request: 0 })
      expect((await store.query({ tags: ['a'] })).items.map((h) => h.id).sort()).toEqual([m1.id, m2.id].sort())
      expect((await store.query({})).items).toHaveLength(2)
      // Concurrent batches with the same record: stored, counted and reported once.
      const m3 = createMemory(bob, { tags: ['a'] })
      const [x, y] = await Promise.all([store.putMany([m3]), store.putMany([m3])])
      expect([...(x ?? []), ...(y ?? [])]).toEqual([m3.id])
      expect((await store.count()).memory).toBe(3)
    })

    it('refuses a record whose id is not its CID (CID_MISMATCH) and stores nothing of the batch', async () => {
      const good = createMemory(alice, { tags: ['t'] })
      const other = createMemory(alice)
      const wrongId: StoredRecord = { id: other.id, signed: createMemory(bob).signed }
      await expectIsnadError(store.putMany([good, wrongId]), 'CID_MISMATCH')
      const tampered = createMemory(alice)
      const edited: StoredRecord = { id: tampered.id, signed: { ...tampered.signed, record: { ...tampered.signed.record, created_at: '2026-02-06T00:00:00Z' } } }
      await expectIsnadError(store.putMany([good, edited], new Map([[good.id, trustOf(0.5)]])), 'CID_MISMATCH')
      expect(await store.exists(good.id)).toBe(false)
      expect(await store.count()).toEqual({ memory: 0, attestation: 0, anchor: 0, witness_request: 0 })
      expect((await store.query({})).items).toEqual([])
      expect(await store.getTrust(good.id)).toBeNull()
    })

    it('is atomic: a bad trust entry anywhere refuses the whole batch', async () => {
      const m1 = createMemory(alice, { tags: ['t'] })
      const attestation = createAttestation(bob, m1.id)
      const unknown = createMemory(carol).id
      await expectIsnadError(store.putMany([m1, attestation], new Map([[m1.id, trustOf(0.4)], [unknown, trustOf(0.3)]])), 'NOT_FOUND')
      await expectIsnadError(store.putMany([m1, attestation], new Map([[attestation.id, trustOf(0.3)]])), 'NOT_FOUND')
      await expectIsnadError(store.putMany([m1], new Map([[m1.id, trustOf(1.5)]])), 'USAGE')
      expect(await store.exists(m1.id)).toBe(false)
      expect(await store.exists(attestation.id)).toBe(false)
      expect(await store.attestationsFor(m1.id)).toEqual([])
      expect((await store.query({})).items).toEqual([])
    })

    it('indexes relations: attestations, anchors and requests of a memory, successors', async () => {
      const memory = createMemory(alice)
      const other = createMemory(alice)
      const attestations = [createAttestation(bob, memory.id), createAttestation(carol, memory.id, 'dispute'), createAttestation(bob, other.id, 'partial')]
      const anchors = [createAnchor(alice, memory.id, 'https://a.example'), createAnchor(bob, memory.id, 'https://b.example')]
      const requests = [createWitnessRequest(alice, memory.id, [bob]), createWitnessRequest(alice, memory.id)]
      const successor = createMemory(alice, { supersedes: memory.id, type: 'correction' })
      const successor2 = createMemory(bob, { supersedes: memory.id })
      // Evidence may arrive before its memory: relations do not need the memory to be stored.
      await store.putMany([...attestations, ...anchors, ...requests])
      await store.putMany([memory, other, successor, successor2])
      const byId = <T extends { id: string }>(list: T[]): T[] => [...list].sort((a, b) => (a.id < b.id ? -1 : 1))
      expect(await store.attestationsFor(memory.id)).toEqual(byId(attestations.slice(0, 2)))
      expect(await store.attestationsFor(other.id)).toEqual([attestations[2]])
      expect(await store.anchorsFor(memory.id)).toEqual(byId(anchors))
      expect(await store.witnessRequestsFor(memory.id)).toEqual(byId(requests))
      expect(await store.anchorsFor(other.id)).toEqual([])
      expect(await store.supersededBy(memory.id)).toEqual([successor.id, successor2.id].sort())
      expect(await store.supersededBy(successor.id)).toEqual([])
      expect(await store.count()).toEqual({ memory: 4, attestation: 3, anchor: 2, witness_request: 2 })
    })

    it('knows which memories have evidence stored before them (orphans), across batches, failed batches and reopen', async () => {
      const early = createMemory(alice, { tags: ['early'] })
      const anchoredFirst = createMemory(bob)
      const together = createMemory(carol)
      const notYet = createMemory(alice)
      const request = createMemory(bob)
      await store.putMany([
        createAttestation(bob, early.id), createAnchor(alice, anchoredFirst.id, 'https://a.example'),
        createAttestation(alice, together.id), together, createWitnessRequest(alice, request.id, [bob])
      ])
      // Evidence of a memory of the same batch, and a witness request (not evidence), make no orphan.
      expect(await store.hasOrphanEvidence(early.id)).toBe(true)
      expect(await store.hasOrphanEvidence(anchoredFirst.id)).toBe(true)
      expect(await store.hasOrphanEvidence(together.id)).toBe(false)
      expect(await store.hasOrphanEvidence(request.id)).toBe(false)
      expect(await store.hasOrphanEvidence(notYet.id)).toBe(false)
      // Evidence of a stored memory makes no orphan either; a refused batch changes nothing.
      await store.putMany([createAttestation(carol, together.id)])
      const wrongId: StoredRecord = { id: notYet.id, signed: createMemory(carol).signed }
      await expectIsnadError(store.putMany([early, createAttestation(carol, notYet.id), wrongId]), 'CID_MISMATCH')
      expect(await store.hasOrphanEvidence(early.id)).toBe(true)
      expect(await store.hasOrphanEvidence(notYet.id)).toBe(false)
      expect(await store.hasOrphanEvidence(together.id)).toBe(false)
      // Storing the memory clears its mark, and a later attestation of it makes none.
      await store.putMany([early])
      await store.putMany([createAttestation(carol, early.id)])
      expect(await store.hasOrphanEvidence(early.id)).toBe(false)
      expect(await store.hasOrphanEvidence(anchoredFirst.id)).toBe(true)
      if (instance.reopen === undefined) return
      await store.close()
      store = instance.reopen()
      await store.open()
      expect(await store.hasOrphanEvidence(early.id)).toBe(false)
      expect(await store.hasOrphanEvidence(anchoredFirst.id)).toBe(true)
      await store.putMany([anchoredFirst])
      expect(await store.hasOrphanEvidence(anchoredFirst.id)).toBe(false)
      expect(await store.attestationsFor(early.id)).toHaveLength(2)
    })

    it('records trust with the batch and re-keys the query indexes on setTrust', async () => {
      const m1 = createMemory(alice, { tags: ['t'], type: 'fact' })
      const m2 = createMemory(bob, { tags: ['t'] })
      await store.putMany([m1, m2], new Map([[m1.id, trustOf(0.8)]]))
      expect(await store.getTrust(m1.id)).toEqual(trustOf(0.8))
      expect(await store.getTrust(m2.id)).toBeNull()
      const ids = async (minTrust: number): Promise<string[]> =>
        (await store.query({ tags: ['t'], minTrust })).items.map((h) => h.id)
      expect(await ids(0.8)).toEqual([m1.id])
      expect(await ids(0)).toEqual([m1.id, m2.id])
      await store.setTrust(m1.id, trustOf(0.3))
      expect(await ids(0.8)).toEqual([])
      expect(await ids(0.3)).toEqual([m1.id])
      expect((await store.query({ type: 'fact', minTrust: 0.5 })).items).toEqual([])
      expect((await store.query({ author: alice.did })).items).toEqual([{ id: m1.id, trust: 0.3, created_at: m1.signed.record.created_at }])
      // A trust map entry for an already-stored memory re-keys it too.
      await store.putMany([], new Map([[m2.id, trustOf(0.9)]]))
      expect(await ids(0.5)).toEqual([m2.id])
      expect(await ids(0)).toEqual([m2.id, m1.id])
      expect((await store.query({})).items).toHaveLength(2)
      // A trust entry for a memory the batch repeats (already stored) re-keys it too.
      await store.putMany([m1], new Map([[m1.id, trustOf(0.95)]]))
      expect(await store.getTrust(m1.id)).toEqual(trustOf(0.95))
      expect(await ids(0.95)).toEqual([m1.id])
      expect(await ids(0)).toEqual([m1.id, m2.id])
      await store.putMany([m1], new Map([[m1.id, trustOf(0.3)]]))
      await expectIsnadError(store.setTrust(createMemory(carol).id, trustOf(0.5)), 'NOT_FOUND')
      await expectIsnadError(store.setTrust(m1.id, trustOf(-0.1)), 'USAGE')
    })

    it('refuses use before open and after close with STORE_CLOSED; closing twice is fine', async () => {
      const fresh = (await factory()).store
      await expectIsnadError(fresh.get('x'), 'STORE_CLOSED')
      await fresh.open()
      // A write already under way when close() is called completes: it was accepted.
      const pending = fresh.putMany([createMemory(alice)])
      await fresh.close()
      expect(await pending).toHaveLength(1)
      await fresh.close()
      await expectIsnadError(fresh.putMany([createMemory(alice)]), 'STORE_CLOSED')
      await expectIsnadError(fresh.query({}), 'STORE_CLOSED')
      await expectIsnadError(fresh.count(), 'STORE_CLOSED')
      await expectIsnadError(fresh.existsMany([createMemory(alice).id]), 'STORE_CLOSED')
    })

    it('keeps everything across close and reopen (persistent stores)', async (context) => {
      if (instance.reopen === undefined) { context.skip(); return }
      const memory = createMemory(alice, { tags: ['kept'] })
      const attestation = createAttestation(bob, memory.id)
      await store.putMany([memory, attestation], new Map([[memory.id, trustOf(0.7)]]))
      await store.close()
      store = instance.reopen()
      await store.open()
      expect(await store.get(memory.id)).toEqual(memory)
      expect(await store.attestationsFor(memory.id)).toEqual([attestation])
      expect(await store.getTrust(memory.id)).toEqual(trustOf(0.7))
      expect(await store.count()).toEqual({ memory: 1, attestation: 1, anchor: 0, witness_request: 0 })
      expect((await store.query({ tags: ['kept'], minTrust: 0.7 })).items.map((h) => h.id)).toEqual([memory.id])
      expect(await store.putMany([memory])).toEqual([])
    })
  })

  describeRecordStoreQueries(name, factory, options)
}
