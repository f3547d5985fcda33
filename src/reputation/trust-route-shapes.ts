import { z } from 'zod'
import { didKey, isoTimestamp } from '../schema/index.js'

/** Response shapes of the trust routes (src/api/routes/trust.ts). */
export const TrustRootSchema = z.strictObject({ did: didKey, added_at: isoTimestamp })

export const AgentReputationSchema = z.strictObject({
  did: didKey,
  reputation: z.number().min(0).max(1),
  rank: z.number().min(0).max(1),
  root: z.boolean(),
  path: z.array(didKey).nullable()
})

/** One of the node's trust roots (DESIGN §2); src/node/trust-roots-file.ts keeps them. */
export interface TrustRoot {
  did: string
  /** When it was (last) added. */
  added_at: string
}
