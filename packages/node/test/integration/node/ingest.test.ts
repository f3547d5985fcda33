import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest'
import { encodeSignedRecord, IsnadError, isIsnadError, nodeCryptoVerifier, verifyRecordBytes, type SignedRecord, type VerifiedRecord } from '../../../src/index.js'
import {
  gatherEvidence, IngestPipeline, scoreEvidence, type BatchViews, INGEST_VERIFY_CONCURRENCY, type IngestPipelineInit, type IngestResult,
  type JournaledBatch, type MemoryEvidence, type RecordJournal, type RecordSource
} from '../../../src/node/index.js'
import {
  createLevelRecordStore, createMemoryRecordStore, type RecordStore, type StoredRecord
} from '../../../src/record-index/index.js'
import { createAgent, createAnchor, createAttestation, createMemory } from '../../fixtures/records.js'

/*
 * IngestPipeline (src/node/pipeline) on both stores: bytes from the network, all-or-nothing batches
 * with the first bad record named, duplicates, concurrent batches, the evidence cache, the order of
 * its steps against the ledger it is given, its collaborators (keys, trust setting), and the indexed
 * trust against a from-scratch computation.
 */

const NOW = Date.parse('2026-02-06T00:00:00Z')
const alice = createAgent(20)
const bob = createAgent(21)
const carol = createAgent(22)
const dave = createAgent(23)

const directories: string[] = []
afterAll(async () => {
  await Promise.all(directories.map(async (dir) => { await rm(dir, { recursive: true, force: true }) }))
})

const stores: Array<{ name: string, open: () => Promise<RecordStore> }> = [
  {
    name: 'LevelDB',
    open: async () => {
      const dir = await mkdtemp(join(tmpdir(), 'isnad-ingest-'))
      directories.push(dir)
      return createLevelRecordStore({ location: dir })
    }
  },
  { name: 'in-memory', open: async () => createMemoryRecordStore() }
]

/** The bytes a peer would send: the canonical DAG-CBOR of the signed record. */
function wire (record: StoredRecord): Uint8Array {
  return encodeSignedRecord(record.signed)
}

/**
 * The same record with its two map entries in the other order: valid DAG-CBOR that decodes to the
 * same value, but not the canonical form (keys sorted by length: `record` before `signature`).
 */
function reordered (record: StoredRecord): Uint8Array {
  const bytes = wire(record)
  const recordStart = 1 + 7
  const signatureKeyAt = bytes.length - (10 + 2 + 86)
  return Uint8Array.from([0xa2, ...bytes.subarray(signatureKeyAt), ...bytes.subarray(1, recordStart), ...bytes.subarray(recordStart, signatureKeyAt)])
}

/** A record carrying another record's signature: well formed, and its signature does not verify. */
function forged (record: StoredRecord, signatureOf: StoredRecord): SignedRecord {
  return { record: record.signed.record, signature: signatureOf.signed.signature }
}

async function failureOf (promise: Promise<unknown>): Promise<{ code: string, index: unknown, message: string }> {
  const err: unknown = await promise.then(() => null, (e: unknown) => e)
  if (!isIsnadError(err)) throw new Error(`expected an IsnadError, got ${String(err)}`)
  return { code: err.code, index: err.details?.index, message: err.message }
}

/**
 * A ledger for the pipeline's journal and index steps that writes nothing and keeps the order of
 * the calls it gets, so the steps' order against the store can be checked; the node's Journal is
 * covered by the journal, local-node and damage tests. `failJournal` makes the journal step throw.
 */
class CallLog implements RecordJournal {
  readonly calls: string[] = []
  readonly journaled: StoredRecord[][] = []
  failJournal: Error | undefined
  constructor (private readonly store: () => RecordStore) {}

  async journalRecords (fresh: readonly StoredRecord[], source: RecordSource): Promise<JournaledBatch> {
    this.calls.push(`journal:${source}:${String((await this.store().existsMany(fresh.map((r) => r.id))).filter(Boolean).length)} stored`)
    if (this.failJournal !== undefined) throw this.failJournal
    this.journaled.push([...fresh])
    return { records: fresh, events: [] }
  }

  async abandonBatch (): Promise<void> { this.calls.push('abandon') }

  async logBatch (batch: JournaledBatch): Promise<void> {
    this.calls.push(`log:${String((await this.store().existsMany(batch.records.map((r) => r.id))).filter(Boolean).length)} stored`)
  }

  readonly views: BatchViews = {
    write: async (_batch: JournaledBatch, scored: ReadonlyMap<string, MemoryEvidence>): Promise<void> => {
      this.calls.push(`views:${[...scored.keys()].join(',')}`)
      await new Promise((resolve) => setImmediate(resolve)) // written after the publish step told its listeners
      this.calls.push('settle')
    },
    defer: (_batch: JournaledBatch, scored: ReadonlyMap<string, MemoryEvidence>): void => {
      this.calls.push(`deferred views:${[...scored.keys()].join(',')}`)
    },
    release: (): void => { this.calls.push('release views') }
  }
}

describe.each(stores)('IngestPipeline on the $name store', ({ open }) => {
  let store: RecordStore
  let pipeline: IngestPipeline
  const ingest = async (inputs: readonly unknown[]): Promise<IngestResult> => await pipeline.ingest(inputs, 'import')
  const withCollaborators = (init: Partial<IngestPipelineInit>): IngestPipeline =>
    new IngestPipeline({ store, verifier: nodeCryptoVerifier, clock: () => NOW, ...init })

  /** The trust a from-scratch computation gives `memoryId` over what the store holds. */
  async function freshTrust (memoryId: string): Promise<{ score: number, level: string }> {
    const memory = await store.getMemory(memoryId)
    if (memory === null) throw new Error(`memory ${memoryId} is not stored`)
    const { score, level } = scoreEvidence(await gatherEvidence(store, memory), NOW, {}) // a bare store: the defaults
    return { score, level }
  }

  async function expectTrustConsistent (memoryIds: readonly string[]): Promise<void> {
    for (const id of memoryIds) {
      const indexed = await store.getTrust(id)
      expect(indexed === null ? null : { score: indexed.score, level: indexed.level }, `indexed trust of ${id}`).toEqual(await freshTrust(id))
    }
  }

  beforeEach(async () => {
    store = await open()
    await store.open()
    pipeline = withCollaborators({})
  })
  afterEach(async () => { await store.close() })

  describe('bytes from the network', () => {
    it('stores canonical bytes and returns the same ids as the object form', async () => {
      const memory = createMemory(alice, { tags: ['wire'] })
      const attestation = createAttestation(bob, memory.id)
      const result = await ingest([wire(memory), wire(attestation)])
      expect(result).toEqual({ stored: [memory.id, attestation.id], duplicates: [], rescored: [memory.id] })
      expect(await store.get(memory.id)).toEqual(memory)
      expect(await store.attestationsFor(memory.id)).toEqual([attestation])
      expect((await ingest([memory.signed, wire(attestation)])).duplicates).toEqual([memory.id, attestation.id])
    })

    it('refuses bytes followed by anything with DECODE_FAILED, naming the record, and stores nothing', async () => {
      const memory = createMemory(alice)
      const attestation = createAttestation(bob, memory.id)
      const failure = await failureOf(ingest([wire(memory), Uint8Array.from([...wire(attestation), 0])]))
      expect(failure).toMatchObject({ code: 'DECODE_FAILED', index: 1 })
      expect(failure.message).toMatch(/^record #2: /)
      expect(await store.existsMany([memory.id, attestation.id])).toEqual([false, false])
    })

    it('refuses a non-canonical re-encoding of a valid record with DECODE_FAILED (record-v1 R18)', async () => {
      const memory = createMemory(alice)
      const bytes = reordered(memory)
      expect(bytes).toHaveLength(wire(memory).length)
      expect(await failureOf(ingest([bytes]))).toMatchObject({ code: 'DECODE_FAILED', index: 0 })
      expect(await store.exists(memory.id)).toBe(false)
      // The canonical bytes of the same record are accepted.
      expect((await ingest([wire(memory)])).stored).toEqual([memory.id])
    })

    it('refuses a forged record with SIGNATURE_INVALID, as bytes and as an object', async () => {
      const memory = createMemory(alice)
      const attestation = createAttestation(bob, memory.id)
      const fake = forged(createAttestation(carol, memory.id), attestation)
      expect(await failureOf(ingest([wire(memory), encodeSignedRecord(fake)]))).toMatchObject({ code: 'SIGNATURE_INVALID', index: 1 })
      expect(await failureOf(ingest([memory.signed, fake]))).toMatchObject({ code: 'SIGNATURE_INVALID', index: 1 })
      expect(await store.count()).toEqual({ memory: 0, attestation: 0, anchor: 0, witness_request: 0 })
    })
  })

  describe('the first bad record is the one named, whichever check finishes first', () => {
    it('names a bad signature (found late, off the thread) before a later undecodable record (found at once)', async () => {
      const memory = createMemory(alice)
      const fake = forged(createAttestation(carol, memory.id), createAttestation(bob, memory.id))
      const failure = await failureOf(ingest([memory.signed, fake, memory.signed, Uint8Array.of(0xff), wire(memory)]))
      expect(failure).toMatchObject({ code: 'SIGNATURE_INVALID', index: 1 })
      expect(failure.message).toMatch(/^record #2: signature of attestation /)
    })

    it('names the lowest failing position in a batch wider than INGEST_VERIFY_CONCURRENCY', async () => {
      const memory = createMemory(alice)
      const attestations = Array.from({ length: 2 * INGEST_VERIFY_CONCURRENCY + 10 }, (_, i) =>
        createAttestation(bob, memory.id, 'confirm', new Date(Date.parse('2026-02-05T17:00:00Z') + i * 1000).toISOString()))
      const inputs: unknown[] = attestations.map(wire)
      const late = INGEST_VERIFY_CONCURRENCY + 5
      inputs[late + 20] = Uint8Array.of(0x00)
      inputs[late + 3] = forged(createAttestation(carol, memory.id), attestations[0] as StoredRecord)
      inputs[late] = encodeSignedRecord(forged(createAttestation(dave, memory.id), attestations[1] as StoredRecord))
      for (let run = 0; run < 3; run++) {
        expect(await failureOf(ingest(inputs)), `run ${run}`).toMatchObject({ code: 'SIGNATURE_INVALID', index: late })
      }
      expect((await store.count()).attestation).toBe(0)
      inputs[late] = wire(attestations[late] as StoredRecord)
      expect(await failureOf(ingest(inputs))).toMatchObject({ code: 'SIGNATURE_INVALID', index: late + 3 })
    })
  })

  describe('duplicates', () => {
    it('stores a record repeated within a batch once', async () => {
      const memory = createMemory(alice)
      const attestation = createAttestation(bob, memory.id)
      const result = await ingest([memory.signed, wire(memory), attestation.signed, wire(attestation), memory.signed])
      expect(result).toEqual({ stored: [memory.id, attestation.id], duplicates: [], rescored: [memory.id] })
      expect(await store.count()).toEqual({ memory: 1, attestation: 1, anchor: 0, witness_request: 0 })
      expect(await store.attestationsFor(memory.id)).toEqual([attestation])
    })

    it('reports records stored by an earlier batch as duplicates, and counts their evidence once', async () => {
      const memory = createMemory(alice)
      const first = createAttestation(bob, memory.id)
      const second = createAttestation(carol, memory.id, 'dispute')
      await ingest([memory.signed, first.signed])
      const result = await ingest([wire(first), second.signed, memory.signed])
      expect(result.stored).toEqual([second.id])
      expect(result.duplicates).toEqual([first.id, memory.id])
      expect(result.rescored).toEqual([memory.id])
      expect(await store.count()).toEqual({ memory: 1, attestation: 2, anchor: 0, witness_request: 0 })
      await expectTrustConsistent([memory.id])
    })
  })

  describe('concurrency and the evidence cache', () => {
    it('counts every one of concurrent batches attesting the same memory', async () => {
      const memory = createMemory(alice)
      await ingest([memory.signed])
      // isnad-v0.1 scores confirms as a group (≥ 1, ≥ 3): three batches of one, all in flight at once.
      const attestations = [bob, carol, dave].map((witness) => createAttestation(witness, memory.id))
      const results = await Promise.all(attestations.map(async (a) => await ingest([wire(a)])))
      expect(results.flatMap((r) => r.stored).sort()).toEqual(attestations.map((a) => a.id).sort())
      expect((await store.attestationsFor(memory.id)).map((a) => a.id).sort()).toEqual(attestations.map((a) => a.id).sort())
      const evidence = await gatherEvidence(store, memory)
      const withTwo = scoreEvidence({ ...evidence, attestations: evidence.attestations.slice(0, 2) }, NOW, {})
      expect((await store.getTrust(memory.id))?.score, 'the third confirmation counts').toBeGreaterThan(withTwo.score)
      await expectTrustConsistent([memory.id])
    })

    it('sees a write that bypassed ingest: the cached evidence is dropped, not trusted', async () => {
      const memory = createMemory(alice)
      await ingest([memory.signed, createAttestation(bob, memory.id).signed])
      // Stored behind ingest's back (an import tool, a repair): the cache of this memory is stale.
      await store.putMany([createAttestation(carol, memory.id, 'dispute')])
      await ingest([createAttestation(dave, memory.id).signed])
      expect(await store.attestationsFor(memory.id)).toHaveLength(3)
      await expectTrustConsistent([memory.id])
    })

    it('keeps the indexed trust equal to a fresh computation across many batches, in any arrival order', async () => {
      const memories = [createMemory(alice, { tags: ['t'] }), createMemory(bob, { tags: ['t'] }), createMemory(carol)]
      const evidence: StoredRecord[] = []
      const witnesses = [alice, bob, carol, dave]
      for (const memory of memories) {
        for (const witness of witnesses) {
          if (witness.did === memory.signed.record.author.agent_id) continue
          evidence.push(createAttestation(witness, memory.id, evidence.length % 3 === 0 ? 'dispute' : 'confirm'))
        }
        evidence.push(createAnchor(dave, memory.id))
      }
      // Evidence before its memory, in small batches, two of them in flight at a time.
      const batches = [evidence.slice(0, 4), [memories[0] as StoredRecord, ...evidence.slice(4, 6)], evidence.slice(6, 9),
        [memories[2] as StoredRecord, memories[1] as StoredRecord], evidence.slice(9)]
      const inFlight: Array<Promise<IngestResult>> = []
      for (const batch of batches) {
        if (inFlight.length >= 2) await inFlight.shift()
        inFlight.push(ingest(batch.map((r, i) => (i % 2 === 0 ? wire(r) : r.signed))))
      }
      await Promise.all(inFlight)
      expect((await store.count()).attestation + (await store.count()).anchor).toBe(evidence.length)
      await expectTrustConsistent(memories.map((m) => m.id))
    })
  })

  describe('accept (records the caller verified)', () => {
    it('stores, scores and reports like ingest, journal included, without verifying again', async () => {
      const memory = createMemory(alice)
      const attestation = createAttestation(bob, memory.id)
      const verified = [memory, attestation, memory].map((r) => verifyRecordBytes(wire(r), { verifier: nodeCryptoVerifier, now: NOW }))
      const ledger = new CallLog(() => store)
      pipeline = withCollaborators({ journal: ledger })
      const result = await pipeline.accept(verified, 'gossip')
      expect(result).toEqual({ stored: [memory.id, attestation.id], duplicates: [], rescored: [memory.id] })
      expect(ledger.journaled.map((batch) => batch.map((r) => r.id))).toEqual([[memory.id, attestation.id]])
      // Handed on as stored records with their bytes, not as VerifiedRecord (no `cid`).
      for (const r of ledger.journaled.flat()) expect(Object.keys(r).sort()).toEqual(['bytes', 'id', 'signed'])
      expect(await store.get(attestation.id)).toEqual(attestation)
      await expectTrustConsistent([memory.id])
      expect((await pipeline.accept([verified[1] as VerifiedRecord], 'sync')).duplicates).toEqual([attestation.id])
    })

    it('still has the store check every id: a record under another id is refused with CID_MISMATCH', async () => {
      const memory = createMemory(alice)
      const other = createMemory(bob)
      // A VerifiedRecord whose id was changed after verification (a bug in the caller, not a peer).
      const verified = verifyRecordBytes(wire(memory), { verifier: nodeCryptoVerifier, now: NOW })
      const err = await failureOf(pipeline.accept([{ ...verified, id: other.id, bytes: verified.bytes.slice() }], 'sync'))
      expect(err.code).toBe('CID_MISMATCH')
      expect(await store.existsMany([memory.id, other.id])).toEqual([false, false])
    })
  })

  describe('the steps against the ledger: decode → verify → check → score → journal → index → publish', () => {
    it('journals the new records before the index write, then logs, reduces views, publishes and settles', async () => {
      const memory = createMemory(alice)
      await ingest([memory.signed])
      const known = createAttestation(bob, memory.id)
      await ingest([known.signed])
      const fresh = [createAttestation(carol, memory.id), createAttestation(dave, memory.id, 'dispute')]
      const ledger = new CallLog(() => store)
      pipeline = withCollaborators({ journal: ledger })
      const published: string[] = []
      pipeline.onStored((records, source) => { ledger.calls.push(`publish:${source}:${records.map((r) => r.id).join(',')}`); published.push(...records.map((r) => r.id)) })
      const result = await pipeline.ingest([wire(known), wire(fresh[0] as StoredRecord), (fresh[1] as StoredRecord).signed], 'import')
      expect(ledger.calls).toEqual([
        'journal:import:0 stored', 'log:2 stored', `views:${memory.id}`, `publish:import:${fresh.map((r) => r.id).join(',')}`, 'settle'
      ])
      // Each comes with its canonical bytes, as the ledger writes them and the publisher sends them.
      ledger.journaled.flat().forEach((r, i) => { expect(r.bytes, r.id).toEqual(wire(fresh[i] as StoredRecord)) })
      expect(published).toEqual(fresh.map((r) => r.id))
      expect(result.stored).toEqual(fresh.map((r) => r.id))
      expect(result.duplicates).toEqual([known.id])
      expect(result.rescored).toEqual([memory.id])
    })

    it('defers the views of records from sync and gossip (the journal settles the batch), and releases them once no call is in flight', async () => {
      const memory = createMemory(alice)
      const ledger = new CallLog(() => store)
      pipeline = withCollaborators({ journal: ledger })
      const pages = [[memory], [createAttestation(bob, memory.id)], [createAttestation(carol, memory.id)]]
      // A sync loop: each page handed on as soon as the one before returned, then gossip meanwhile.
      for (const page of pages.slice(0, 2)) await pipeline.ingest(page.map(wire), 'sync')
      await pipeline.ingest((pages[2] as StoredRecord[]).map(wire), 'gossip')
      expect(ledger.calls.filter((c) => c.includes('views') || c === 'settle')).toEqual([
        `deferred views:${memory.id}`, `deferred views:${memory.id}`, `deferred views:${memory.id}`
      ])
      await new Promise((resolve) => setImmediate(resolve))
      expect(ledger.calls.at(-1)).toBe('release views')
      expect(ledger.calls.filter((c) => c === 'release views')).toHaveLength(1)
    })

    it('stores nothing when the journal step throws, rejects with its error, and ingests normally afterwards', async () => {
      const memory = createMemory(alice)
      await ingest([memory.signed, createAttestation(bob, memory.id).signed])
      const trustBefore = await store.getTrust(memory.id)
      const attestation = createAttestation(carol, memory.id)
      const ledger = new CallLog(() => store)
      ledger.failJournal = new Error('ledger append failed')
      pipeline = withCollaborators({ journal: ledger })
      const heard: string[] = []
      pipeline.onStored((records) => { heard.push(...records.map((r) => r.id)) })
      expect(await pipeline.ingest([wire(attestation)], 'gossip').then(() => null, (e: unknown) => e)).toBe(ledger.failJournal)
      expect(ledger.calls).toEqual(['journal:gossip:0 stored'])
      expect(heard).toEqual([])
      expect(await store.exists(attestation.id)).toBe(false)
      expect(await store.getTrust(memory.id)).toEqual(trustBefore)
      ledger.failJournal = undefined
      expect((await pipeline.ingest([wire(attestation)], 'gossip')).stored).toEqual([attestation.id])
      expect(heard).toEqual([attestation.id])
      await expectTrustConsistent([memory.id])
    })

    it('keeps the journaled records answerable when the index write fails (abandon), and publishes nothing', async () => {
      const memory = createMemory(alice)
      const other = createMemory(bob)
      const ledger = new CallLog(() => store)
      pipeline = withCollaborators({ journal: ledger })
      const verified = verifyRecordBytes(wire(memory), { verifier: nodeCryptoVerifier, now: NOW })
      const err = await failureOf(pipeline.accept([{ ...verified, id: other.id, bytes: verified.bytes.slice() }], 'fetch'))
      expect(err.code).toBe('CID_MISMATCH')
      expect(ledger.calls).toEqual(['journal:fetch:0 stored', 'abandon'])
    })

    it('neither journals nor publishes a batch holding nothing new', async () => {
      const memory = createMemory(alice)
      await ingest([memory.signed])
      const ledger = new CallLog(() => store)
      pipeline = withCollaborators({ journal: ledger })
      let heard = 0
      pipeline.onStored(() => { heard++ })
      const result = await pipeline.ingest([wire(memory)], 'gossip')
      expect(result).toEqual({ stored: [], duplicates: [memory.id], rescored: [] })
      expect(ledger.calls).toEqual([])
      expect(heard).toBe(0)
    })

    it('reports a listener that throws after the others heard, the records stored', async () => {
      const memory = createMemory(alice)
      const failure = new Error('listener failed')
      const heard: string[] = []
      pipeline.onStored(() => { throw failure })
      pipeline.onStored((records) => { heard.push(...records.map((r) => r.id)) })
      expect(await ingest([memory.signed]).then(() => null, (e: unknown) => e)).toBe(failure)
      expect(heard).toEqual([memory.id])
      expect(await store.exists(memory.id)).toBe(true)
    })
  })

  describe('its collaborators', () => {
    it('checks every new record against the key check it was given (record-v1 K12), naming the record', async () => {
      const memory = createMemory(alice)
      const attestation = createAttestation(bob, memory.id)
      pipeline = withCollaborators({
        keys: { checkRecord: (signed) => signed.record.kind === 'attestation' ? new IsnadError('KEY_REVOKED', `${bob.did} was revoked`) : undefined }
      })
      expect(await failureOf(pipeline.ingest([memory.signed, wire(attestation)], 'gossip'))).toMatchObject({ code: 'KEY_REVOKED', index: 1 })
      expect(await store.existsMany([memory.id, attestation.id])).toEqual([false, false])
    })

    it('asks the key check once per record: not again for records the network\'s gate judged (K12 there: ignored, gossip-v1 R13)', async () => {
      const memory = createMemory(alice)
      const attestation = createAttestation(bob, memory.id)
      const asked: string[] = []
      pipeline = withCollaborators({ keys: { checkRecord: (_signed, id) => { asked.push(id); return undefined } } })
      const [verifiedMemory, verifiedAttestation] = [memory, attestation].map((r) => verifyRecordBytes(wire(r), { verifier: nodeCryptoVerifier, now: NOW }))
      await pipeline.accept([verifiedMemory as VerifiedRecord], 'gossip')
      await pipeline.accept([verifiedAttestation as VerifiedRecord], 'sync')
      expect(asked).toEqual([])
      const local = createAttestation(carol, memory.id)
      await pipeline.accept([verifyRecordBytes(wire(local), { verifier: nodeCryptoVerifier, now: NOW })], 'local')
      expect(asked).toEqual([local.id])
    })

    it('scores under the trust setting it was given, the same as a fresh computation under it', async () => {
      const memory = createMemory(alice)
      const attestation = createAttestation(bob, memory.id)
      const setting = { policy: 'isnad-reputation' as const, reputation: (did: string) => (did === bob.did ? 1 : 0) }
      pipeline = withCollaborators({ trustSetting: async () => setting })
      await pipeline.ingest([memory.signed, attestation.signed], 'import')
      const stored = await store.getMemory(memory.id)
      const expected = scoreEvidence(await gatherEvidence(store, stored as StoredRecord<never>), NOW, setting)
      const defaults = scoreEvidence(await gatherEvidence(store, stored as StoredRecord<never>), NOW, {})
      expect((await store.getTrust(memory.id))?.score).toBe(expected.score)
      expect(expected.score, 'the setting changes the score').not.toBe(defaults.score)
    })

    it('tells the votes of each batch\'s stored records in its turn, before the next batch is scored (the reputation never finds the store ahead)', async () => {
      const memory = createMemory(alice)
      const order: string[] = []
      pipeline = withCollaborators({
        trustSetting: async (pending) => { order.push(`score:${pending.length}`); return {} },
        votes: { observe: (records) => { order.push(`indexed:${records.map((r) => r.id).join(',')}`) } }
      })
      const attestation = createAttestation(bob, memory.id)
      // Two batches at once: the second takes its turn as soon as the first is indexed.
      await Promise.all([pipeline.ingest([memory.signed], 'sync'), pipeline.ingest([memory.signed, attestation.signed], 'sync')])
      expect(order).toEqual(['score:1', `indexed:${memory.id}`, 'score:1', `indexed:${attestation.id}`])
    })
  })
})
