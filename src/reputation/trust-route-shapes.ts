import { z } from 'zod'
import { didKey, isoTimestamp } from '../schema/index.js'

/** Response shapes of the trust routes (src/api/routes/trust.ts). */
/** Where a root comes from: the node's own agents are roots without configuration; the operator adds the others. */
export const TRUST_ROOT_SOURCES = ['own-agent', 'added'] as const

export const TrustRootSchema = z.strictObject({ did: didKey, source: z.enum(TRUST_ROOT_SOURCES), added_at: isoTimestamp.optional() })

export const AgentReputationSchema = z.strictObject({
  did: didKey,
  reputation: z.number().min(0).max(1),
  rank: z.number().min(0).max(1),
  root: z.boolean(),
  path: z.array(didKey).nullable(),
  /** The debit (docs/trust.md §3): standing of the agents that agreed and contradicted, and the factor applied. */
  agreement: z.strictObject({ agreed: z.number().min(0), contradicted: z.number().min(0), factor: z.number().min(0).max(1) }).optional(),
  /** The walk's standing min(1, π / π_ref) before the debit and the evidence factor (docs/trust.md §3). */
  standing: z.number().min(0).max(1).optional(),
  /** The reputable evidence E behind the agent and the factor E / (E + k) its standing was multiplied by. */
  evidence: z.strictObject({ backing: z.number().min(0), factor: z.number().min(0).max(1) }).optional()
})

/**
 * One of the node's trust roots (docs/trust.md §2): one of its own agents (its keystore), or one the
 * operator added (src/node/trust-roots-file.ts keeps those).
 */
export interface TrustRoot {
  did: string
  source: (typeof TRUST_ROOT_SOURCES)[number]
  /** When the operator (last) added it; absent for an own agent it never added. */
  added_at?: string
}
