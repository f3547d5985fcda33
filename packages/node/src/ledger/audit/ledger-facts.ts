import type { VerifiedCidAnchor } from './blockstore-audit.js'
import { INDEX_SAMPLE_RECENT, INDEX_SAMPLE_SIZE } from './constants.js'

/**
 * What the audit learns about the node scope's records as it reads them once, handed to the node's
 * index check so the index is compared with the ledger without reading it again:
 * how many distinct records of each kind, the Merkle log they make, the highest lc, every id (is an
 * index entry in the ledger?) and a sample of records spread over the whole ledger plus the newest
 * (are they in the index, byte for byte?).
 */

export interface SampledRecord {
  id: string
  /** The signed record as the event carries it (JSON). */
  record: unknown
}

export interface LedgerFacts {
  scope: string
  /** Distinct records per event type family: memory, attestation, anchor, witness_request. */
  counts: Readonly<Record<string, number>>
  /** The Merkle log rebuilt from the record events (RFC 6962 root, hex). */
  log: { size: number, root: string }
  /** The highest lc of the scope's events (0 for none). */
  lastLc: number
  ids: ReadonlySet<string>
  sample: readonly SampledRecord[]
}

/** The record kind each record event type carries (record-check.ts checks the record agrees). */
const KIND_OF_TYPE: Readonly<Record<string, string>> = {
  'memory.captured': 'memory',
  'memory.distilled': 'memory',
  'memory.attested': 'attestation',
  'memory.anchored': 'anchor',
  'memory.witness_requested': 'witness_request'
}
// A packed record is given with its own kind (memory, attestation, anchor, witness_request), kept as it is.

/**
 * Collects facts while events stream past. The spread sample is deterministic: every `stride`-th
 * new record, the stride doubling (and every other kept one dropped) whenever the sample is full,
 * so it covers the whole ledger evenly in bounded memory; the newest records are kept apart.
 */
export class LedgerFactsCollector {
  private readonly counts: Record<string, number> = {}
  private readonly ids = new Set<string>()
  private spread: SampledRecord[] = []
  private recent: SampledRecord[] = []
  private stride = 1
  private lastLc = 0
  /** The last state checked of each cid anchor (anchor id → root CID, or undefined when not verified). */
  private readonly cidAnchors = new Map<string, string | undefined>()

  constructor (readonly scope: string) {}

  event (lc: number): void {
    if (lc > this.lastLc) this.lastLc = lc
  }

  record (type: string, id: string, record: unknown): void {
    if (this.ids.has(id)) return
    this.ids.add(id)
    const kind = KIND_OF_TYPE[type] ?? type
    this.counts[kind] = (this.counts[kind] ?? 0) + 1
    const entry = { id, record }
    if ((this.ids.size - 1) % this.stride === 0) {
      this.spread.push(entry)
      if (this.spread.length > INDEX_SAMPLE_SIZE) {
        this.spread = this.spread.filter((_, i) => i % 2 === 0)
        this.stride *= 2
      }
    }
    this.recent.push(entry)
    if (this.recent.length > INDEX_SAMPLE_RECENT) this.recent.shift()
  }

  /** A memory.anchor_checked event of the node scope (anchors-v1 §6), in lc order: the last one counts. */
  anchorChecked (payload: Readonly<Record<string, unknown>>): void {
    const { anchor, type, reference, state } = payload
    if (type !== 'cid' || typeof anchor !== 'string' || typeof reference !== 'string') return
    this.cidAnchors.set(anchor, state === 'verified' ? reference : undefined)
  }

  /** The cid anchors whose last check said verified: the blockstore must hold their DAGs. */
  verifiedCidAnchors (): VerifiedCidAnchor[] {
    return [...this.cidAnchors].flatMap(([anchor, reference]) => reference === undefined ? [] : [{ anchor, reference }])
  }

  build (log: { size: number, root: string }): LedgerFacts {
    const sample = new Map<string, SampledRecord>()
    for (const entry of [...this.spread, ...this.recent]) sample.set(entry.id, entry)
    return { scope: this.scope, counts: { ...this.counts }, log, lastLc: this.lastLc, ids: this.ids, sample: [...sample.values()] }
  }
}
