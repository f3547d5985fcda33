import type { SignatureVerifier } from '../identity/index.js'
import type { AttestationVerdict, ContentType, MemoryView } from '../schema/index.js'
import type { RecordStore } from '../record-index/index.js'
import type { NodeAnchorOptions } from './anchors/anchors.js'

/* What LocalNode is opened with, what its write operations take, and what attest and addAnchor answer (split out of local-node.ts). */

/** A loaded agent key: who signs, and the seed to sign with. Obtained from the keystore. */
export interface Signer {
  did: string
  secretKey: Uint8Array
}

export interface RememberInput {
  type: ContentType
  summary: string
  /** @default the summary */
  body?: string
  tags?: string[]
  confidence?: number
  trigger?: string
  sessionId?: string
  platform?: string
  handle?: string
  supersedes?: string
  derivedFrom?: string[]
}

export interface AttestInput {
  memory: string
  verdict: AttestationVerdict
  notes?: string
  claims?: string[]
}

/** What attest answers on every surface (AttestResultSchema): the new attestation's id and the memory's new view. */
export interface AttestResult {
  attestation: string
  memory: MemoryView
}

/** What addAnchor answers on every surface: the new anchor's id and the memory's new view. */
export interface AnchorResult {
  anchor: string
  memory: MemoryView
}

export interface OpenLocalNodeOptions {
  home: string
  /** @default nodeCryptoVerifier */
  verifier?: SignatureVerifier
  /** Milliseconds since the epoch; tests pass a fixed clock. @default Date.now */
  clock?: () => number
  /** Open a store other than the home's LevelDB (tests use the in-memory store). */
  store?: RecordStore
  /**
   * `write` takes the data directory's single-writer lock and journals every change through the
   * ledger; `read` only opens the index. @default 'write'
   */
  mode?: 'read' | 'write'
  /** The ledger scope this node writes (spec §4). @default DEFAULT_SCOPE */
  scope?: string
  /** How anchors are checked (git repositories, blockchain verifiers, limits, TTL). */
  anchors?: NodeAnchorOptions
  /**
   * The shard count the node's operator set (`isnad start --shard-count`, the `shard-count`
   * setting): its trust judges drawn witnesses' stated counts against it (witness-draw-v1 W12;
   * NodeTrustInit.shardCount), and a rebuild of an outdated index on open scores with it.
   * @default from N̂ (shardCountFor)
   */
  shardCount?: number
}

/** @default 0.8 — the confidence of a memory whose author gives none. */
export const DEFAULT_CONFIDENCE = 0.8
