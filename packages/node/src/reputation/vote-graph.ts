import { ACKNOWLEDGE_WEIGHT, AGREEMENT_WEIGHT, VOTE_WEIGHTS } from './constants.js'
import { ACKNOWLEDGE_CODE, MAX_GRAPH_AGENTS, type MemberDraw, VERDICT_CODES, VoteSet } from './vote-set.js'

/** One counted vote: `witness` attested a memory of `author` (already one per witness and memory). */
export interface Vote {
  witness: string
  author: string
  verdict: keyof typeof VOTE_WEIGHTS
}

/** The votes on one author's memory (or memories): the author is looked up once per group. */
export interface VoteGroup {
  author: string
  /** One memory's votes: the witnesses that gave the same verdict agree (docs/trust.md §3). */
  votes: ReadonlyArray<{ witness: string, verdict: keyof typeof VOTE_WEIGHTS, drawn?: boolean }>
  /** The memory's id, when the group is one memory's votes (the confirm record names memories by it). */
  memory?: string
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
  /**
   * The endorsement per edge before normalisation (what `explain` shows and `endorses` reads): the
   * sum of vote weights, at least 0. An edge may have 0 here and still be walked: an author
   * acknowledges its confirmers (ACKNOWLEDGE_WEIGHT), which is no endorsement.
   */
  strengths: Float64Array
  /**
   * Each agent's total out-weight: its endorsement strengths plus AGREEMENT_WEIGHT per claim it
   * shares with another agent; 0 for an agent that hands its mass back to the roots.
   */
  outWeight: Float64Array
  /** The claims (docs/trust.md §3): verdicts on one memory and who gave them, consecutive per memory. */
  claims: Claims
  /** Per agent, the claims with at least two members it belongs to: `agentClaims[agentClaimOffsets[i] … [i+1])`. */
  agentClaimOffsets: Int32Array
  agentClaims: Int32Array
}

export interface Claims {
  /** Claim k's members are members[offsets[k] … offsets[k+1]). */
  offsets: Int32Array
  members: Int32Array
  /** Per member, its draw's index in `draws` (−1: not drawn for the memory). */
  drawIndex: Int32Array
  /** The claim members' draws (VoteSet.memberDraws). */
  draws: readonly MemberDraw[]
  /** VERDICT_CODES: 0 confirm, 1 partial, 2 dispute. */
  verdicts: Uint8Array
  /** The memory ordinal of each claim: claims of one memory are consecutive. */
  memories: Int32Array
  /** Per memory ordinal, its id and its author's graph node (absent for a group that named no memory). */
  memoryIds: readonly string[]
  memoryAuthors: readonly number[]
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
    let memory = 0
    for (const group of votes) {
      const author = set.agent(group.author)
      for (const vote of group.votes) {
        const witness = set.agent(vote.witness)
        set.add(witness, author, VERDICT_CODES[vote.verdict])
        if (vote.verdict === 'confirm') set.add(author, witness, ACKNOWLEDGE_CODE)
      }
      memory++
      if (group.memory !== undefined) set.memory(memory, group.memory, author)
      for (let verdict = 0; verdict < 3; verdict++) {
        const given = group.votes.filter((v) => VERDICT_CODES[v.verdict] === verdict && set.agent(v.witness) !== author)
        const draws = Int32Array.from(given, (v) => v.drawn === true ? set.memberDraws.push({ witness: set.agent(v.witness), author }) - 1 : -1)
        set.claim(memory, verdict, given.map((v) => set.agent(v.witness)), given.length, draws)
      }
    }
  }
  const keys = set.sortedKeys()
  const names = set.agents
  const index = set.nodes
  const n = names.length
  const offsets = new Int32Array(n + 1)
  const targets = new Int32Array(keys.length)
  const strengths = new Float64Array(keys.length)
  // What the walk follows (endorsement + acknowledgement), normalised per row in place below: no
  // second array and no trimmed copies (figure 10: every 10 MB less of typed arrays per computation
  // is one old-space collection less on a node holding 1M attestations).
  const weights = new Float64Array(keys.length)
  let edges = 0
  let k = 0
  while (k < keys.length) {
    const pair = Math.floor((keys[k] as number) / 4)
    let sum = 0
    let acknowledged = 0
    for (; k < keys.length && Math.floor((keys[k] as number) / 4) === pair; k++) {
      const code = (keys[k] as number) % 4
      if (code === ACKNOWLEDGE_CODE) acknowledged += ACKNOWLEDGE_WEIGHT
      else sum += CODE_WEIGHTS[code] as number
    }
    // Disputes outweigh endorsements: no endorsement (PageRank has no negative edges).
    const endorsement = Math.max(0, sum)
    if (endorsement + acknowledged === 0) continue
    const from = Math.floor(pair / MAX_GRAPH_AGENTS)
    targets[edges] = pair - from * MAX_GRAPH_AGENTS
    strengths[edges] = endorsement
    weights[edges] = endorsement + acknowledged
    edges++
    offsets[from + 1] = edges
  }
  // Rows without edges end where the previous row ended.
  for (let i = 1; i <= n; i++) if ((offsets[i] as number) < (offsets[i - 1] as number)) offsets[i] = offsets[i - 1] as number
  const claims = { ...set.claims(), draws: set.memberDraws, memoryIds: set.memoryIds, memoryAuthors: set.memoryAuthors }
  const { agentClaimOffsets, agentClaims } = membershipsOf(claims, n)
  const outWeight = new Float64Array(n)
  for (let i = 0; i < n; i++) {
    let total = AGREEMENT_WEIGHT * ((agentClaimOffsets[i + 1] as number) - (agentClaimOffsets[i] as number))
    for (let e = offsets[i] as number; e < (offsets[i + 1] as number); e++) total += weights[e] as number
    outWeight[i] = total
    for (let e = offsets[i] as number; e < (offsets[i + 1] as number); e++) weights[e] = (weights[e] as number) / total
  }
  return {
    agents: names, index, offsets, targets: targets.subarray(0, edges), weights: weights.subarray(0, edges), strengths: strengths.subarray(0, edges),
    outWeight, claims, agentClaimOffsets, agentClaims
  }
}

/** Per agent, the claims it shares with at least one other agent (a counting sort: O(members)). */
function membershipsOf (claims: Claims, n: number): { agentClaimOffsets: Int32Array, agentClaims: Int32Array } {
  const { offsets, members } = claims
  const claimCount = offsets.length - 1
  const agentClaimOffsets = new Int32Array(n + 1)
  for (let c = 0; c < claimCount; c++) {
    if ((offsets[c + 1] as number) - (offsets[c] as number) < 2) continue
    for (let k = offsets[c] as number; k < (offsets[c + 1] as number); k++) {
      const slotOf = (members[k] as number) + 1
      agentClaimOffsets[slotOf] = (agentClaimOffsets[slotOf] as number) + 1
    }
  }
  for (let i = 0; i < n; i++) agentClaimOffsets[i + 1] = (agentClaimOffsets[i + 1] as number) + (agentClaimOffsets[i] as number)
  const agentClaims = new Int32Array(agentClaimOffsets[n] as number)
  const fill = agentClaimOffsets.slice(0, n)
  for (let c = 0; c < claimCount; c++) {
    if ((offsets[c + 1] as number) - (offsets[c] as number) < 2) continue
    for (let k = offsets[c] as number; k < (offsets[c + 1] as number); k++) {
      const m = members[k] as number
      agentClaims[fill[m] as number] = c
      fill[m] = (fill[m] as number) + 1
    }
  }
  return { agentClaimOffsets, agentClaims }
}
