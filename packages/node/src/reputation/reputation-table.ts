import type { DrawPaths, PopulationClaim } from '../draw/index.js'
import type { AgentReputation } from './trust-route-shapes.js'
import type { TrustGraph } from './vote-graph.js'

/** What computeReputation (reputation.ts) gives: every agent's reputation from the roots, and how it was reached. */
export interface ReputationTable {
  /** False when the node has no trust roots: every agent then has UNROOTED_REPUTATION. */
  rooted: boolean
  roots: readonly string[]
  damping: number
  iterations: number
  graph: TrustGraph
  rank: Float64Array
  /** π_ref: reputation is min(1, rank / reference) before the debit (Infinity when unrooted or nobody is reached). */
  reference: number
  /** The ReputationLookup src/trust's policies take. */
  lookup: (did: string) => number
  /**
   * Whether `from` vouches for `to` directly or through one other agent: an endorsement edge from → to
   * or from → x → to (it confirmed more of their memories than it disputed). src/trust does not count
   * a confirm by a witness its author vouches for so (a clique confirming itself is not independent).
   * Never true of a root `to` (inCircle): the node chose its roots, the author did not.
   */
  endorses: (from: string, to: string) => boolean
  describe: (did: string) => AgentReputation
  /**
   * A witness's confirm record with an author, for its confirm of one memory (an id): in [0, 1], 1
   * for a root, an unknown agent or no record (confirm-record.ts, docs/trust.md §5). A
   * reputation-weighted policy multiplies the confirm's weight by it.
   */
  confirmRecord: (witness: string, author: string, memory: string) => number
  /** The populations the counted attestations' draws state (witness-draw-v1 W6), by identity. */
  populationClaims: readonly PopulationClaim[]
  /** N̂ (witness-draw-v1 W6a, population.ts), once per table; `paths` read the stored proofs (all agree). */
  populationEstimate: (paths?: DrawPaths) => number
}
