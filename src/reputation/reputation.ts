import { DEFAULT_DAMPING, UNROOTED_REPUTATION } from './constants.js'
import { buildTrustGraph, type TrustGraph, type VoteGroup } from './vote-graph.js'
import { VoteSet } from './vote-set.js'
import { personalizedPageRank, type PageRankOptions } from './pagerank.js'
import { shortestPathsFrom } from './shortest-paths.js'

/** What the node knows about one agent's standing, for `get_reputation` and `trust explain`. */
export interface AgentReputation {
  did: string
  /** In [0, 1]: 1 for a root, 0 for an agent no trust path reaches. */
  reputation: number
  /** Stationary probability of the personalised walk (sums to 1 over all agents); 0 when unrooted. */
  rank: number
  root: boolean
  /** Root first, then each endorsed agent, ending with `did`; null when no path exists (or no roots). */
  path: string[] | null
}

export interface ReputationTable {
  /** False when the node has no trust roots: every agent then has UNROOTED_REPUTATION. */
  rooted: boolean
  roots: readonly string[]
  damping: number
  iterations: number
  graph: TrustGraph
  rank: Float64Array
  /** The ReputationLookup src/trust's policies take. */
  lookup: (did: string) => number
  describe: (did: string) => AgentReputation
}

/**
 * Reputation in [0, 1] from the rank: `min(1, π·|R| / (1 − d))`. A root's own teleport share is at
 * least (1 − d)/|R|, so every root scores 1, and an agent collecting as much of the walk as a root is
 * given by teleport alone is fully trusted. The map is linear below 1, which is what makes the Sybil
 * bound of docs/trust.md carry over from ranks to reputations (Lipschitz constant |R| / (1 − d)).
 */
export function reputationOfRank (rank: number, rootCount: number, damping: number): number {
  return Math.min(1, (rank * rootCount) / (1 - damping))
}

/**
 * Every agent's reputation from the roots over the graph of votes (DESIGN §2). Pure; the votes are
 * the counted attestations (one per witness and memory, signatures verified) the caller gathered.
 */
export function computeReputation (
  votes: VoteSet | Iterable<VoteGroup>, roots: readonly string[], options: PageRankOptions = {}
): ReputationTable {
  // With a key resolver the graph's nodes are identities: a root key, a witness key and a lookup by
  // a device key all mean the identity they sign for.
  const identityOf = votes instanceof VoteSet ? (did: string) => votes.identityOf(did) : (did: string) => did
  const uniqueRoots = [...new Set(roots.map(identityOf))].sort()
  const graph = buildTrustGraph(votes, uniqueRoots)
  const damping = options.damping ?? DEFAULT_DAMPING
  if (uniqueRoots.length === 0) {
    return {
      rooted: false,
      roots: [],
      damping,
      iterations: 0,
      graph,
      rank: new Float64Array(graph.agents.length),
      lookup: () => UNROOTED_REPUTATION,
      describe: (did) => ({ did, reputation: UNROOTED_REPUTATION, rank: 0, root: false, path: null })
    }
  }
  const rootIndexes = uniqueRoots.map((did) => graph.index.get(did) as number)
  const { rank, iterations } = personalizedPageRank(graph, rootIndexes, { ...options, damping })
  const rootSet = new Set(uniqueRoots)
  let parents: Int32Array | undefined
  const lookup = (key: string): number => {
    const did = identityOf(key)
    if (rootSet.has(did)) return 1
    const i = graph.index.get(did)
    return i === undefined ? 0 : reputationOfRank(rank[i] as number, uniqueRoots.length, damping)
  }
  return {
    rooted: true,
    roots: uniqueRoots,
    damping,
    iterations,
    graph,
    rank,
    lookup,
    describe (did) {
      const i = graph.index.get(identityOf(did))
      parents ??= shortestPathsFrom(graph, rootIndexes)
      return {
        did,
        reputation: lookup(did),
        rank: i === undefined ? 0 : rank[i] as number,
        root: rootSet.has(identityOf(did)),
        path: i === undefined ? null : pathTo(graph, parents, i)
      }
    }
  }
}

function pathTo (graph: TrustGraph, parents: Int32Array, target: number): string[] | null {
  if (parents[target] === -1) return null
  const path: string[] = []
  for (let i = target; ; i = parents[i] as number) {
    path.push(graph.agents[i] as string)
    if (parents[i] === i) break
  }
  return path.reverse()
}
