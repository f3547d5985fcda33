import type { CID } from 'multiformats/cid'
import type { VerifiedCheckpoint } from '../merkle/index.js'
import type { VerifiedRecord } from '../record/index.js'

/** How a record reached this node; the node keeps it in the record's ledger event. */
export type AcceptSource = 'gossip' | 'fetch' | 'sync'

/** A page of the serving node's log (sync-v1 §3). */
export interface RecordPage {
  /** Canonical DAG-CBOR of each signed record, in the node's log order. */
  records: Uint8Array[]
  /** The cursor after the last record of the page: where the next page starts. */
  next: number
}

/**
 * What the network layer needs from the node it serves. The network verifies every
 * record it receives exactly once, before the host sees it: `accept` gets records that already
 * passed verifyRecordBytes (size, decode, schema, canonical form, signature, freshness), so the
 * host stores them without checking signatures again (a budget of 1.2 verifications per
 * message).
 */
export interface NetHost {
  /** For each id, whether the node already stores that record (gossip-v1 R5: duplicates are ignored). */
  has: (ids: readonly string[]) => Promise<boolean[]>
  /**
   * Stores verified records (the node journals them with `source`). Records of one call are in
   * dependency order when the network knows it (a memory before the attestation that points at it).
   * Duplicates may occur and must be tolerated.
   */
  accept: (records: readonly VerifiedRecord[], source: AcceptSource) => Promise<void>
  /**
   * Told after delivery of a gossiped attestation or anchor whose memory the node holds nowhere
   * (gossip-v1 R10), and of the peer that sent it: the node obtains the memory (Network.fetchMemory)
   * and ingests it, never inside validation. Optional: without it, such a memory comes by sync.
   */
  missingMemory?: (memoryId: string, from: string) => void
  /** The canonical bytes of a stored signed record, or null (fetch-v1 §3). */
  get: (id: string) => Promise<Uint8Array | null>
  /**
   * At most `limit` records at log positions ≥ `cursor`, in the node's log order, and the cursor
   * after them (sync-v1 §3). Cursors are positions in this node's own log, opaque to its peers.
   */
  recordsSince: (cursor: number, limit: number) => Promise<RecordPage>
  /**
   * The author of a stored memory, or null (gossip-v1 "Shards": an attestation or anchor travels on
   * the shard of its memory's author). Optional: without it, attestations and anchors are published
   * on this node's first shard and accepted on any.
   */
  memoryAuthor?: (memoryId: string) => Promise<string | null>
  /**
   * The tags the node follows: asked of peers by sync by interest (sync-v1 §9). Optional: without
   * it, a node asks for its shards and the authors they left out.
   */
  followedTags?: () => Promise<string[]>
  /**
   * The canonical bytes of the attestations, anchors and witness requests of a memory this node
   * stores, at most `limit` of them (fetch-v1 §9). Optional: without it, evidence requests are
   * answered with nothing.
   */
  memoryEvidence?: (memoryId: string, limit: number) => Promise<Uint8Array[]>
  /**
   * The agents whose evidence the node's reputation needs and its shards do not hold (docs/trust.md
   * §3a): asked of peers as author interests beside the follows (sync-v1 §9). Optional.
   */
  evidenceAuthors?: () => Promise<string[]>
  /** The cursor saved for a peer's log (sync-v1 §4), or null before the first sync with it. */
  loadCursor: (peerId: string) => Promise<number | null>
  saveCursor: (peerId: string, cursor: number) => Promise<void>
  /**
   * A verified checkpoint gossiped by a peer (gossip-v1 §5): the node keeps it and compares it
   * with others of the same log (equivocation evidence, transparency-v1 §6). Optional: without it,
   * checkpoints are validated and relayed but not kept.
   */
  acceptCheckpoint?: (checkpoint: VerifiedCheckpoint, from: string) => Promise<void>
  /**
   * A block of anchored content this node holds (fetch-v1 §8), or null. Optional: without it, block
   * requests are answered with nothing.
   */
  getBlock?: (cid: CID) => Promise<Uint8Array | null>
}
