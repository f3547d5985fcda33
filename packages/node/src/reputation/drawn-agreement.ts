import { acceptsPopulation, drawShardRefusal, shardEstimate } from '../draw/index.js'
import type { TrustGraph } from './vote-graph.js'
import type { MemberDraw } from './vote-set.js'

/**
 * Whose verdicts the debit weighs each claim member against (docs/trust.md §3, "drawn agreement"):
 * per claim member, 1 when it is a source. On a memory with a witness the draw selected (its draw
 * below size / population, at a population this node accepts against its graph's agents: W5, W6,
 * W12) the sources are its drawn witnesses and the roots: the author chose the others, and a circle
 * it asks agrees with itself at will. On a memory without one every voter is a source. `shardCount`:
 * see independentMembersOf.
 */
export function agreementSourcesOf (graph: TrustGraph, rootIndexes: readonly number[], shardCount?: number): Uint8Array {
  const independent = independentMembersOf(graph, rootIndexes, shardCount)
  const { offsets, memories } = graph.claims
  const sources = new Uint8Array(independent.length)
  const claimCount = offsets.length - 1
  let first = 0
  while (first < claimCount) {
    let last = first
    while (last + 1 < claimCount && memories[last + 1] === memories[first]) last++
    const from = offsets[first] as number
    const to = offsets[last + 1] as number
    let anyDrawn = false
    for (let k = from; k < to; k++) if (independent[k] === 2) anyDrawn = true
    for (let k = from; k < to; k++) sources[k] = !anyDrawn || independent[k] !== 0 ? 1 : 0
    first = last + 1
  }
  return sources
}

/**
 * Per claim member, whether the memory's author did not choose it: 2 when the draw selected it (a
 * draw below size / population, at a population this node accepts against its graph's agents: W5,
 * W6, W12), 1 when it is a root (the node chose it), else 0. A draw's stated shard count is judged
 * against `shardCount`, the count the node was set to, else the count of the graph's estimate.
 */
export function independentMembersOf (graph: TrustGraph, rootIndexes: readonly number[], shardCount?: number): Uint8Array {
  const { members, drawIndex, draws } = graph.claims
  const estimate = drawnEstimateOf(graph.agents.length, draws)
  const accepted = draws.map((draw) => draw.population === undefined || (
    drawShardRefusal(estimate, draw.shards, graph.agents[draw.witness] as string, graph.agents[draw.author] as string, shardCount) === undefined &&
    acceptsPopulation(draw.population, shardEstimate(estimate, draw.shards))))
  const isRoot = new Uint8Array(graph.agents.length)
  for (const r of rootIndexes) isRoot[r] = 1
  const independent = new Uint8Array(members.length)
  for (let k = 0; k < members.length; k++) {
    const d = drawIndex[k] as number
    independent[k] = d >= 0 && accepted[d] === true ? 2 : isRoot[members[k] as number] === 1 ? 1 : 0
  }
  return independent
}

/**
 * The population the graph judges its members' draws by: the graph's agents or the lower median of
 * the network sizes the draws state (population × shards), the larger. Unlike N̂ (src/draw
 * populationEstimate) it reads no reputation, which is what it helps compute; a draw that overstates
 * the network is one its own rule makes rarer (u < size / population).
 */
function drawnEstimateOf (agents: number, draws: readonly MemberDraw[]): number {
  const stated = draws.flatMap((d) => d.population === undefined ? [] : [d.population * (d.shards ?? 1)]).sort((a, b) => a - b)
  return Math.max(agents, stated.length === 0 ? 0 : stated[(stated.length - 1) >> 1] as number)
}
