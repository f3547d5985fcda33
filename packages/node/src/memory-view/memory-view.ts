import type {
  AnchorRecord, AnchorVerification, AttestationRecord, MemoryRecord, MemoryView, SignedRecord
} from '../schema/index.js'

export interface ViewInput {
  memory: { id: string, signed: SignedRecord<MemoryRecord> }
  attestations: Array<{ id: string, signed: SignedRecord<AttestationRecord> }>
  anchors: Array<{ id: string, signed: SignedRecord<AnchorRecord>, verification: AnchorVerification }>
  /** The newest known successor (lineage.superseded_by), decided by the caller. */
  supersededBy: string | null
  /** Hops back along lineage.supersedes through memories the caller knows. */
  chainDepth: number
  trust: unknown
}

/**
 * The memory view in the provenance schema's JSON shape (record-v1 §7). Pure: every field
 * comes from the input, so the same evidence always prints the same view.
 */
export function buildMemoryView (input: ViewInput): MemoryView {
  const { record, signature } = input.memory.signed
  return {
    id: input.memory.id,
    version: record.version,
    content: record.content,
    provenance: {
      author: { ...record.author, signature },
      created_at: record.created_at,
      context: record.context
    },
    witnesses: input.attestations.map(({ id, signed }) => ({
      id,
      agent_id: signed.record.witness,
      witnessed_at: signed.record.witnessed_at,
      attestation: signed.record.attestation,
      signature: signed.signature,
      ...(signed.record.notes === undefined ? {} : { notes: signed.record.notes }),
      ...(signed.record.claims === undefined ? {} : { claims: signed.record.claims }),
      ...(signed.record.draw === undefined ? {} : { draw: signed.record.draw })
    })),
    anchors: input.anchors.map(({ id, signed, verification }) => ({
      id,
      type: signed.record.type,
      reference: signed.record.reference,
      created_at: signed.record.created_at,
      hash: signed.record.hash,
      anchored_by: signed.record.anchored_by,
      signature: signed.signature,
      verification
    })),
    lineage: {
      supersedes: record.lineage.supersedes ?? null,
      superseded_by: input.supersededBy,
      derived_from: record.lineage.derived_from,
      chain_depth: input.chainDepth
    },
    trust: input.trust
  }
}

export interface RecordsOfView {
  memory: SignedRecord<MemoryRecord>
  attestations: Array<SignedRecord<AttestationRecord>>
  anchors: Array<SignedRecord<AnchorRecord>>
  /** The id the view claims for its memory; the caller compares it with the recomputed CID. */
  claimedIds: { memory: string, attestations: string[], anchors: string[] }
}

/**
 * Rebuilds the signed records a view was printed from (record-v1 §7), so a verifier can check every
 * signature and id with nothing but the view. Fields a view adds (id, verification, trust, lineage's
 * derived parts) are not part of any record.
 */
export function recordsFromView (view: MemoryView): RecordsOfView {
  const { signature, ...author } = view.provenance.author
  const memory: MemoryRecord = {
    kind: 'memory',
    version: view.version,
    content: view.content,
    author,
    created_at: view.provenance.created_at,
    context: view.provenance.context,
    lineage: {
      ...(view.lineage.supersedes === null ? {} : { supersedes: view.lineage.supersedes }),
      derived_from: view.lineage.derived_from
    }
  }
  return {
    memory: { record: memory, signature },
    attestations: view.witnesses.map((w) => ({
      record: {
        kind: 'attestation' as const,
        version: 1 as const,
        memory: view.id,
        witness: w.agent_id,
        attestation: w.attestation,
        witnessed_at: w.witnessed_at,
        ...(w.notes === undefined ? {} : { notes: w.notes }),
        ...(w.claims === undefined ? {} : { claims: w.claims }),
        ...(w.draw === undefined ? {} : { draw: w.draw })
      },
      signature: w.signature
    })),
    anchors: view.anchors.map((a) => ({
      record: {
        kind: 'anchor' as const,
        version: 1 as const,
        memory: view.id,
        type: a.type,
        reference: a.reference,
        hash: a.hash,
        created_at: a.created_at,
        anchored_by: a.anchored_by
      },
      signature: a.signature
    })),
    claimedIds: {
      memory: view.id,
      attestations: view.witnesses.map((w) => w.id),
      anchors: view.anchors.map((a) => a.id)
    }
  }
}
