import { createRandom } from '../../../bench/stats.js'
import type { Vote } from '../../../src/reputation/index.js'

/**
 * Seeded random attestation graphs for the reputation tests. Agents are short labels: the reputation
 * core treats agent ids as opaque strings.
 */

export function honest (i: number): string {
  return `honest-${i}`
}

export function sybil (i: number): string {
  return `sybil-${i}`
}

/** `agents` honest agents, each confirming memories of `degree` random others; agent 0 is the root. */
export function honestGraph (agents: number, degree: number, seed = 7): Vote[] {
  const random = createRandom(seed)
  const votes: Vote[] = []
  for (let i = 0; i < agents; i++) {
    for (let k = 0; k < degree; k++) {
      const j = Math.floor(random() * agents)
      if (j !== i) votes.push({ witness: honest(i), author: honest(j), verdict: random() < 0.9 ? 'confirm' : 'partial' })
    }
  }
  return votes
}

/** A ring of `size` Sybils, each confirming the memories of the next `span` in the ring. */
export function sybilRing (size: number, span = 3): Vote[] {
  const votes: Vote[] = []
  for (let i = 0; i < size; i++) {
    for (let k = 1; k <= span; k++) votes.push({ witness: sybil(i), author: sybil((i + k) % size), verdict: 'confirm' })
  }
  return votes
}
