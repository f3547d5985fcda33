import { z } from 'zod'
import { didKey, isoTimestamp } from './primitives.js'

/** Whether a node holds the evidence an agent's reputation needs (docs/trust.md §3a). */
export const EVIDENCE_STATES = ['missing', 'fetching', 'fetched'] as const
export type EvidenceState = (typeof EVIDENCE_STATES)[number]

/**
 * An agent a score read (the author, a witness) whose shard the computing node does not hold: its
 * reputation comes from the `held` records that touch it (attestations it gave or its memories got),
 * `missing` until the node asks for its evidence, `fetching` while it does, `fetched` once a fetch ran.
 */
export const AgentEvidenceSchema = z.strictObject({
  agent: didKey,
  held: z.number().int().min(0),
  state: z.enum(EVIDENCE_STATES),
  /** When the last fetch ended, and how many records it brought (state `fetched`). */
  fetched_at: isoTimestamp.optional(),
  fetched: z.number().int().min(0).optional()
})

export type AgentEvidence = z.infer<typeof AgentEvidenceSchema>
