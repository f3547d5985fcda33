import { IsnadError } from '../errors/index.js'
import { VOTE_WEIGHTS } from './constants.js'

/** One counted vote: `witness` attested a memory of `author` (already one per witness and memory). */
export interface Vote {
  witness: string
  author: string
  verdict: keyof typeof VOTE_WEIGHTS
}

/** The votes on one author's memory (or memories): the author is looked up once per group. */
export interface VoteGroup {
  author: string
  votes: ReadonlyArray<{ witness: string, verdict: keyof typeof VOTE_WEIGHTS }>
}

/** Flat votes as groups (one per vote): for callers that do not have them by memory. */
export function groupsOf (votes: Iterable<Vote>): VoteGroup[] {
  return Array.from(votes, ({ witness, author, verdict }) => ({ author, votes: [{ witness, verdict }] }))
}

/**
 * The attestation graph in compressed sparse row form: agent i's out-edges are
 * `targets[offsets[i] … offsets[i+1])` with `weights` summing to 1 per agent that has any (row
 * stochastic). Typed arrays, so 100k agents and 1M votes fit in a few tens of MB and iterate fast.
 */
export interface TrustGraph {
  agents: readonly string[]
  index: ReadonlyMap<string, number>
  offsets: Int32Array
  targets: Int32Array
  weights: Float64Array
  /** The sum of vote weights per edge before normalisation (what `explain` shows). */
  strengths: Float64Array
}

/** @default 2^24 — agents in one graph; keeps every (witness, author, verdict) key an exact double. */
export const MAX_GRAPH_AGENTS = 2 ** 24
const VERDICT_CODES = { confirm: 0, partial: 1, dispute: 2 } as const
const CODE_WEIGHTS = [VOTE_WEIGHTS.confirm, VOTE_WEIGHTS.partial, VOTE_WEIGHTS.dispute]

/**
 * Builds the graph from votes and the agents that must exist even without votes (the roots).
 * Each vote becomes one exact double, ((witness · 2^24) + author) · 4 + verdict; a native sort of
 * those puts every row in order and the votes of one pair side by side, so one pass merges pairs and
 * writes the CSR arrays: O(V log V) with no per-pair object or map.
 */
export function buildTrustGraph (groups: Iterable<VoteGroup>, agents: Iterable<string> = []): TrustGraph {
  const index = new Map<string, number>()
  const names: string[] = []
  const idOf = (did: string): number => {
    let i = index.get(did)
    if (i === undefined) {
      i = names.length
      if (i >= MAX_GRAPH_AGENTS) throw new IsnadError('USAGE', `more than ${MAX_GRAPH_AGENTS} agents in one reputation graph`)
      index.set(did, i)
      names.push(did)
    }
    return i
  }
  for (const did of agents) idOf(did)
  const keyList: number[] = []
  for (const group of groups) {
    const author = idOf(group.author)
    for (const vote of group.votes) {
      if (vote.witness === group.author) continue // the author never witnesses itself (DESIGN §2)
      keyList.push((idOf(vote.witness) * MAX_GRAPH_AGENTS + author) * 4 + VERDICT_CODES[vote.verdict])
    }
  }
  const keys = Float64Array.from(keyList).sort()
  const n = names.length
  const offsets = new Int32Array(n + 1)
  const targets = new Int32Array(keys.length)
  const strengths = new Float64Array(keys.length)
  let edges = 0
  let k = 0
  while (k < keys.length) {
    const pair = Math.floor((keys[k] as number) / 4)
    let sum = 0
    for (; k < keys.length && Math.floor((keys[k] as number) / 4) === pair; k++) sum += CODE_WEIGHTS[(keys[k] as number) % 4] as number
    if (sum <= 0) continue // disputes outweigh endorsements: no edge (PageRank has no negative ones)
    const from = Math.floor(pair / MAX_GRAPH_AGENTS)
    targets[edges] = pair - from * MAX_GRAPH_AGENTS
    strengths[edges] = sum
    edges++
    offsets[from + 1] = edges
  }
  // Rows without edges end where the previous row ended.
  for (let i = 1; i <= n; i++) if ((offsets[i] as number) < (offsets[i - 1] as number)) offsets[i] = offsets[i - 1] as number
  const weights = new Float64Array(edges)
  for (let i = 0; i < n; i++) {
    let total = 0
    for (let e = offsets[i] as number; e < (offsets[i + 1] as number); e++) total += strengths[e] as number
    for (let e = offsets[i] as number; e < (offsets[i + 1] as number); e++) weights[e] = (strengths[e] as number) / total
  }
  return { agents: names, index, offsets, targets: targets.slice(0, edges), weights, strengths: strengths.slice(0, edges) }
}
