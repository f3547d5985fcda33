import { describe, expect, it } from 'vitest'
import { confirmRecordOf, recordFactor } from '../../../src/reputation/confirm-record.js'
import { CONFIRM_RECORD_MARGIN, CONFIRM_RECORD_PRIOR } from '../../../src/reputation/constants.js'
import { buildTrustGraph, computeReputation, type TrustGraph, type VoteGroup } from '../../../src/reputation/index.js'

/*
 * A witness's confirm record with an author (docs/trust.md §5): what its confirms of the author's
 * other memories met from the witnesses the author did not choose (drawn, or roots), each weighing
 * its reputation; (A + 1) / (A + 1 + 2·X). Figures by hand from given reputations.
 */

const memory = (id: string, author: string, votes: VoteGroup['votes']): VoteGroup => ({ memory: id, author, votes })

// The author C's memories. x (chosen by C) confirms all of them; y gives partials.
// m1: drawn d1 (1) and d2 (0.5) dispute. m2: drawn d1 disputes, drawn e (0.25) confirms, the root R
// confirms. m3: drawn d2 confirms. m4: nobody drawn (x and z only). H's memory h1: x confirms, d1 drawn confirms.
const groups: VoteGroup[] = [
  memory('m1', 'C', [{ witness: 'x', verdict: 'confirm' }, { witness: 'y', verdict: 'partial' }, { witness: 'd1', verdict: 'dispute', drawn: true }, { witness: 'd2', verdict: 'dispute', drawn: true }]),
  memory('m2', 'C', [{ witness: 'x', verdict: 'confirm' }, { witness: 'y', verdict: 'partial' }, { witness: 'd1', verdict: 'dispute', drawn: true }, { witness: 'e', verdict: 'confirm', drawn: true }, { witness: 'R', verdict: 'confirm' }]),
  memory('m3', 'C', [{ witness: 'x', verdict: 'confirm' }, { witness: 'd2', verdict: 'confirm', drawn: true }]),
  memory('m4', 'C', [{ witness: 'x', verdict: 'confirm' }, { witness: 'z', verdict: 'confirm' }]),
  memory('h1', 'H', [{ witness: 'x', verdict: 'confirm' }, { witness: 'd1', verdict: 'confirm', drawn: true }])
]

function recordOf (graph: TrustGraph, reputations: Record<string, number>): (witness: string, author: string, memory: string) => number {
  const reputation = new Float64Array(graph.agents.length)
  for (const [did, r] of Object.entries(reputations)) reputation[graph.index.get(did) as number] = r
  const record = confirmRecordOf(graph, [graph.index.get('R') as number], reputation)
  return (w, a, m) => record.factor(graph.index.get(w) as number, graph.index.get(a) as number, m)
}

describe('the confirm record', () => {
  const graph = buildTrustGraph(groups, ['R'])
  const record = recordOf(graph, { R: 1, d1: 1, d2: 0.5, e: 0.25, x: 0.4, y: 0.4, z: 0.4 })

  it('is (A + 1) / (A + 1 + 2·X)', () => {
    expect(CONFIRM_RECORD_PRIOR).toBe(1)
    expect(CONFIRM_RECORD_MARGIN).toBe(2)
    expect(recordFactor(0, 0)).toBe(1)
    expect(recordFactor(0.25, 2.5)).toBeCloseTo(1.25 / 6.25, 12)
  })

  it('weighs a confirm against the drawn witnesses and roots of the author\'s other memories, leaving the scored one out', () => {
    // x on m3, leaving m3 out: m1 A 0, X d1 + d2 = 1.5; m2 A e + R = 1.25, X d1 = 1; m4 has no drawn
    // witness and adds nothing. A 1.25, X 2.5: 2.25 / (2.25 + 5).
    expect(record('x', 'C', 'm3')).toBeCloseTo(2.25 / 7.25, 12)
    // x on m1, leaving m1 out: m2 (1.25, 1) and m3 (d2's 0.5, 0): A 1.75, X 1: 2.75 / 4.75.
    expect(record('x', 'C', 'm1')).toBeCloseTo(2.75 / 4.75, 12)
    // x on m4, which has no drawn witness: nothing to leave out, A 1.75, X 2.5: 2.75 / 7.75.
    expect(record('x', 'C', 'm4')).toBeCloseTo(2.75 / 7.75, 12)
  })

  it('reads a partial at ½ on the verdict line: half agreement, half contradiction with a dispute', () => {
    // y on m2, leaving m2 out: m1's drawn disputes d1 and d2 weigh 1.5, each half against y: A 0.75, X 0.75.
    expect(record('y', 'C', 'm2')).toBeCloseTo(1.75 / 3.25, 12)
  })

  it('is the witness\'s record with this author only, and 1 for a root, a drawn witness with no other confirm, or no record', () => {
    // x's confirm of H's memory: its record with H holds only h1, left out.
    expect(record('x', 'H', 'h1')).toBe(1)
    expect(record('R', 'C', 'm3')).toBe(1)
    // d2 confirmed only m3 (its dispute of m1 vouches for nobody).
    expect(record('d2', 'C', 'm3')).toBe(1)
    // z confirmed only m4, where nobody drawn answered.
    expect(record('z', 'C', 'm4')).toBe(1)
  })

  it('is what the reputation table gives the score, 1 for a root or an agent it does not know', () => {
    const table = computeReputation(groups, ['R'])
    expect(table.confirmRecord('x', 'C', 'm3')).toBeLessThan(table.confirmRecord('x', 'C', 'm1'))
    expect(table.confirmRecord('x', 'C', 'm3')).toBeLessThan(1)
    expect(table.confirmRecord('R', 'C', 'm3')).toBe(1)
    expect(table.confirmRecord('stranger', 'C', 'm3')).toBe(1)
    expect(computeReputation(groups, []).confirmRecord('x', 'C', 'm3')).toBe(1)
  })
})
