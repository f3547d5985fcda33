import { CONFIRM_RECORD_MARGIN, CONFIRM_RECORD_PRIOR } from './constants.js'
import { independentMembersOf } from './drawn-agreement.js'
import type { TrustGraph } from './vote-graph.js'

/** How far apart two verdicts are on one line: confirm 1, partial ½, dispute 0 (as the debit reads them). */
const POSITION = [1, 0.5, 0]

/**
 * A witness's confirm record with an author (docs/trust.md §5, "a witness's record with the author"):
 * what the confirms and partials it gave the author's **other** memories met from the witnesses the
 * author did not choose there — the drawn witnesses and the roots, each weighing its reputation. A
 * (agreed) and X (contradicted) are summed as the debit sums them (1 − |x − y| and |x − y| on the
 * verdict line), and the record is (A + CONFIRM_RECORD_PRIOR) / (A + CONFIRM_RECORD_PRIOR +
 * CONFIRM_RECORD_MARGIN · X): 1 with no contradiction, near 0 for a witness whose confirms of this
 * author the draw keeps disputing. The memory being scored is left out (its own draw is weighed by the
 * score's rules), so a circle that outnumbers the honest drawn witnesses on one memory cannot clear
 * itself there. Roots keep 1: the node chose them.
 */
export interface ConfirmRecord {
  /** The factor in [0, 1] for `witness`'s confirm of memory `memory` (an id) of `author` (graph nodes). */
  factor: (witness: number, author: number, memory: string) => number
}

export function confirmRecordOf (graph: TrustGraph, rootIndexes: readonly number[], reputation: Float64Array, shardCount?: number): ConfirmRecord {
  const { offsets, members, verdicts, memories, memoryIds, memoryAuthors } = graph.claims
  const independent = independentMembersOf(graph, rootIndexes, shardCount)
  const isRoot = new Uint8Array(graph.agents.length)
  for (const r of rootIndexes) isRoot[r] = 1
  const claimCount = offsets.length - 1
  /** Per (witness, author) pair: the index of its A in `sums` (X follows it). */
  const pairs = new Map<number, number>()
  const sums: number[] = []
  /** Per memory id: its first claim (its claims are consecutive). */
  const firstClaim = new Map<string, number>()
  const weights = [0, 0, 0]
  /** What one member met on its memory: [A, X] from the memory's independent voters other than itself. */
  const metBy = (k: number, verdict: number): [number, number] => {
    const x = POSITION[verdict] as number
    const own = independent[k] !== 0 ? reputation[members[k] as number] as number : 0
    let agreed = -own
    let contradicted = 0
    for (let y = 0; y < 3; y++) {
      const distance = Math.abs(x - (POSITION[y] as number))
      agreed += (weights[y] as number) * (1 - distance)
      contradicted += (weights[y] as number) * distance
    }
    return [Math.max(0, agreed), contradicted]
  }
  const weighMemory = (first: number, last: number): void => {
    weights[0] = weights[1] = weights[2] = 0
    for (let c = first; c <= last; c++) {
      for (let k = offsets[c] as number; k < (offsets[c + 1] as number); k++) {
        if (independent[k] !== 0) weights[verdicts[c] as number] = (weights[verdicts[c] as number] as number) + (reputation[members[k] as number] as number)
      }
    }
  }
  let first = 0
  while (first < claimCount) {
    let last = first
    while (last + 1 < claimCount && memories[last + 1] === memories[first]) last++
    const ordinal = memories[first] as number
    const id = memoryIds[ordinal]
    const author = memoryAuthors[ordinal]
    if (id !== undefined) firstClaim.set(id, first)
    weighMemory(first, last)
    if (author !== undefined && (weights[0] as number) + (weights[1] as number) + (weights[2] as number) > 0) {
      for (let c = first; c <= last; c++) {
        if (verdicts[c] === 2) continue // a dispute vouches for nobody
        for (let k = offsets[c] as number; k < (offsets[c + 1] as number); k++) {
          const witness = members[k] as number
          if (isRoot[witness] === 1) continue
          const [a, x] = metBy(k, verdicts[c] as number)
          const key = witness * graph.agents.length + author
          let at = pairs.get(key)
          if (at === undefined) { at = sums.length; sums.push(0, 0); pairs.set(key, at) }
          sums[at] = (sums[at] as number) + a
          sums[at + 1] = (sums[at + 1] as number) + x
        }
      }
    }
    first = last + 1
  }
  return {
    factor (witness, author, memory) {
      if (isRoot[witness] === 1) return 1
      const at = pairs.get(witness * graph.agents.length + author)
      if (at === undefined) return 1
      let agreed = sums[at] as number
      let contradicted = sums[at + 1] as number
      // Leave the scored memory out: its own draw is what the score weighs.
      const start = firstClaim.get(memory)
      if (start !== undefined) {
        let last = start
        while (last + 1 < claimCount && memories[last + 1] === memories[start]) last++
        weighMemory(start, last)
        for (let c = start; c <= last; c++) {
          if (verdicts[c] === 2) continue
          for (let k = offsets[c] as number; k < (offsets[c + 1] as number); k++) {
            if (members[k] !== witness) continue
            const [a, x] = metBy(k, verdicts[c] as number)
            agreed -= a
            contradicted -= x
          }
        }
      }
      return recordFactor(Math.max(0, agreed), Math.max(0, contradicted))
    }
  }
}

/** (A + prior) / (A + prior + margin · X): the confirm record's factor from what it agreed with and what contradicted it. */
export function recordFactor (agreed: number, contradicted: number): number {
  return (agreed + CONFIRM_RECORD_PRIOR) / (agreed + CONFIRM_RECORD_PRIOR + CONFIRM_RECORD_MARGIN * contradicted)
}
