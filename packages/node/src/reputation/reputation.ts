import { CONTRADICTION_WEIGHT, DEFAULT_DAMPING, UNROOTED_REPUTATION } from './constants.js'
import { evidenceFactor, evidenceOf } from './evidence-factor.js'
import { estimateOf } from './population.js'
import { buildTrustGraph, type TrustGraph, type VoteGroup } from './vote-graph.js'
import { VoteSet } from './vote-set.js'
import { agreementSourcesOf } from './drawn-agreement.js'
import { confirmRecordOf, type ConfirmRecord } from './confirm-record.js'
import { personalizedPageRank, type PageRankOptions } from './pagerank.js'
import { shortestPathsFrom } from './shortest-paths.js'
import type { AgentReputation } from './trust-route-shapes.js'
import { exposureOf, referenceRankOf, standingOf, voteWeightOf } from './standing.js'
import type { ReputationTable } from './reputation-table.js'

/** What the node knows about one agent's standing, for `get_reputation` and `trust explain` (its schema: trust-route-shapes.ts). */
export type { AgentReputation, ReputationTable }

export interface ReputationOptions extends PageRankOptions {
  /**
   * The node's shard count when its operator set one: the drawn witnesses' stated counts are judged
   * against it (witness-draw-v1 W12). @default the count of the graph's estimate (shardCountFor)
   */
  shardCount?: number
}

/**
 * Every agent's reputation from the roots over the graph of votes (docs/trust.md §3). Pure; the votes are
 * the counted attestations (one per witness and memory, signatures verified) the caller gathered.
 */
export function computeReputation (
  votes: VoteSet | Iterable<VoteGroup>, roots: readonly string[], { shardCount, ...options }: ReputationOptions = {}
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
      reference: Infinity,
      lookup: () => UNROOTED_REPUTATION,
      endorses: (from, to) => vouches(graph, graph.index.get(identityOf(from)), graph.index.get(identityOf(to))),
      describe: (did) => ({ did, reputation: UNROOTED_REPUTATION, rank: 0, root: false, path: null }),
      confirmRecord: () => 1,
      ...estimateOf(graph, votes, () => UNROOTED_REPUTATION)
    }
  }
  const rootIndexes = uniqueRoots.map((did) => graph.index.get(did) as number)
  // Round 1: the plain walk. Round 2: the same walk where each agent passes on only the share of it
  // its reputable peers do not contradict, and each claim only the share its contradicting claims
  // leave it (docs/trust.md §3), so a ring that agrees with itself cannot recycle what leaks into it.
  // Agreement and contradiction weigh each voter by its rank (voteWeightOf), not its standing
  // capped at 1: a ring that spreads a little rank over many votes weighs what that rank is worth.
  const first = personalizedPageRank(graph, rootIndexes, { ...options, damping })
  const exposure = exposureOf(graph)
  const sources = agreementSourcesOf(graph, rootIndexes, shardCount)
  const round1 = agreementOf(graph, voteWeightOf(first.rank, rootIndexes, exposure), sources)
  const agentPass = new Float64Array(graph.agents.length)
  for (let i = 0; i < agentPass.length; i++) agentPass[i] = debitFactor(round1.agreed[i] as number, round1.contradicted[i] as number)
  const second = personalizedPageRank(graph, rootIndexes, { ...options, damping, initial: first.rank, agentPass, claimPass: round1.claimPass })
  const { rank } = second
  const iterations = first.iterations + second.iterations
  // π_ref once: a sort of every non-root rank (figure 10).
  const reference = referenceRankOf(rank, rootIndexes, exposure)
  const standing = standingOf(rank, rootIndexes, exposure, reference)
  // The evidence factor counts reputable agents (standing, in units of one fully reputable agent).
  const evidence = evidenceOf(graph, standing, agreementOf(graph, standing).agreed)
  const { agreed, contradicted } = agreementOf(graph, voteWeightOf(rank, rootIndexes, exposure, reference), sources)
  const final = new Float64Array(standing.length)
  for (let i = 0; i < final.length; i++) {
    final[i] = (standing[i] as number) * debitFactor(agreed[i] as number, contradicted[i] as number) * evidenceFactor(evidence[i] as number)
  }
  for (const r of rootIndexes) final[r] = 1
  const rootSet = new Set(uniqueRoots)
  const isRoot = new Uint8Array(graph.agents.length)
  for (const r of rootIndexes) isRoot[r] = 1
  let parents: Int32Array | undefined
  // Computed on first use: only a reputation-weighted score reads it.
  let record: ConfirmRecord | undefined
  const lookup = (key: string): number => {
    const did = identityOf(key)
    if (rootSet.has(did)) return 1
    const i = graph.index.get(did)
    return i === undefined ? 0 : final[i] as number
  }
  return {
    rooted: true,
    roots: uniqueRoots,
    damping,
    iterations,
    graph,
    rank,
    reference,
    lookup,
    endorses: (from, to) => inCircle(graph, isRoot, graph.index.get(identityOf(from)), graph.index.get(identityOf(to))),
    confirmRecord (witness, author, memory) {
      const w = graph.index.get(identityOf(witness))
      const a = graph.index.get(identityOf(author))
      if (w === undefined || a === undefined) return 1
      record ??= confirmRecordOf(graph, rootIndexes, final, shardCount)
      return record.factor(w, a, memory)
    },
    describe (did) {
      const i = graph.index.get(identityOf(did))
      parents ??= shortestPathsFrom(graph, rootIndexes)
      return {
        did,
        reputation: lookup(did),
        rank: i === undefined ? 0 : rank[i] as number,
        root: rootSet.has(identityOf(did)),
        path: i === undefined ? null : pathTo(graph, parents, i),
        ...(i === undefined || rootSet.has(identityOf(did))
          ? {}
          : {
              agreement: { agreed: Math.max(0, agreed[i] as number), contradicted: contradicted[i] as number, factor: debitFactor(agreed[i] as number, contradicted[i] as number) },
              standing: standing[i] as number, evidence: { backing: evidence[i] as number, factor: evidenceFactor(evidence[i] as number) }
            })
      }
    },
    ...estimateOf(graph, votes, lookup)
  }
}

/**
 * Whether `w` is in author `a`'s circle (the mutual-vouching rule of src/trust): `a` endorsed `w`
 * directly or through one agent. A root never is (docs/trust.md §5): the node trusts its roots by its own
 * choice, not by the author's, so a root's confirm is independent evidence even when the author has
 * confirmed the root's memories too (honest authors in a small network do, by chance). Nor has a
 * root author a circle: the rule guards against an author recruiting its confirmers, and the node
 * chose its roots, so whom a root vouches for is vouched for by the node's own choice.
 */
function inCircle (graph: TrustGraph, isRoot: Uint8Array, a: number | undefined, w: number | undefined): boolean {
  if ((w !== undefined && isRoot[w] === 1) || (a !== undefined && isRoot[a] === 1)) return false
  return vouches(graph, a, w)
}

/** An endorsement path u → v or u → x → v. */
function vouches (graph: TrustGraph, u: number | undefined, v: number | undefined): boolean {
  if (u === undefined || v === undefined || u === v) return false
  if (hasEdge(graph, u, v)) return true
  for (let e = graph.offsets[u] as number; e < (graph.offsets[u + 1] as number); e++) {
    if ((graph.strengths[e] as number) > 0 && hasEdge(graph, graph.targets[e] as number, v)) return true
  }
  return false
}

/** Binary search of u's row (targets sorted within a row) for v. */
function hasEdge (graph: TrustGraph, u: number, v: number): boolean {
  let lo = graph.offsets[u] as number
  let hi = (graph.offsets[u + 1] as number) - 1
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1
    const t = graph.targets[mid] as number
    // Only endorsements vouch: an author's acknowledgement of its confirmers does not.
    if (t === v) return (graph.strengths[mid] as number) > 0
    if (t < v) lo = mid + 1
    else hi = mid - 1
  }
  return false
}

/** How far apart two verdicts are: confirm 1, partial ½, dispute 0 on one line. */
const VERDICT_POSITION = [1, 0.5, 0]

/**
 * For every agent, the weight (a standing, or a vote weight: voteWeightOf) of the agents that agreed
 * with its verdicts (A) and of those that contradicted them (X), summed over the memories it judged:
 * with verdict positions x, y (confirm 1, partial ½, dispute 0), another voter of weight s adds
 * s·(1 − |x − y|) to A and s·|x − y| to X.
 * One pass over the claims, per memory: O(votes).
 */
export function agreementOf (graph: TrustGraph, standing: Float64Array, sources?: Uint8Array): { agreed: Float64Array, contradicted: Float64Array, claimPass: Float64Array } {
  const n = graph.agents.length
  const agreed = new Float64Array(n)
  const contradicted = new Float64Array(n)
  const { offsets, members, verdicts, memories } = graph.claims
  const claimCount = offsets.length - 1
  const claimPass = new Float64Array(claimCount)
  const sums = [0, 0, 0]
  let first = 0
  while (first < claimCount) {
    let last = first
    while (last + 1 < claimCount && memories[last + 1] === memories[first]) last++
    sums[0] = sums[1] = sums[2] = 0
    for (let c = first; c <= last; c++) {
      let sum = 0
      for (let k = offsets[c] as number; k < (offsets[c + 1] as number); k++) {
        if (sources === undefined || sources[k] === 1) sum += standing[members[k] as number] as number
      }
      sums[verdicts[c] as number] = sum
    }
    for (let c = first; c <= last; c++) {
      const x = VERDICT_POSITION[verdicts[c] as number] as number
      let a = 0
      let contra = 0
      for (let y = 0; y < 3; y++) {
        const distance = Math.abs(x - (VERDICT_POSITION[y] as number))
        a += (sums[y] as number) * (1 - distance)
        contra += (sums[y] as number) * distance
      }
      // A claim hands on its walk in the measure its own members outweigh those who contradict it.
      claimPass[c] = debitFactor(sums[verdicts[c] as number] as number, contra)
      for (let k = offsets[c] as number; k < (offsets[c + 1] as number); k++) {
        const v = members[k] as number
        const own = sources === undefined || sources[k] === 1 ? standing[v] as number : 0
        agreed[v] = (agreed[v] as number) + a - own // not with itself
        contradicted[v] = (contradicted[v] as number) + contra
      }
    }
    first = last + 1
  }
  return { agreed, contradicted, claimPass }
}

/**
 * A / (A + λ·X): 1 for an agent nobody reputable contradicted (or that shares no memory with anyone),
 * lower the more the reputable agents contradicted it. Only ever lowers a standing, so the Sybil
 * bound of the walk holds for the final reputation too.
 */
export function debitFactor (agreed: number, contradicted: number): number {
  // Rounding can leave a hair below 0 after subtracting an agent's own standing.
  const a = Math.max(0, agreed)
  if (contradicted <= 0) return 1
  return a / (a + CONTRADICTION_WEIGHT * contradicted)
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

