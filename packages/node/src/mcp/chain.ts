import { TrustResultSchema, type MemoryView, type TrustLevel, type TrustResult } from '../schema/index.js'
import { EVIDENCE_NOTICE, type NodeVia } from './evidence-envelope.js'

/*
 * A memory's isnad chain as an agent reads it (`isnad://memory/{id}/chain`): who signed the claim,
 * who witnessed it and with what verdict, which outside evidence anchors it, and for each link
 * whether this node's trust computation counted it, or refused it and why. The links and verdicts
 * come from the memory view (record-v1 §7), the counting from the view's trust result
 * (docs/trust.md §6), so the chain says nothing the node's explanation does not.
 */

export const CHAIN_KIND = 'isnad-chain'

/** Whether the node's trust computation used a link: counted (with its note), refused (with the code), or unknown. */
export type LinkCount = { counted: true, note?: string } | { counted: false, refused: { code: string, reason: string } } | { counted: null }

export type WitnessLink = {
  id: string
  did: string
  verdict: 'confirm' | 'dispute' | 'partial'
  witnessed_at: string
  notes?: string
  claims?: string[]
  /** The witness says the draw chose it (record-v1 R19); whether the node accepted the draw is in `trust.witness_selection` of explain_trust. */
  drawn?: true
} & LinkCount

export type AnchorLink = {
  id: string
  type: string
  reference: string
  anchored_by: string
  /** This node's check of the anchored content (anchors-v1 §5). */
  state: string
  state_reason?: string
} & LinkCount

export interface MemoryChain {
  kind: typeof CHAIN_KIND
  notice: string
  id: string
  trust: { score: number, level: TrustLevel, reason?: string } | null
  author: { did: string, platform?: string, handle?: string, created_at: string }
  witnesses: WitnessLink[]
  anchors: AnchorLink[]
  lineage: { supersedes: string | null, superseded_by: string | null, derived_from: string[] }
  via: NodeVia
}

function countOf (id: string, counted: ReadonlyMap<string, string | undefined>, refused: ReadonlyMap<string, { code: string, reason: string }>, known: boolean): LinkCount {
  if (!known) return { counted: null }
  if (counted.has(id)) {
    const note = counted.get(id)
    return note === undefined ? { counted: true } : { counted: true, note }
  }
  const why = refused.get(id)
  // Listed in the view yet in neither list: the computation did not reach it (it arrived after `computed_at`).
  return why === undefined ? { counted: null } : { counted: false, refused: why }
}

function levelReasonOf (trust: TrustResult): string | undefined {
  return trust.insufficient?.reason ?? trust.level_basis?.reason
}

export function chainOfView (view: MemoryView, via: NodeVia): MemoryChain {
  const parsed = TrustResultSchema.safeParse(view.trust)
  const trust = parsed.success ? parsed.data : undefined
  const known = trust !== undefined
  const countedWitnesses = new Map(trust?.counted.attestations.map((a) => [a.id, a.note]) ?? [])
  const refusedWitnesses = new Map(trust?.refused.attestations.map((a) => [a.id, { code: a.code, reason: a.reason }]) ?? [])
  const countedAnchors = new Map<string, string | undefined>(trust?.counted.anchors.map((a) => [a.id, undefined]) ?? [])
  const refusedAnchors = new Map(trust?.refused.anchors.map((a) => [a.id, { code: a.code, reason: a.reason }]) ?? [])
  const { agent_id: did, platform, handle } = view.provenance.author
  const reason = trust === undefined ? undefined : levelReasonOf(trust)
  return {
    kind: CHAIN_KIND,
    notice: EVIDENCE_NOTICE,
    id: view.id,
    trust: trust === undefined ? null : { score: trust.score, level: trust.level, ...(reason === undefined ? {} : { reason }) },
    author: { did, ...(platform === undefined ? {} : { platform }), ...(handle === undefined ? {} : { handle }), created_at: view.provenance.created_at },
    witnesses: view.witnesses.map((w) => ({
      id: w.id,
      did: w.agent_id,
      verdict: w.attestation,
      witnessed_at: w.witnessed_at,
      ...(w.notes === undefined ? {} : { notes: w.notes }),
      ...(w.claims === undefined ? {} : { claims: w.claims }),
      ...(w.draw === undefined ? {} : { drawn: true as const }),
      ...countOf(w.id, countedWitnesses, refusedWitnesses, known)
    })),
    anchors: view.anchors.map((a) => ({
      id: a.id,
      type: a.type,
      reference: a.reference,
      anchored_by: a.anchored_by,
      state: a.verification.state,
      ...(a.verification.reason === undefined ? {} : { state_reason: a.verification.reason }),
      ...countOf(a.id, countedAnchors, refusedAnchors, known)
    })),
    lineage: { supersedes: view.lineage.supersedes, superseded_by: view.lineage.superseded_by, derived_from: view.lineage.derived_from },
    via
  }
}
