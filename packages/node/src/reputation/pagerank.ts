import { IsnadError } from '../errors/index.js'
import { AGREEMENT_WEIGHT, DEFAULT_DAMPING, DEFAULT_MAX_ITERATIONS, DEFAULT_TOLERANCE } from './constants.js'
import type { TrustGraph } from './vote-graph.js'

export interface PageRankOptions {
  /** @default DEFAULT_DAMPING */
  damping?: number
  /** @default DEFAULT_TOLERANCE */
  tolerance?: number
  /** @default DEFAULT_MAX_ITERATIONS */
  maxIterations?: number
  /** A previous rank vector to start from (a warm start after a small change converges in few steps). */
  initial?: Float64Array
  /**
   * Per agent, the share in [0, 1] of its walk it passes on (docs/trust.md §3: an agent its reputable peers
   * contradict vouches less); the rest goes back to the roots. @default every agent passes all
   */
  agentPass?: Float64Array
  /** Per claim, the share in [0, 1] of what enters it that it hands on (a contradicted claim less); the rest goes to the roots. */
  claimPass?: Float64Array
}

export interface PageRankResult {
  /** Stationary probability of each agent (graph order); sums to 1. */
  rank: Float64Array
  iterations: number
  /** L1 change of the last step. */
  residual: number
}

/**
 * Personalised PageRank (Haveliwala 2002; the EigenTrust iteration of Kamvar et al. 2003 with
 * pre-trusted peers): π = (1 − d)·p + d·πW, where p is uniform over the roots and W the row-stochastic
 * attestation graph. An agent without out-edges hands its mass back to the roots (not to everyone),
 * so an agent nobody reachable endorses has rank 0 exactly: Sybils without a trust path weigh nothing.
 * W has two kinds of edges (docs/trust.md §3): endorsement, witness → author by VOTE_WEIGHTS, and agreement,
 * member → the other members of each claim (a verdict on a memory) it shares, AGREEMENT_WEIGHT per
 * claim split evenly among them; a row is normalised by the agent's outWeight. Agreement edges are
 * walked implicitly through the claims, so one step costs O(votes), not O(pairs of co-witnesses).
 */
export function personalizedPageRank (graph: TrustGraph, roots: readonly number[], options: PageRankOptions = {}): PageRankResult {
  const n = graph.agents.length
  const d = options.damping ?? DEFAULT_DAMPING
  if (!(d > 0 && d < 1)) throw new IsnadError('USAGE', `damping must be in (0, 1), got ${d}`)
  if (roots.length === 0) throw new IsnadError('USAGE', 'personalised PageRank needs at least one root')
  const teleport = new Float64Array(n)
  for (const r of roots) {
    if (!(r >= 0 && r < n)) throw new IsnadError('USAGE', `root index ${r} is not an agent of the graph`)
    teleport[r] = 1
  }
  let rootCount = 0
  for (let i = 0; i < n; i++) rootCount += teleport[i] as number
  for (let i = 0; i < n; i++) teleport[i] = (teleport[i] as number) / rootCount

  const tolerance = options.tolerance ?? DEFAULT_TOLERANCE
  const maxIterations = options.maxIterations ?? DEFAULT_MAX_ITERATIONS
  let rank = options.initial?.length === n ? Float64Array.from(options.initial) : Float64Array.from(teleport)
  let next = new Float64Array(n)
  const { offsets, targets, weights, outWeight, claims, agentClaimOffsets } = graph
  const { agentPass, claimPass } = options
  const claimCount = claims.offsets.length - 1
  // What each agent sends into each claim it shares this step (d·π(u)·AGREEMENT_WEIGHT / outWeight(u)).
  const sent = new Float64Array(n)
  let iterations = 0
  let residual = Infinity
  while (iterations < maxIterations && residual > tolerance) {
    next.fill(0)
    let dangling = 0
    for (let u = 0; u < n; u++) {
      const mass = rank[u] as number
      sent[u] = 0
      if (mass === 0) continue
      const total = outWeight[u] as number
      if (total === 0) {
        dangling += mass
        continue
      }
      const pass = agentPass === undefined ? 1 : agentPass[u] as number
      dangling += mass * (1 - pass)
      const share = d * mass * pass
      for (let e = offsets[u] as number; e < (offsets[u + 1] as number); e++) {
        const v = targets[e] as number
        next[v] = (next[v] as number) + share * (weights[e] as number)
      }
      if ((agentClaimOffsets[u + 1] as number) > (agentClaimOffsets[u] as number)) sent[u] = share * AGREEMENT_WEIGHT / total
    }
    // Agreement: each claim hands what a member sent to the claim's other members, in equal parts.
    for (let c = 0; c < claimCount; c++) {
      const start = claims.offsets[c] as number
      const end = claims.offsets[c + 1] as number
      const size = end - start
      if (size < 2) continue
      let sum = 0
      for (let k = start; k < end; k++) sum += sent[claims.members[k] as number] as number
      if (sum === 0) continue
      const pass = claimPass === undefined ? 1 : claimPass[c] as number
      // What the claim does not hand on goes back to the roots (as teleport: d·(1 − pass) of it, the walk's share).
      if (pass < 1) dangling += (sum * (1 - pass)) / d
      for (let k = start; k < end; k++) {
        const v = claims.members[k] as number
        next[v] = (next[v] as number) + (pass * (sum - (sent[v] as number))) / (size - 1)
      }
    }
    // Teleport plus the dangling agents' mass, both to the roots only.
    const back = 1 - d + d * dangling
    residual = 0
    for (let i = 0; i < n; i++) {
      const value = (next[i] as number) + back * (teleport[i] as number)
      next[i] = value
      residual += Math.abs(value - (rank[i] as number))
    }
    const swap = rank
    rank = next
    next = swap
    iterations++
  }
  return { rank, iterations, residual }
}
