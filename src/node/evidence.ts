import type { AnchorRecord, AnchorVerification, AttestationRecord, MemoryRecord, MemoryView } from '../schema/index.js'
import type { RecordStore, StoredRecord, TrustEntry } from '../store/index.js'
import { computeTrust, type TrustResult } from '../trust/index.js'
import { buildMemoryView } from '../view/index.js'
import { MAX_LINEAGE_DEPTH, UNCHECKED_ANCHOR_REASON } from './constants.js'

/** Everything the node knows about one memory, gathered from the store. */
export interface MemoryEvidence {
  memory: StoredRecord<MemoryRecord>
  attestations: Array<StoredRecord<AttestationRecord>>
  anchors: Array<{ stored: StoredRecord<AnchorRecord>, verification: AnchorVerification }>
}

function anchorVerification (): AnchorVerification {
  return { state: 'unchecked', reason: UNCHECKED_ANCHOR_REASON }
}

/**
 * Loads a memory's evidence from the store, plus `pending` records of the same batch not stored yet
 * (ingest scores a batch before writing it, so records and trust land in one atomic write).
 */
export async function gatherEvidence (store: RecordStore, memory: StoredRecord<MemoryRecord>, pending: readonly StoredRecord[] = []): Promise<MemoryEvidence> {
  // Two independent reads: LevelDB serves them at the same time.
  const [attestations, anchors] = await Promise.all([store.attestationsFor(memory.id), store.anchorsFor(memory.id)])
  return evidenceOf(memory, attestations, anchors, pending)
}

/**
 * A memory's evidence from its stored attestations and anchors (taken over, not copied) and the
 * `pending` records of a batch: those of this memory that are not stored yet are added.
 */
export function evidenceOf (
  memory: StoredRecord<MemoryRecord>,
  attestations: Array<StoredRecord<AttestationRecord>>,
  anchors: Array<StoredRecord<AnchorRecord>>,
  pending: readonly StoredRecord[] = []
): MemoryEvidence {
  const known = pending.length === 0 ? undefined : new Set([...attestations, ...anchors].map((r) => r.id))
  for (const record of pending) {
    if (known?.has(record.id) === true) continue
    const { signed } = record
    if (signed.record.kind === 'attestation' && signed.record.memory === memory.id) {
      attestations.push({ id: record.id, signed: { record: signed.record, signature: signed.signature } })
    } else if (signed.record.kind === 'anchor' && signed.record.memory === memory.id) {
      anchors.push({ id: record.id, signed: { record: signed.record, signature: signed.signature } })
    }
  }
  return { memory, attestations, anchors: anchors.map((stored) => ({ stored, verification: anchorVerification() })) }
}

/**
 * Scores a memory. Records in the store passed verifyRecord before they were stored (the store's
 * invariant), so their signatures count as valid without being checked again.
 */
export function scoreEvidence (evidence: MemoryEvidence, now: number): TrustResult {
  return computeTrust({
    memory: { id: evidence.memory.id, record: evidence.memory.signed.record, signatureValid: true },
    attestations: evidence.attestations.map(({ id, signed }) => ({ id, record: signed.record, signatureValid: true })),
    anchors: evidence.anchors.map(({ stored, verification }) => ({ id: stored.id, record: stored.signed.record, signatureValid: true, verification })),
    now
  })
}

export function trustEntryOf (result: TrustResult): TrustEntry {
  return { score: result.score, level: result.level, policy: result.policy, computed_at: result.computed_at }
}

/** The newest successor by the same author: a correction by someone else is not the author's word. */
async function findSupersededBy (store: RecordStore, memory: StoredRecord<MemoryRecord>): Promise<string | null> {
  let best: StoredRecord<MemoryRecord> | null = null
  for (const id of await store.supersededBy(memory.id)) {
    const successor = await store.getMemory(id)
    if (successor === null || successor.signed.record.author.agent_id !== memory.signed.record.author.agent_id) continue
    if (best === null || successor.signed.record.created_at > best.signed.record.created_at) best = successor
  }
  return best?.id ?? null
}

async function lineageDepth (store: RecordStore, memory: StoredRecord<MemoryRecord>): Promise<number> {
  let depth = 0
  let previous = memory.signed.record.lineage.supersedes
  while (previous !== undefined && depth < MAX_LINEAGE_DEPTH) {
    depth++
    const ancestor = await store.getMemory(previous)
    previous = ancestor?.signed.record.lineage.supersedes
  }
  return depth
}

export async function viewOf (store: RecordStore, evidence: MemoryEvidence, trust: TrustResult): Promise<MemoryView> {
  return buildMemoryView({
    memory: { id: evidence.memory.id, signed: evidence.memory.signed },
    attestations: evidence.attestations,
    anchors: evidence.anchors.map(({ stored, verification }) => ({ id: stored.id, signed: stored.signed, verification })),
    supersededBy: await findSupersededBy(store, evidence.memory),
    chainDepth: await lineageDepth(store, evidence.memory),
    trust
  })
}
