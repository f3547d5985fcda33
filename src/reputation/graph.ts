import { VOTE_WEIGHTS } from './constants.js'

/** One counted vote: `witness` attested a memory of `author` (already one per witness and memory). */
export interface Vote {
  witness: string
  author: string
  verdict: keyof typeof VOTE_WEIGHTS
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

/** Interns DIDs as dense integers in first-seen order. */
class AgentIndex {
  readonly agents: string[] = []
  readonly index = new Map<string, number>()

  of (did: string): number {
    let i = this.index.get(did)
    if (i === undefined) {
      i = this.agents.length
      this.index.set(did, i)
      this.agents.push(did)
    }
    return i
  }
}

/**
 * Builds the graph from votes and the agents that must exist even without votes (the roots).
 * Counting sort by witness, then per row a sort by author merges the votes of one pair, so the cost
 * is O(V log d) for V votes and out-degree d, with no per-pair hash map.
 */
export function buildTrustGraph (votes: Iterable<Vote>, agents: Iterable<string> = []): TrustGraph {
  const ids = new AgentIndex()
  for (const did of agents) ids.of(did)
  let from = new Int32Array(1024)
  let to = new Int32Array(1024)
  let amount = new Float64Array(1024)
  let count = 0
  for (const vote of votes) {
    if (vote.witness === vote.author) continue // the author never witnesses itself (DESIGN §2)
    if (count === from.length) {
      from = grow(from)
      to = grow(to)
      amount = grow(amount)
    }
    from[count] = ids.of(vote.witness)
    to[count] = ids.of(vote.author)
    amount[count] = VOTE_WEIGHTS[vote.verdict]
    count++
  }
  const n = ids.agents.length
  const rowStart = new Int32Array(n + 1)
  for (let e = 0; e < count; e++) { const row = (from[e] as number) + 1; rowStart[row] = (rowStart[row] as number) + 1 }
  for (let i = 0; i < n; i++) rowStart[i + 1] = (rowStart[i + 1] as number) + (rowStart[i] as number)
  const cursor = rowStart.slice(0, n)
  const order = new Int32Array(count)
  for (let e = 0; e < count; e++) {
    const row = from[e] as number
    const at = cursor[row] as number
    order[at] = e
    cursor[row] = at + 1
  }

  const offsets = new Int32Array(n + 1)
  const targets: number[] = []
  const strengths: number[] = []
  for (let i = 0; i < n; i++) {
    const row = Array.from(order.subarray(rowStart[i], rowStart[i + 1]))
    row.sort((a, b) => (to[a] as number) - (to[b] as number))
    let k = 0
    while (k < row.length) {
      const target = to[row[k] as number] as number
      let sum = 0
      while (k < row.length && to[row[k] as number] === target) sum += amount[row[k++] as number] as number
      if (sum > 0) {
        targets.push(target)
        strengths.push(sum)
      }
    }
    offsets[i + 1] = targets.length
  }
  const weights = new Float64Array(strengths.length)
  for (let i = 0; i < n; i++) {
    let total = 0
    for (let e = offsets[i] as number; e < (offsets[i + 1] as number); e++) total += strengths[e] as number
    for (let e = offsets[i] as number; e < (offsets[i + 1] as number); e++) weights[e] = (strengths[e] as number) / total
  }
  return {
    agents: ids.agents,
    index: ids.index,
    offsets,
    targets: Int32Array.from(targets),
    weights,
    strengths: Float64Array.from(strengths)
  }
}

function grow<T extends Int32Array | Float64Array> (array: T): T {
  const bigger = new (array.constructor as new (n: number) => T)(array.length * 2)
  bigger.set(array)
  return bigger
}
