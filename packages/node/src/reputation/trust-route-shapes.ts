import { z } from 'zod'
import { didKey, isoTimestamp } from '../schema/index.js'

/* Response shapes of the trust routes (src/http/routes). */

/** Where a root comes from: the node's own agents are roots without configuration; the operator adds the others. */
export const TRUST_ROOT_SOURCES = ['own-agent', 'added'] as const

export const TrustRootSchema = z.strictObject({ did: didKey, source: z.enum(TRUST_ROOT_SOURCES), added_at: isoTimestamp.optional() })

export const AgentReputationSchema = z.strictObject({
  did: didKey,
  /** In [0, 1]: 1 for a root, 0 for an agent no trust path reaches. */
  reputation: z.number().min(0).max(1),
  /** Stationary probability of the personalised walk (sums to 1 over all agents); 0 when unrooted. */
  rank: z.number().min(0).max(1),
  root: z.boolean(),
  /** Root first, then each endorsed agent, ending with `did`; null when no path exists (or no roots). */
  path: z.array(didKey).nullable(),
  /**
   * The debit (docs/trust.md §3): the standing of the agents that agreed with this agent's verdicts and
   * of those that contradicted them, and the factor A / (A + λ·X) applied. Absent for roots and when unrooted.
   */
  agreement: z.strictObject({ agreed: z.number().min(0), contradicted: z.number().min(0), factor: z.number().min(0).max(1) }).optional(),
  /** The walk's standing min(1, π / π_ref) before the debit and the evidence factor (docs/trust.md §3). */
  standing: z.number().min(0).max(1).optional(),
  /** The reputable evidence E behind the agent and the factor E / (E + k) its standing was multiplied by. */
  evidence: z.strictObject({ backing: z.number().min(0), factor: z.number().min(0).max(1) }).optional()
})

export type AgentReputation = z.infer<typeof AgentReputationSchema>

/**
 * One of the node's trust roots (docs/trust.md §2): one of its own agents (its keystore), or one the
 * operator added (src/node/trust/trust-roots-file.ts keeps those).
 */
export interface TrustRoot {
  did: string
  source: (typeof TRUST_ROOT_SOURCES)[number]
  /** When the operator (last) added it; absent for an own agent it never added. */
  added_at?: string
}
