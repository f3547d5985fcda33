/*
 * Which agents' evidence a node that holds part of the attestation graph should fetch (docs/trust.md
 * §3a, "Trust on partial knowledge"). A sharded node holds its home shards' records (protocols/
 * gossip-v1.md §11), so an agent outside them is judged on the few records that happen to touch its
 * shards. The agents whose reputation a score reads — the author and the witnesses of a memory it
 * explained — come first; then, when `rootRadius` is above 0, its trust roots and the agents near
 * them in the graph it holds. Pure: the caller says what it holds, what it asked for and when.
 */

/** The bounds of evidence fetching: how many agents, how often, how far from the roots. */
export const EVIDENCE_FETCH = {
  /** @default 32 — agents one round asks for (each an author interest of one sync run, sync-v1 §9). */
  maxAgentsPerRound: 32,
  /**
   * @default 0 — how near a root an agent must be for a round to fetch its evidence unasked: 0 none,
   * 1 the roots, 2 the roots and the agents their edges reach, and so on. 0 because the model engine
   * measured that fetching near the roots costs accuracy under today's reputation (docs/trust.md §3a):
   * at 3,000 agents the roots alone left 42.2 % of true memories Unverified instead of 30.4 %.
   */
  rootRadius: 0,
  /** @default 600_000 — an agent asked for is not asked again within this (its cursors resume then). */
  refreshMs: 600_000,
  /** @default 60_000 — how often a daemon runs a round (when something is missing). */
  intervalMs: 60_000,
  /** @default 1024 — agents whose fetch state a node keeps (least recently asked dropped first). */
  maxTracked: 1024
} as const

export interface EvidenceFetchLimits {
  maxAgentsPerRound: number
  rootRadius: number
  refreshMs: number
}

export interface EvidenceNeedInput {
  /** The node's trust roots (own agents and operator roots). */
  roots: readonly string[]
  /** Agents a score read, most wanted first: the authors and witnesses of memories scored lately. */
  scored: readonly string[]
  /** The agents an agent's edges reach in the graph the node holds (endorsements, acknowledgements). */
  neighbours: (did: string) => Iterable<string>
  /** Whether the node holds the agent's shard (a home shard): its evidence is then held already. */
  held: (did: string) => boolean
  /** When the node last asked for the agent's evidence (node clock, ms), if it did. */
  lastAsked: (did: string) => number | undefined
  now: number
}

/**
 * The agents whose evidence to ask for now, at most `maxAgentsPerRound`: the scored agents first, in
 * order; then, with `rootRadius` r > 0, the roots and the agents fewer than r steps from one, nearest
 * first (breadth first, in the order the graph gives them). An agent is left out when its shard is
 * held or it was asked within `refreshMs`. The walk from the roots goes through held agents as well:
 * they lead to agents that are not.
 */
export function evidenceAgentsNeeded (input: EvidenceNeedInput, limits: EvidenceFetchLimits = EVIDENCE_FETCH): string[] {
  const chosen: string[] = []
  const considered = new Set<string>()
  const consider = (did: string): boolean => {
    if (considered.has(did)) return chosen.length < limits.maxAgentsPerRound
    considered.add(did)
    if (!input.held(did) && !askedRecently(input, did, limits.refreshMs)) chosen.push(did)
    return chosen.length < limits.maxAgentsPerRound
  }
  for (const did of input.scored) if (!consider(did)) return chosen
  if (limits.rootRadius <= 0) return chosen
  let frontier = [...new Set(input.roots)]
  const reached = new Set(frontier)
  for (const did of frontier) if (!consider(did)) return chosen
  for (let hop = 1; hop < limits.rootRadius && frontier.length > 0; hop++) {
    const next: string[] = []
    for (const did of frontier) {
      for (const neighbour of input.neighbours(did)) {
        if (reached.has(neighbour)) continue
        reached.add(neighbour)
        next.push(neighbour)
        if (!consider(neighbour)) return chosen
      }
    }
    frontier = next
  }
  return chosen
}

function askedRecently (input: EvidenceNeedInput, did: string, refreshMs: number): boolean {
  const at = input.lastAsked(did)
  return at !== undefined && input.now - at < refreshMs
}
