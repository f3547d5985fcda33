import { readSnapshotEntries, strictEntries } from '../../ledger/index.js'
import { SignedCheckpointSchema, type SignedCheckpoint } from '../../merkle/index.js'
import type { AnchorRecord, AttestationRecord, MemoryRecord, WitnessRequestRecord } from '../../schema/index.js'
import type { RecordLocation, StoredRecord, TrustEntry } from '../../record-index/index.js'
import { Keyring } from '../../key-events/index.js'
import { NODE_RECORD_FAST_PATHS, nodeCryptoVerifier } from '../../fast-crypto/index.js'
import { trustSettingFrom, type MemoryAttestations, type TrustSetting } from '../../reputation/index.js'
import { evidenceOf, scoreEvidence, trustEntryOf } from '../trust/memory-evidence.js'
import { keyringIdentities } from '../trust/node-trust.js'
import { EventsChunkBuilder, memoriesChunk, type ReaderInput, type WireChunk } from './reindex-chunks.js'
import { locatedRecordsOf } from '../journal/record-locations.js'

/*
 * The per-event work of a rebuild (reindex.ts), done in the reader thread (reindex-worker.ts) while
 * the rebuilding thread writes: every ledger line read, hash- and schema-checked, in Lamport order
 * (strictEvents: the first bad line ends the read with LEDGER_CORRUPT naming it), each record event's
 * record schema-checked, and every memory scored once the whole ledger has been read. Every record,
 * memories included, is encoded to canonical DAG-CBOR and its id checked against it by the store as
 * the rebuild writes it (prepareRecords: CID_MISMATCH). Reading and checking the lines is the larger
 * share: when this thread also encoded the memories, it was busy 8.0–8.3 s of a ~10 s reindex of
 * 100,000 events while the rebuilding thread waited for it (measured on 2 cores).
 */

/** Evidence gathered for scoring: no store reads needed. */
interface Collected {
  memories: Map<string, StoredRecord<MemoryRecord>>
  attestations: Map<string, Array<StoredRecord<AttestationRecord>>>
  anchors: Map<string, Array<StoredRecord<AnchorRecord>>>
  /** Witness requests by memory: who asked which witnesses (isnad-draw's private checks, docs/trust.md §5a). */
  requests: Map<string, Array<StoredRecord<WitnessRequestRecord>>>
  /** Where the ledger holds each memory's bytes, sent with the memory once it is scored. */
  locations: Map<string, RecordLocation>
}

/**
 * Sends the ledger as chunks: events chunks in ledger order, then memories chunks with their trust.
 * `send` resolves when the next chunk may be sent (the rebuild took enough of the earlier ones).
 */
export async function readForReindex (input: ReaderInput, send: (chunk: WireChunk) => Promise<void>): Promise<void> {
  const collected: Collected = { memories: new Map(), attestations: new Map(), anchors: new Map(), requests: new Map(), locations: new Map() }
  let chunk = new EventsChunkBuilder()
  for await (const entry of strictEntries(readSnapshotEntries(input.snapshot))) {
    const event = entry.value
    chunk.addEvent(event)
    // A pack's records with where they are in the ledger (the index keeps that, not the bytes), or the one an event embeds.
    const { records, locations } = await locatedRecordsOf(event, input.snapshot.dataDir, entry)
    if (records.length > 0) {
      for (const record of records) {
        const location = locations.get(record.id)
        chunk.addRecord(record, location)
        collect(collected, record)
        if (location !== undefined && record.signed.record.kind === 'memory') collected.locations.set(record.id, location)
      }
    } else if (event.type === 'memory.checkpointed') {
      const checkpoint = SignedCheckpointSchema.safeParse(event.payload.checkpoint)
      if (checkpoint.success) chunk.addCheckpoint(checkpoint.data as SignedCheckpoint)
    }
    if (chunk.count >= input.batch) {
      await send(chunk.finish())
      chunk = new EventsChunkBuilder()
    }
  }
  if (chunk.count > 0) await send(chunk.finish())
  // Scored as the node scores (its policy, roots, keyring and set shard count), never with the defaults: a rebuilt
  // index holds the scores the node would store. A chunk at a time, so the rebuild writes one
  // chunk while the next is scored.
  const keyring = await Keyring.open({ file: input.trust.keyEvents, readOnly: true, verifier: nodeCryptoVerifier, clock: () => input.now })
  try {
    const { policy, roots, shardCount } = input.trust
    const setting = trustSettingFrom(votingMemories(collected), { policy, roots, identities: keyringIdentities(keyring), drawPaths: NODE_RECORD_FAST_PATHS, ...(shardCount === undefined ? {} : { shardCount }) })
    const memories = [...collected.memories.values()]
    for (let at = 0; at < memories.length; at += input.batch) {
      const batch = memories.slice(at, at + input.batch)
      await send(memoriesChunk(batch, batch.map((memory) => trustOf(memory, collected, input.now, setting)), collected.locations))
    }
  } finally {
    await keyring.close()
  }
}

/** Every memory's author and attestations, as the node's reputation service collects them. */
function * votingMemories (collected: Collected): Generator<MemoryAttestations> {
  for (const [id, memory] of collected.memories) {
    const attestations = collected.attestations.get(id)
    if (attestations === undefined) continue
    yield { author: memory.signed.record.author.agent_id, attestations: attestations.map((a) => ({ id: a.id, record: a.signed.record })) }
  }
}

/** Memories are kept until they are scored and sent; their evidence is gathered by memory. */
function collect (collected: Collected, stored: StoredRecord): void {
  const { record } = stored.signed
  if (record.kind === 'memory') collected.memories.set(stored.id, stored as StoredRecord<MemoryRecord>)
  else if (record.kind === 'attestation') push(collected.attestations, record.memory, stored as StoredRecord<AttestationRecord>)
  else if (record.kind === 'anchor') push(collected.anchors, record.memory, stored as StoredRecord<AnchorRecord>)
  else if (record.kind === 'witness_request') push(collected.requests, record.memory, stored as StoredRecord<WitnessRequestRecord>)
}

function push<T> (map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key)
  if (list === undefined) map.set(key, [value])
  else list.push(value)
}

function trustOf (memory: StoredRecord<MemoryRecord>, collected: Collected, now: number, setting: TrustSetting): TrustEntry {
  const evidence = evidenceOf(memory, collected.attestations.get(memory.id) ?? [], collected.anchors.get(memory.id) ?? [], [], undefined, collected.requests.get(memory.id) ?? [])
  return trustEntryOf(scoreEvidence(evidence, now, setting))
}
