import { MAX_CLOCK_SKEW_MS, type AttestationRefusalCode, type RefusedAttestation } from '../schema/index.js'
import { instantOf, sortByTimeThenId, sortRefusals } from './evidence-order.js'
import type { AcceptedAttestation, AttestationEvidence, KeyIdentities, MemoryEvidence } from './types.js'

export interface CountedAttestations {
  accepted: AcceptedAttestation[]
  refused: RefusedAttestation[]
}

/** Without a keyring every key is its own identity and no key log refuses anything. */
const KEYS_ONLY: KeyIdentities = Object.freeze({ identityOf: (did: string) => did, named: () => false, refusalAt: () => undefined, introducedAt: () => undefined })

/**
 * The counting rules for witnesses (docs/trust.md §0: "only verified signatures count; the author never
 * witnesses itself; one vote per witness"), as a fixed pipeline: each attestation is refused by the
 * first rule it fails, then the survivors vote once per witness. A witness is an identity (docs/trust.md §1a):
 * two device keys of one identity are one vote, the author's own keys never witness, and a key its
 * log refuses at the attestation's time (rotated out, or revoked as compromised since before it)
 * counts for nothing, even when the attestation was stored before the revocation arrived.
 */
export function countAttestations (
  memory: MemoryEvidence, attestations: readonly AttestationEvidence[], now: number, identities: KeyIdentities = KEYS_ONLY
): CountedAttestations {
  const refused: RefusedAttestation[] = []
  const survivors: AcceptedAttestation[] = []
  const author = identities.identityOf(memory.record.author.agent_id)
  const dates = new MemoryDates(memory)
  for (const attestation of attestations) {
    const at = instantOf(attestation.record.witnessed_at, 'attestation', attestation.id)
    const refusal = firstRefusal(memory, attestation, at, now, dates) ?? identityRefusal(attestation, at, author, identities)
    if (refusal === null) survivors.push({ ...attestation, at })
    else refused.push(refuse(attestation, refusal.code, refusal.reason))
  }
  // Usually every survivor is a different witness: then each is its own newest vote, and the
  // accepted list is the survivors in time order, without grouping them.
  if (!repeatsIdentity(survivors, identities)) return { accepted: sortByTimeThenId(survivors), refused: sortRefusals(refused) }
  const accepted: AcceptedAttestation[] = []
  for (const votes of groupByWitness(survivors, identities).values()) {
    // One vote per witness, and a witness may change its verdict: its newest attestation counts
    // (docs/trust.md §5). Invalid attestations were refused above, so a forged or future-dated "newer"
    // attestation can never silence a witness's valid one.
    sortByTimeThenId(votes)
    const newest = votes[votes.length - 1]
    if (newest === undefined) continue
    accepted.push(newest)
    for (let i = 0; i < votes.length - 1; i++) refused.push(supersede(votes[i] as AcceptedAttestation, newest))
  }
  return { accepted: sortByTimeThenId(accepted), refused: sortRefusals(refused) }
}

/** The memory's created_at in ms, parsed when a rule first needs it (and only then, as before). */
class MemoryDates {
  private createdMs: number | undefined
  constructor (private readonly memory: MemoryEvidence) {}

  get created (): number {
    this.createdMs ??= instantOf(this.memory.record.created_at, 'memory', this.memory.id)
    return this.createdMs
  }
}

/** Whether two survivors vote as the same identity: pairwise for a few, through a set for many. */
function repeatsIdentity (survivors: readonly AcceptedAttestation[], identities: KeyIdentities): boolean {
  if (survivors.length < 2) return false
  if (survivors.length <= PAIRWISE_MAX) {
    for (let i = 1; i < survivors.length; i++) {
      const identity = identities.identityOf((survivors[i] as AcceptedAttestation).record.witness)
      for (let j = 0; j < i; j++) {
        if (identities.identityOf((survivors[j] as AcceptedAttestation).record.witness) === identity) return true
      }
    }
    return false
  }
  const seen = new Set<string>()
  for (const { record } of survivors) {
    const identity = identities.identityOf(record.witness)
    if (seen.has(identity)) return true
    seen.add(identity)
  }
  return false
}

/** @default 8 — up to this many survivors, repeated identities are looked for pair by pair. */
const PAIRWISE_MAX = 8

function firstRefusal (
  memory: MemoryEvidence, { id, record, signatureValid }: AttestationEvidence, at: number, now: number, dates: MemoryDates
): { code: AttestationRefusalCode, reason: string } | null {
  if (!signatureValid) {
    return { code: 'SIGNATURE_INVALID', reason: `the signature of ${record.witness} on attestation ${id} does not verify` }
  }
  if (record.memory !== memory.id) {
    return { code: 'WRONG_MEMORY', reason: `attestation ${id} is for memory ${record.memory}, not ${memory.id}` }
  }
  if (record.witness === memory.record.author.agent_id) {
    return {
      code: 'SELF_ATTESTATION',
      reason: `attestation ${id} is by the memory's own author ${record.witness}; an author never witnesses itself`
    }
  }
  // record-v1 R5: a record dated more than 15 minutes after the verifier's clock is refused.
  if (at > now + MAX_CLOCK_SKEW_MS) {
    return {
      code: 'TIMESTAMP_IN_FUTURE',
      reason: `attestation ${id} is dated ${record.witnessed_at}, more than 15 minutes after ${new Date(now).toISOString()}`
    }
  }
  // A witness cannot have seen a memory before it existed; the same 15 minutes allow for clock skew.
  if (at < dates.created - MAX_CLOCK_SKEW_MS) {
    return {
      code: 'BEFORE_MEMORY',
      reason: `attestation ${id} is dated ${record.witnessed_at}, more than 15 minutes before the memory was created (${memory.record.created_at})`
    }
  }
  return null
}

/** The rules that need the keyring: the witness's key could sign then, and is not the author's identity's. */
function identityRefusal (
  { id, record }: AttestationEvidence, at: number, author: string, identities: KeyIdentities
): { code: AttestationRefusalCode, reason: string } | null {
  const code = identities.named(record.witness) ? identities.refusalAt(record.witness, at) : undefined
  if (code !== undefined) {
    return {
      code: 'KEY_NOT_VALID',
      reason: `attestation ${id} is signed by ${record.witness}, which its key log refuses at ${record.witnessed_at} (${code})`
    }
  }
  const identity = identities.identityOf(record.witness)
  if (identity === author) {
    return {
      code: 'SELF_ATTESTATION',
      reason: `attestation ${id} is by ${record.witness}, a key of the memory's own author ${author}; an author never witnesses itself`
    }
  }
  return null
}

/** Survivors by the identity they vote as: one vote per identity, whichever of its keys signed. */
function groupByWitness (attestations: readonly AcceptedAttestation[], identities: KeyIdentities): Map<string, AcceptedAttestation[]> {
  const groups = new Map<string, AcceptedAttestation[]>()
  for (const attestation of attestations) {
    const identity = identities.identityOf(attestation.record.witness)
    const group = groups.get(identity)
    if (group === undefined) groups.set(identity, [attestation])
    else group.push(attestation)
  }
  return groups
}

function supersede (older: AcceptedAttestation, newest: AcceptedAttestation): RefusedAttestation {
  if (older.id === newest.id) {
    return {
      ...refuse(older, 'DUPLICATE_ATTESTATION', `attestation ${older.id} appears more than once; it counts once`),
      superseded_by: newest.id
    }
  }
  const who = older.record.witness === newest.record.witness ? older.record.witness : `the identity of ${older.record.witness} (through ${newest.record.witness})`
  const reason = `attestation ${older.id} is superseded: ${who} attested again in ${newest.id} ` +
    `(${newest.record.witnessed_at}, ${newest.record.attestation}); only a witness's newest attestation counts`
  return { ...refuse(older, 'SUPERSEDED_BY_NEWER', reason), superseded_by: newest.id }
}

function refuse ({ id, record }: AttestationEvidence, code: AttestationRefusalCode, reason: string): RefusedAttestation {
  return { id, witness: record.witness, code, reason }
}
