import { VOTE_WEIGHTS } from './constants.js'
import { MAX_GRAPH_AGENTS, VERDICT_CODES, VoteSet } from './vote-set.js'

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

const CODE_WEIGHTS = [VOTE_WEIGHTS.confirm, VOTE_WEIGHTS.partial, VOTE_WEIGHTS.dispute]

/**
 * Builds the graph from votes (readable groups, or a VoteSet collectVotes filled) and the agents
 * that must exist even without votes (the roots). The vote keys of a VoteSet,
 * ((witness · 2^24) + author) · 4 + verdict, sort natively so every row is in order and the votes of
 * one pair side by side; one pass merges pairs and writes the CSR arrays: O(V log V) with no
 * per-pair object or map.
 */
export function buildTrustGraph (votes: VoteSet | Iterable<VoteGroup>, agents: Iterable<string> = []): TrustGraph {
  let set: VoteSet
  if (votes instanceof VoteSet) {
    set = votes
    for (const did of agents) set.agent(did)
  } else {
    set = new VoteSet()
    for (const did of agents) set.agent(did)
    for (const group of votes) {
      const author = set.agent(group.author)
      for (const vote of group.votes) set.add(set.agent(vote.witness), author, VERDICT_CODES[vote.verdict])
    }
  }
  const keys = set.sortedKeys()
  const names = set.agents
  const index = set.nodes
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
