import type { TrustGraph } from './vote-graph.js'

/**
 * Breadth-first search from every root along endorsement and agreement edges: for each agent its predecessor on
 * a shortest path from some root (a root is its own parent; -1 where no path exists). `trust
 * explain` prints the path, so an operator sees why a witness has standing at all.
 */
export function shortestPathsFrom (graph: TrustGraph, roots: readonly number[]): Int32Array {
  const parents = new Int32Array(graph.agents.length).fill(-1)
  const queue = new Int32Array(graph.agents.length)
  let head = 0
  let tail = 0
  for (const r of roots) {
    if (parents[r] !== -1) continue
    parents[r] = r
    queue[tail++] = r
  }
  while (head < tail) {
    const u = queue[head++] as number
    for (let e = graph.offsets[u] as number; e < (graph.offsets[u + 1] as number); e++) {
      const v = graph.targets[e] as number
      if (parents[v] !== -1) continue
      parents[v] = u
      queue[tail++] = v
    }
    // Agreement edges (docs/trust.md §3): the other members of every claim u shares.
    const { claims } = graph
    for (let k = graph.agentClaimOffsets[u] as number; k < (graph.agentClaimOffsets[u + 1] as number); k++) {
      const c = graph.agentClaims[k] as number
      for (let m = claims.offsets[c] as number; m < (claims.offsets[c + 1] as number); m++) {
        const v = claims.members[m] as number
        if (parents[v] !== -1) continue
        parents[v] = u
        queue[tail++] = v
      }
    }
  }
  return parents
}
