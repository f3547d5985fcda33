import type { AttestationRecord } from '../schema/index.js'
import type { VoteGroup } from './graph.js'

/** A stored attestation (its signature verified on the way in) with its id. */
export interface StoredAttestation {
  id: string
  record: AttestationRecord
}

/** One memory's author and every attestation of the memory the node stores. */
export interface MemoryAttestations {
  author: string
  attestations: readonly StoredAttestation[]
}

/**
 * The attestations that are edges of the reputation graph, by the counting rules of src/trust:
 * never the author's own, and one per (witness, memory), the newest (by witnessed_at, then id), so
 * a witness that changed its verdict counts with its latest word only. Grouped by memory, the way
 * the store hands them out, so deduplication is local to each memory: no global map of
 * (witness, memory) pairs (1M attestations: bench/reputation.ts).
 */
export function votesOf (memories: Iterable<MemoryAttestations>): VoteGroup[] {
  const groups: VoteGroup[] = []
  for (const { author, attestations } of memories) {
    if (attestations.length === 0) continue
    let chosen = attestations.some((a) => a.record.witness === author) ? attestations.filter((a) => a.record.witness !== author) : attestations
    if (hasRepeatedWitness(chosen)) {
      const newest = new Map<string, StoredAttestation>()
      for (const a of chosen) {
        const previous = newest.get(a.record.witness)
        if (previous === undefined || isNewer(a, previous)) newest.set(a.record.witness, a)
      }
      chosen = [...newest.values()]
    }
    if (chosen.length === 0) continue
    const votes = new Array<{ witness: string, verdict: StoredAttestation['record']['attestation'] }>(chosen.length)
    for (let i = 0; i < chosen.length; i++) {
      const { record } = chosen[i] as StoredAttestation
      votes[i] = { witness: record.witness, verdict: record.attestation }
    }
    groups.push({ author, votes })
  }
  return groups
}

/** @default 16 — below this many attestations a memory is checked pairwise: cheaper than hashing. */
const PAIRWISE_LIMIT = 16

function hasRepeatedWitness (attestations: readonly StoredAttestation[]): boolean {
  const n = attestations.length
  if (n > PAIRWISE_LIMIT) return new Set(attestations.map((a) => a.record.witness)).size < n
  for (let i = 1; i < n; i++) {
    const witness = (attestations[i] as StoredAttestation).record.witness
    for (let j = 0; j < i; j++) if ((attestations[j] as StoredAttestation).record.witness === witness) return true
  }
  return false
}

function isNewer (a: StoredAttestation, b: StoredAttestation): boolean {
  const at = Date.parse(a.record.witnessed_at)
  const bt = Date.parse(b.record.witnessed_at)
  return at > bt || (at === bt && a.id > b.id)
}
