import type {
  AnchorRecord, InsufficientTrust, AnchorVerification, AttestationRecord, MemoryRecord, PrivateCheckState, RefusedAnchor,
  RefusedAttestation, TrustContribution, TrustPolicyName, WitnessRequestRecord, WitnessSelection
} from '../schema/index.js'

/**
 * Signatures are checked outside this module (the node once when it stores a record, an offline
 * verifier from a bundle), so each piece of evidence comes with its verdict as a flag.
 */
export interface MemoryEvidence {
  /** The memory's CID string; attestations and anchors must reference it. Opaque here. */
  id: string
  record: MemoryRecord
  /** The author's signature over the memory verifies. */
  signatureValid: boolean
}

export interface AttestationEvidence {
  id: string
  record: AttestationRecord
  /** The witness's signature over the attestation verifies. */
  signatureValid: boolean
  /**
   * The fraction u in [0, 1) of the attestation's witness draw (`record.draw`), present only when
   * its proof verified under the witness's key for this memory (record-v1 R19; src/draw verifyDraw,
   * or the proof's hash for a record checked by R19 before it was stored). Absent: no draw counts,
   * whatever `record.draw` claims.
   */
  drawFraction?: number
}

export interface AnchorEvidence {
  id: string
  record: AnchorRecord
  /** The signature of `anchored_by` over the anchor verifies. */
  signatureValid: boolean
  /** What the anchor verifier found at `reference`; only `verified` counts. */
  verification: AnchorVerification
}

/**
 * A witness request for the memory (record-v1 §1.4), as evidence of who chose a witness: a confirm
 * by a witness the node itself asked (a private check) is one the author did not choose.
 */
export interface WitnessRequestEvidence {
  id: string
  record: WitnessRequestRecord
  /** The requester's signature over the request verifies. */
  signatureValid: boolean
}

/** Reputation of an agent in [0, 1], from the node's own trust roots (docs/trust.md §3). */
export type ReputationLookup = (agentId: string) => number

/** Why a key could not sign at an instant by its identity's key log (record-v1 K12). */
export type KeyRefusalCode = 'KEY_ROTATED' | 'KEY_REVOKED' | 'KEY_INACTIVE'

/**
 * Which identity a key signs for, and whether it could sign at a given time (a node's
 * Keyring, docs/trust.md §1a). Trust counts identities, not keys: two device keys of one identity are one witness, an
 * author's own keys never witness its memory, and a key revoked as compromised since T has what it
 * signed after T refused, even when it was stored before the revocation arrived.
 */
export interface KeyIdentities {
  /** The identity `did` signs for; `did` itself when no key log names it. */
  identityOf: (did: string) => string
  /** Whether a key log names `did` at all (only those need `refusalAt`). */
  named: (did: string) => boolean
  /** Why `did` could not sign at `at` (ms), or undefined when it could or no log names it. */
  refusalAt: (did: string, at: number) => KeyRefusalCode | undefined
  /**
   * When the key log introduced `did` (ms, by the key event's own `created_at`: record-v1 K12's
   * *from*): −Infinity for an inception key, a rotation's or a delegation's time for a key it
   * brought in; undefined when no log names it. A draw counts only by a key introduced before the
   * memory (protocols/witness-draw-v1.md W11).
   */
  introducedAt: (did: string) => number | undefined
}

export interface TrustInput {
  memory: MemoryEvidence
  attestations: readonly AttestationEvidence[]
  anchors: readonly AnchorEvidence[]
  /** @default every agent has DEFAULT_REPUTATION (0.5) */
  reputation?: ReputationLookup
  /** The computing node's clock, ms since the epoch: pure code takes time as input. */
  now: number
  /** @default every key is its own identity and no key log refuses anything */
  identities?: KeyIdentities
  /**
   * Whether `reputation` comes from trust roots (the node's own agents and the roots its operator
   * added). False: every agent has the default and a reputation-weighted policy has too little to
   * judge. @default true when `reputation` is given, false otherwise
   */
  rooted?: boolean
  /**
   * Whether agent `from` has endorsed agent `to` (confirmed a memory of `to`) in the node's
   * reputation graph. A reputation-weighted policy does not count a confirm whose witness the
   * author endorsed in turn: mutual vouching is not independent evidence (docs/trust.md §5).
   * @default nobody endorsed anybody
   */
  endorses?: (from: string, to: string) => boolean
  /**
   * A witness's confirm record with the memory's author, in [0, 1] (src/reputation confirm-record.ts):
   * what its confirms of the author's other memories met from the witnesses the author did not
   * choose. isnad-reputation multiplies a confirm's weight by it (docs/trust.md §5). @default 1
   */
  confirmRecord?: (witness: string, author: string, memory: string) => number
  /**
   * The memory's witness requests (record-v1 §1.4): who asked which witnesses, when. Only a policy
   * that tells the author's witnesses apart reads them (isnad-draw). @default none
   */
  requests?: readonly WitnessRequestEvidence[]
  /**
   * Whether a requester's witness requests are the node's own: its agents and its trust roots. A
   * confirm by a witness such a request addressed, given after it, is one the author did not choose
   * (src/trust/independent-witnesses.ts). @default nobody
   */
  ownRequesters?: (did: string) => boolean
  /**
   * N̂, the node's estimate of how many agents the witness draw chooses from: the distinct agent
   * identities of its reputation graph. A drawn attestation counts only when its claimed population
   * is at least N̂ / WITNESS_DRAW.populationSlack (src/trust/drawn-witnesses.ts). @default none: no
   * draw counts (a claim cannot be judged without an estimate)
   */
  populationEstimate?: number
  /**
   * The node's shard count when its operator set one (the daemon's `shard-count` setting): a draw's
   * stated count is judged against it (W12), as the node's own draw is made within it. A power of two
   * (src/shard isShardCount). @default shardCountFor(populationEstimate)
   */
  shardCount?: number
  /**
   * Whether this node made a private check of the memory (protocols/witness-draw-v1.md): `asked` a
   * witness of its own choosing, or `not-sampled` (its coin said no). For the explanation only; the
   * answer of a witness it asked counts through `requests`. @default unknown: not said
   */
  privateCheck?: PrivateCheckState
}

/** An attestation that passed every counting rule: at most one per witness. */
export interface AcceptedAttestation extends AttestationEvidence {
  /** `witnessed_at` in ms. */
  at: number
}

export interface AcceptedAnchor extends AnchorEvidence {
  /** `created_at` in ms. */
  at: number
}

/**
 * The evidence after the counting rules, the same for every policy: what a policy scores.
 * Accepted lists are sorted by time then id, refused lists by id, so input order never matters.
 */
export interface CountedEvidence {
  /** signatureValid is false when the author's key log refuses the key at created_at (authorKeyRefusal). */
  memory: MemoryEvidence
  /** Why the author's key could not sign at the memory's created_at by its key log (docs/trust.md §1a, record-v1 K12). */
  authorKeyRefusal?: KeyRefusalCode
  /** The author's `agent_id`. */
  author: string
  authorReputation: number
  attestations: readonly AcceptedAttestation[]
  anchors: readonly AcceptedAnchor[]
  refusedAttestations: readonly RefusedAttestation[]
  refusedAnchors: readonly RefusedAnchor[]
  /** For policies that weigh witnesses by reputation. */
  reputation: ReputationLookup
  /** See TrustInput.rooted. */
  rooted: boolean
  /** See TrustInput.endorses. */
  endorses: (from: string, to: string) => boolean
  /** See TrustInput.confirmRecord. */
  confirmRecord: (witness: string, author: string, memory: string) => number
  /** Whether an agent is one of the node's roots (TrustInput.ownRequesters: its agents and its trust roots). */
  isRoot: (did: string) => boolean
  /**
   * Ids of accepted attestations the witness draw selected for this memory at this node: a verified
   * draw whose fraction is below size / population, with a population this node accepts
   * (src/trust/drawn-witnesses.ts).
   */
  drawn: ReadonlySet<string>
  /** Why an accepted attestation's draw did not count, by id (a draw above the threshold, a population too low, an unverified proof). */
  drawRefusals: ReadonlyMap<string, string>
  /**
   * Ids of accepted attestations whose witness the node asked itself (a request by one of its own
   * agents or roots, addressed to that witness, made before the verdict: src/trust/independent-witnesses.ts).
   */
  asked: ReadonlySet<string>
  /** drawn ∪ asked: the witnesses the author did not choose. */
  independent: ReadonlySet<string>
  /** See TrustInput.populationEstimate. */
  populationEstimate?: number
  /** See TrustInput.privateCheck. */
  privateCheck?: PrivateCheckState
  now: number
}

/** What a policy says about one accepted attestation, shown in `counted.attestations`. */
export interface AttestationScoreNote {
  points?: number
  note?: string
}

export interface PolicyScore {
  /** Points rounded to 4 decimals; they sum to the unclamped score. */
  contributions: TrustContribution[]
  /** By attestation id; absent ids get neither points nor a note. */
  attestations: ReadonlyMap<string, AttestationScoreNote>
  /**
   * The confirms that count as witnesses for the evidence band (src/trust/level.ts): isnad-v0.1
   * counts every counted confirm, a reputation-weighted policy those whose witness carries weight.
   */
  countedConfirms: number
  /** Why the policy counted fewer confirms than were accepted, for the level's reason. */
  evidenceNote?: string
  /** Set when the policy has too little to judge; the level is then Unverified. */
  insufficient?: InsufficientTrust
  /** Who selected the witnesses, from a policy that tells them apart (TrustResult.witness_selection). */
  witnessSelection?: WitnessSelection
}

/** A trust policy: a named, pure scoring of counted evidence. A node picks one by setting its name. */
export interface TrustPolicy {
  readonly name: TrustPolicyName
  /** One line for `trust explain` and docs. */
  readonly description: string
  score: (evidence: CountedEvidence) => PolicyScore
}

export interface ComputeTrustOptions {
  /** A registered policy's name or a policy value. @default SCHEMA_TRUST_POLICY ('isnad-v0.1') */
  policy?: TrustPolicyName | TrustPolicy
}
