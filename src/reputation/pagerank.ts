import { IsnadError } from '../errors/index.js'
import { DEFAULT_DAMPING, DEFAULT_MAX_ITERATIONS, DEFAULT_TOLERANCE } from './constants.js'
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
  const { offsets, targets, weights } = graph
  let iterations = 0
  let residual = Infinity
  while (iterations < maxIterations && residual > tolerance) {
    next.fill(0)
    let dangling = 0
    for (let u = 0; u < n; u++) {
      const mass = rank[u] as number
      if (mass === 0) continue
      const start = offsets[u] as number
      const end = offsets[u + 1] as number
      if (start === end) {
        dangling += mass
        continue
      }
      const share = d * mass
      for (let e = start; e < end; e++) {
        const v = targets[e] as number
        next[v] = (next[v] as number) + share * (weights[e] as number)
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
