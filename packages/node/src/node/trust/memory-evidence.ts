import type { AgentEvidence, AnchorRecord, AnchorVerification, AttestationRecord, MemoryRecord, MemoryView, WitnessRequestRecord } from '../../schema/index.js'
import { MAX_QUERY_LIMIT, putRecent, useRecent, type RecordStore, type StoredRecord, type TrustEntry } from '../../record-index/index.js'
import { scoreWithSetting, type TrustSetting } from '../../reputation/index.js'
import type { AttestationEvidence, TrustResult } from '../../trust/index.js'
import { drawFractionOfProof } from '../../draw/index.js'
import { NODE_RECORD_FAST_PATHS } from '../../fast-crypto/index.js'
import { decodeSignature } from '../../record/index.js'
import { buildMemoryView } from '../../memory-view/index.js'
import { MAX_LINEAGE_DEPTH, UNCHECKED_ANCHOR_REASON } from '../constants.js'


/** Everything the node knows about one memory, gathered from the store. */
export interface MemoryEvidence {
  memory: StoredRecord<MemoryRecord>
  attestations: Array<StoredRecord<AttestationRecord>>
  anchors: Array<{ stored: StoredRecord<AnchorRecord>, verification: AnchorVerification }>
  /**
   * The memory's witness requests: whom the author, and this node (its private checks), asked. A
   * policy that tells the author's witnesses apart reads them (isnad-draw, docs/trust.md §5a).
   */
  requests: Array<StoredRecord<WitnessRequestRecord>>
}

/**
 * Evidence the ingest pipeline scored, with the result it stored (the index's trust entry is
 * trustEntryOf(trust)): the views take this result rather than scoring the memory a second time,
 * so a view carries exactly the score `query` filters on, even when its round runs after later
 * batches have moved the reputation table.
 */
export interface ScoredEvidence extends MemoryEvidence {
  trust: TrustResult
  /**
   * The pipeline's batch turn that scored it (batches take turns one after another): of two scorings
   * of one memory, the later turn's saw every record the earlier's did, and its trust is the stored one.
   */
  turn: number
}

function anchorVerification (): AnchorVerification {
  return { state: 'unchecked', reason: UNCHECKED_ANCHOR_REASON }
}

/**
 * Loads a memory's evidence from the store, plus `pending` records of the same batch not stored yet
 * (ingest scores a batch before writing it, so records and trust land in one atomic write).
 */
export async function gatherEvidence (store: RecordStore, memory: StoredRecord<MemoryRecord>, pending: readonly StoredRecord[] = []): Promise<MemoryEvidence> {
  // Independent reads: LevelDB serves them at the same time.
  const [attestations, anchors, requests] = await Promise.all([store.attestationsFor(memory.id), store.anchorsFor(memory.id), store.witnessRequestsFor(memory.id)])
  return evidenceOf(memory, attestations, anchors, pending, undefined, requests)
}

/**
 * A memory's evidence from its stored attestations, anchors and witness requests (taken over, not
 * copied) and the `pending` records of a batch: those of this memory that are not stored yet are
 * added. `storedIds`, when the caller has them (the EvidenceCache does), are the ids of the stored
 * attestations and anchors.
 */
export function evidenceOf (
  memory: StoredRecord<MemoryRecord>,
  attestations: Array<StoredRecord<AttestationRecord>>,
  anchors: Array<StoredRecord<AnchorRecord>>,
  pending: readonly StoredRecord[] = [],
  storedIds?: ReadonlySet<string>,
  requests: Array<StoredRecord<WitnessRequestRecord>> = []
): MemoryEvidence {
  const known = pending.length === 0 ? undefined : storedIds ?? storedIdsOf(attestations, anchors)
  const storedRequests = requests.length
  for (const record of pending) {
    if (known?.has(record.id) === true) continue
    const { signed } = record
    if (signed.record.kind === 'attestation' && signed.record.memory === memory.id) {
      attestations.push({ id: record.id, signed: { record: signed.record, signature: signed.signature } })
    } else if (signed.record.kind === 'anchor' && signed.record.memory === memory.id) {
      anchors.push({ id: record.id, signed: { record: signed.record, signature: signed.signature } })
    } else if (signed.record.kind === 'witness_request' && signed.record.memory === memory.id && indexOfId(requests, record.id, storedRequests) < 0) {
      requests.push({ id: record.id, signed: { record: signed.record, signature: signed.signature } })
    }
  }
  return { memory, attestations, anchors: anchors.map((stored) => ({ stored, verification: anchorVerification() })), requests }
}

/**
 * The ids of a memory's stored evidence, for evidenceOf to skip pending records already among
 * them: a set when there are many; a memory usually has a few, looked through in place.
 */
function storedIdsOf (
  attestations: ReadonlyArray<StoredRecord<AttestationRecord>>, anchors: ReadonlyArray<StoredRecord<AnchorRecord>>
): { has: (id: string) => boolean } {
  if (attestations.length + anchors.length > SCANNED_EVIDENCE_MAX) return new Set([...attestations, ...anchors].map((r) => r.id))
  // Only the records stored now: evidenceOf appends the pending ones to these same arrays.
  const storedAttestations = attestations.length
  const storedAnchors = anchors.length
  return { has: (id) => indexOfId(attestations, id, storedAttestations) >= 0 || indexOfId(anchors, id, storedAnchors) >= 0 }
}

function indexOfId (records: ReadonlyArray<{ id: string }>, id: string, end: number): number {
  for (let i = 0; i < end; i++) if ((records[i] as { id: string }).id === id) return i
  return -1
}

/** @default 16 — stored attestations and anchors up to which evidenceOf looks through them for an id. */
const SCANNED_EVIDENCE_MAX = 16

/**
 * Scores a memory under the node's setting (src/reputation scoreWithSetting, the one entry point).
 * Records in the store passed verifyRecord before they were stored (the store's invariant), so their
 * signatures count as valid without being checked again.
 */
export function scoreEvidence (evidence: MemoryEvidence, now: number, setting: NodeTrustSetting): TrustResult {
  const result = scoreWithSetting({
    memory: { id: evidence.memory.id, record: evidence.memory.signed.record, signatureValid: true },
    attestations: evidence.attestations.map(storedAttestationEvidence),
    anchors: evidence.anchors.map(({ stored, verification }) => ({ id: stored.id, record: stored.signed.record, signatureValid: true, verification })),
    requests: evidence.requests.map(({ id, signed }) => ({ id, record: signed.record, signatureValid: true })),
    now
  }, setting)
  // The agents this score read whose evidence the node does not hold (docs/trust.md §3a).
  const missing = setting.evidenceFor?.([evidence.memory.signed.record.author.agent_id, ...result.counted.attestations.map((a) => a.witness)])
  return missing === undefined || missing.length === 0 ? result : { ...result, evidence: missing }
}

/**
 * A stored attestation as trust evidence. Its witness draw's proof was checked by record-v1 R19 before it was
 * stored, so its fraction is the proof's hash alone (RFC 9381 §5.2), kept by attestation id: a memory
 * is scored again at every batch that touches it, and a fraction never changes.
 */
function storedAttestationEvidence ({ id, signed }: StoredRecord<AttestationRecord>): AttestationEvidence {
  const { record } = signed
  const fraction = storedDrawFraction(id, record)
  return fraction === undefined ? { id, record, signatureValid: true } : { id, record, signatureValid: true, drawFraction: fraction }
}

/**
 * A stored attestation's draw fraction (none without a draw), kept by attestation id: the scores and
 * the reputation graph both read it, and a fraction never changes.
 */
export function storedDrawFraction (id: string, record: AttestationRecord): number | undefined {
  if (record.draw === undefined) return undefined
  let fraction = useRecent(drawFractions, id)
  if (fraction === undefined) {
    fraction = drawFractionOfProof(decodeSignature(record.draw.proof), NODE_RECORD_FAST_PATHS)
    putRecent(drawFractions, id, fraction)
    if (drawFractions.size > DRAW_FRACTION_CACHE_SIZE) drawFractions.delete(drawFractions.keys().next().value as string)
  }
  return fraction
}

/** @default 65536 — draw fractions of stored attestations kept by id (least recently used dropped first). */
export const DRAW_FRACTION_CACHE_SIZE = 65_536
const drawFractions = new Map<string, number>()

/**
 * The node's trust setting: its policy, the reputation from its roots and its keyring (src/reputation
 * TrustSetting), and, on a node that fetches evidence, what a score says of the agents whose evidence
 * it does not hold (NodeTrust.setting, docs/trust.md §3a).
 */
export interface NodeTrustSetting extends TrustSetting {
  evidenceFor?: (agents: readonly string[]) => AgentEvidence[]
}

/**
 * Rescores every stored memory under `setting` and rewrites the index entries that changed (what
 * `isnad trust policy` runs after a change): anchors count as at ingest (their states are refreshed
 * at query time, NodeAnchors.refreshTrust). Returns how many entries changed.
 */
export async function rescoreStoredTrust (store: RecordStore, now: number, setting: TrustSetting): Promise<number> {
  // All ids first: the query index is ordered by trust, which this pass re-keys.
  const ids: string[] = []
  let cursor: string | undefined
  do {
    const page = await store.query({ limit: MAX_QUERY_LIMIT, ...(cursor === undefined ? {} : { cursor }) })
    for (const { id } of page.items) ids.push(id)
    cursor = page.next
  } while (cursor !== undefined)
  let changed = 0
  for (const id of ids) {
    const memory = await store.getMemory(id)
    if (memory === null) continue
    const entry = trustEntryOf(scoreEvidence(await gatherEvidence(store, memory), now, setting))
    const indexed = await store.getTrust(id)
    if (indexed?.score === entry.score && indexed.level === entry.level && indexed.policy === entry.policy) continue
    await store.setTrust(id, entry)
    changed++
  }
  return changed
}

export function trustEntryOf (result: TrustResult): TrustEntry {
  return { score: result.score, level: result.level, policy: result.policy, computed_at: result.computed_at }
}

/** The newest successor by the same author: a correction by someone else is not the author's word. */
export async function findSupersededBy (store: RecordStore, memory: StoredRecord<MemoryRecord>): Promise<string | null> {
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

/** @default 4096 — memories whose evidence the node keeps between batches (EvidenceCache). */
export const EVIDENCE_CACHE_MEMORIES = 4096

/** @default 65536 — attestations and anchors kept by the EvidenceCache, all memories together. */
export const EVIDENCE_CACHE_RECORDS = 65_536

interface CachedEvidence {
  memory: StoredRecord<MemoryRecord>
  attestations: ReadonlyArray<StoredRecord<AttestationRecord>>
  anchors: ReadonlyArray<StoredRecord<AnchorRecord>>
  requests: ReadonlyArray<StoredRecord<WitnessRequestRecord>>
  /** The ids of `attestations` and `anchors`; grows in place as the memory's evidence does. */
  ids: Set<string>
}

/**
 * The stored evidence of recently scored memories, so a stream of batches attesting the same
 * memories does not reload and re-decode their earlier attestations on every batch. The store is
 * append-only and the source of truth; the cache is only trusted while the store's record count is
 * the one its last write left: a write that bypassed ingest changes the count and empties the cache.
 */
export class EvidenceCache {
  private readonly memories = new Map<string, CachedEvidence>()
  private records = 0
  /** Records in the store after the last ingest, or -1 when unknown. */
  private storedTotal = -1

  /** Empties the cache unless the store holds exactly what the last ingest left; returns the count. */
  async validate (store: RecordStore): Promise<number> {
    const total = Object.values(await store.count()).reduce((sum, n) => sum + n, 0)
    if (total !== this.storedTotal) this.clear()
    return total
  }

  /** Least recently used first: a hit moves the entry to the end. */
  get (memoryId: string): CachedEvidence | undefined {
    return useRecent(this.memories, memoryId)
  }

  /** Whether a record is stored, when the cache knows; undefined when the store must be asked. */
  isStored ({ id, signed }: StoredRecord): boolean | undefined {
    const { record } = signed
    if (record.kind === 'memory') return this.memories.has(id) ? true : undefined
    if (record.kind === 'attestation' || record.kind === 'anchor') return this.memories.get(record.memory)?.ids.has(id)
    return undefined
  }

  /** After a write: keeps the evidence just scored, unless another writer stored part of the batch. */
  remember (storedBefore: number, stored: number, fresh: number, evidence: readonly MemoryEvidence[]): void {
    if (stored !== fresh) {
      this.clear()
      return
    }
    this.storedTotal = storedBefore + stored
    for (const { memory, attestations, anchors, requests } of evidence) {
      // Evidence only grows (the store is append-only), so a cached memory's id set takes the new
      // ids in place rather than being rebuilt on every batch that attests the memory.
      const previous = this.memories.get(memory.id)
      const ids = previous?.ids ?? new Set<string>()
      const before = ids.size
      for (const { id } of attestations) ids.add(id)
      for (const { stored: { id } } of anchors) ids.add(id)
      this.records += ids.size - before
      putRecent(this.memories, memory.id, { memory, attestations, anchors: anchors.map((a) => a.stored), requests, ids })
    }
    for (const [id, entry] of this.memories) {
      if (this.memories.size <= EVIDENCE_CACHE_MEMORIES && this.records <= EVIDENCE_CACHE_RECORDS) break
      this.memories.delete(id)
      this.records -= entry.ids.size
    }
  }

  clear (): void {
    this.memories.clear()
    this.records = 0
    this.storedTotal = -1
  }
}
