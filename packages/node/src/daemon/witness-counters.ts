import type { BudgetRefusal } from './witness-budget.js'

/**
 * What a daemon's witness service did since it started (GET /v1/network/stats `witness`): the
 * counts a simulator or an operator sums over nodes to get the network's cost per memory
 * (protocols/gossip-v1.md §"What one memory costs").
 */
export interface WitnessCounters {
  /** Memories received from the network whose draw this node evaluated for its agents. */
  memories: number
  /** Memories at least one of this node's agents was drawn for and took on (within the budget). */
  drawn: number
  /** Memories (drawn, or asked about by a stranger) the witness budget skipped, by which limit. */
  skipped: Record<BudgetRefusal, number>
  /** Witness requests this node's agents signed (their own memories' and private checks). */
  requests: number
  /** Attestations this node's agents signed; `drawn_attestations` of them carry a draw. */
  attestations: number
  drawn_attestations: number
  /**
   * Private checks: memories with no accepted drawn answer when their delay passed (`due`), those
   * this node asked a witness about, and checks that failed (an error before the request was stored).
   */
  private_checks: { due: number, asked: number, failed: number }
}

export function createWitnessCounters (): WitnessCounters {
  return { memories: 0, drawn: 0, skipped: { 'per-author': 0, 'per-minute': 0 }, requests: 0, attestations: 0, drawn_attestations: 0, private_checks: { due: 0, asked: 0, failed: 0 } }
}
