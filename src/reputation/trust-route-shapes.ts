import { z } from 'zod'
import { didKey, isoTimestamp } from '../schema/index.js'

/** Response shapes of the trust routes (src/api/routes/trust.ts). */
export const TrustRootSchema = z.strictObject({ did: didKey, added_at: isoTimestamp })

export const AgentReputationSchema = z.strictObject({
  did: didKey,
  reputation: z.number().min(0).max(1),
  rank: z.number().min(0).max(1),
  root: z.boolean(),
  path: z.array(didKey).nullable(),
  /** The debit (docs/trust.md §3): standing of the agents that agreed and contradicted, and the factor applied. */
  agreement: z.strictObject({ agreed: z.number().min(0), contradicted: z.number().min(0), factor: z.number().min(0).max(1) }).optional()
})

/** One of the node's trust roots (docs/trust.md §2); src/node/trust-roots-file.ts keeps them. */
export interface TrustRoot {
  did: string
  /** When it was (last) added. */
  added_at: string
}
