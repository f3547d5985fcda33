import type {
  AnchorRecord, AnchorState, AnchorType, AnchorVerification, AttestationRecord, AttestationVerdict, MemoryRecord, SignedRecord,
  TrustLevel, TrustResult, ViewObject, ViewObjectType, Visibility
} from '../../schema/index.js'

/**
 * What the reducer is given (Memory Format Spec V3.1 §6). Plain data gathered by the caller: the
 * reducer reads no store, no clock and no network, so the same input always gives the same object.
 */

/** A stored memory: its CID and signed record (structurally the store's `StoredRecord<MemoryRecord>`). */
export interface ReducibleMemory {
  id: string
  signed: SignedRecord<MemoryRecord>
}

/** The memory's trust as the node computed it: `dispute_count` is the disputes the policy counted. */
export interface ViewTrust {
  score: number
  level: TrustLevel
  dispute_count: number
}

export interface EvidenceAttestation {
  id: string
  verdict: AttestationVerdict
  /** Read by nothing since the compact attachment (isnad-attach-v2): the attestation record holds it. */
  witness?: string
}

export interface EvidenceAnchor {
  id: string
  type: AnchorType
  reference: string
  hash: string
  state: AnchorState
}

export interface ViewEvidence {
  attestations: readonly EvidenceAttestation[]
  anchors: readonly EvidenceAnchor[]
}

/** Fields a caller may set outright; each replaces the derived value (the rest are facts of the memory). */
export type ViewHints = Partial<Pick<ViewObject,
'summary' | 'status' | 'horizon' | 'salience' | 'tags' | 'project' | 'review_at' | 'due_at' | 'decision_key' |
'why' | 'assumptions' | 'visibility'>>

export interface ReduceInput {
  memory: ReducibleMemory
  scope: string
  /** The event ids that produced this object (captured, attested, anchored …), at least one. */
  eventRefs: readonly string[]
  trust: ViewTrust
  evidence?: ViewEvidence
  /**
   * The object type of the memory named by `lineage.supersedes`, when the caller knows it (from that
   * memory's own reduction): a correction takes it, and `supersedes` is derived from it.
   */
  supersededType?: ViewObjectType
  /** CIDs of memories that supersede this one; any → status `superseded`. */
  supersededBy?: readonly string[]
  visibility?: Visibility
  hints?: ViewHints
}

/** The trust fields the reducer reads, from a full trust result. */
export function viewTrustOf (result: Pick<TrustResult, 'score' | 'level' | 'factors'>): ViewTrust {
  return { score: result.score, level: result.level, dispute_count: result.factors.dispute_count }
}

/** A memory's stored evidence as the node gathers it (structurally its `MemoryEvidence`). */
export interface StoredEvidence {
  attestations: ReadonlyArray<{ id: string, signed: SignedRecord<AttestationRecord> }>
  anchors: ReadonlyArray<{ stored: { id: string, signed: SignedRecord<AnchorRecord> }, verification: Pick<AnchorVerification, 'state'> }>
}

/** The fields the reducer reads from stored evidence: what a `show` view lists as witnesses and anchors. */
export function viewEvidenceOf ({ attestations, anchors }: StoredEvidence): ViewEvidence {
  return {
    attestations: attestations.map(({ id, signed: { record } }) => ({ id, verdict: record.attestation })),
    anchors: anchors.map(({ stored: { id, signed: { record } }, verification }) => ({
      id, type: record.type, reference: record.reference, hash: record.hash, state: verification.state
    }))
  }
}
