import type { AttestationRecord } from '../schema/index.js'
import type { Vote } from './graph.js'

/** An attestation from the store (its signature verified on the way in) with the memory's author. */
export interface StoredVote {
  id: string
  record: AttestationRecord
  /** The attested memory's author. */
  author: string
}

/**
 * The attestations that are edges of the reputation graph, by the counting rules of src/trust:
 * never the author's own, and one per (witness, memory), the newest (by witnessed_at, then id),
 * so a witness that changed its verdict counts with its latest word only.
 */
export function votesOf (attestations: Iterable<StoredVote>): Vote[] {
  const newest = new Map<string, StoredVote>()
  for (const a of attestations) {
    if (a.record.witness === a.author) continue
    const key = `${a.record.witness}\n${a.record.memory}`
    const previous = newest.get(key)
    if (previous === undefined || isNewer(a, previous)) newest.set(key, a)
  }
  return [...newest.values()].map((a) => ({ witness: a.record.witness, author: a.author, verdict: a.record.attestation }))
}

function isNewer (a: StoredVote, b: StoredVote): boolean {
  const at = Date.parse(a.record.witnessed_at)
  const bt = Date.parse(b.record.witnessed_at)
  return at > bt || (at === bt && a.id > b.id)
}
