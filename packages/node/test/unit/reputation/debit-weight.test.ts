import { describe, expect, it } from 'vitest'
import { computeReputation, type VoteGroup } from '../../../src/reputation/index.js'

/*
 * The debit weighs each voter by its rank per exposure over the reference, uncapped (docs/trust.md
 * §3, standing.ts voteWeightOf). A ring that reaches the walk through one attack edge and disputes
 * every honest memory casts many votes, each at a standing near that of an honest witness; weighed
 * by standing capped at 1 its disputes outweighed the honest agreement on every memory and dragged
 * the honest witnesses' debit down. Weighed by rank, the ring's disputes weigh what its little rank
 * is worth, and it is the ring that is debited.
 */

const memory = (author: string, votes: Array<[string, 'confirm' | 'dispute']>): VoteGroup => ({ author, votes: votes.map(([witness, verdict]) => ({ witness, verdict })) })

function network (ringSize: number): VoteGroup[] {
  const honestAuthors = ['h0', 'h1', 'h2', 'h3', 'h4', 'h5']
  const witnesses = ['w0', 'w1', 'w2', 'w3']
  const ring = Array.from({ length: ringSize }, (_, i) => `s${i}`)
  const groups: VoteGroup[] = []
  honestAuthors.forEach((author, i) => {
    for (let m = 0; m < 3; m++) {
      // The root and two honest witnesses confirm; every Sybil disputes.
      const confirmers: Array<[string, 'confirm']> = [['root', 'confirm'], [witnesses[(i + m) % 4] as string, 'confirm'], [witnesses[(i + m + 1) % 4] as string, 'confirm']]
      groups.push(memory(author, [...confirmers, ...ring.map((s): [string, 'dispute'] => [s, 'dispute'])]))
    }
  })
  // The ring confirms its own memories; w0 was fooled into confirming one of them (one attack edge).
  ring.forEach((author, i) => groups.push(memory(author, ring.filter((s) => s !== author).map((s): [string, 'confirm'] => [s, 'confirm']).concat(i === 0 ? [['w0', 'confirm']] : []))))
  return groups
}

describe('the debit of a disputing ring', () => {
  it('leaves the honest witnesses their standing however many Sybils dispute them, and debits the ring', () => {
    for (const size of [10, 40]) {
      const table = computeReputation(network(size), ['root'])
      for (const w of ['w1', 'w2', 'w3']) {
        const agreement = table.describe(w).agreement
        expect(agreement?.factor).toBeGreaterThan(0.9)
        expect(table.lookup(w)).toBeGreaterThan(0.5)
      }
      const ringFactor = table.describe('s1').agreement?.factor ?? 1
      expect(ringFactor).toBeLessThan(0.1)
      expect(table.lookup('s1')).toBeLessThan(0.05)
    }
  })
})
