import { isDrawn } from './rule.js'

/*
 * N̂, a node's estimate of the agents the witness draw chooses from (protocols/witness-draw-v1.md §6):
 * the larger of the agents its reputation graph holds and the median of the populations reputable
 * drawn witnesses stated in the attestations it holds. A node's graph holds only the agents it has
 * seen records of, far fewer than the network's in a young or growing network; the witnesses that
 * answered it state what their own nodes saw. Pure: no clock, no randomness, no I/O.
 */

/**
 * @default 256 — distinct witnesses whose stated populations N̂'s median is taken over: each one's
 * newest claim, the newest witnesses first (witness-draw-v1 §6, W6a).
 */
export const POPULATION_CLAIM_WINDOW = 256

/** A population a witness stated in a counted attestation of a memory (its `draw`, W6). */
export interface PopulationClaim {
  /** The attestation's id: the tie-break between claims of one instant. */
  id: string
  /** The witness's identity (a key its key log maps to one states as that identity). */
  witness: string
  /** `draw.population`. */
  population: number
  /** `draw.shards` (absent: 1): the network the claim speaks for is population × shards (W12). */
  shards?: number
  /** `witnessed_at`, in ms since the epoch: which claims are the newest. */
  at: number
  /** `draw.proof`, unpadded base64, verified at ingest (record-v1 R19). */
  proof: string
}

/** What statedPopulation reads besides the claims. */
export interface StatedPopulationInput {
  /** The witness's reputation at this node: a claim counts only when it is above 0. */
  reputation: (witness: string) => number
  /**
   * The fraction of a claim's verified proof (drawFractionOfProof), or undefined when its proof was not
   * verified: such a claim does not count. Called only for claims that could enter the window.
   */
  fractionOf: (claim: PopulationClaim) => number | undefined
  /** @default POPULATION_CLAIM_WINDOW */
  window?: number
}

/**
 * The median of the networks reputable drawn witnesses stated (W6a; population × shards, W12): the claims are taken newest
 * first (by `at`, then by id), one per witness (its newest that counts), each only when the witness's
 * reputation is above 0 and its draw drew it at the population it states (W5: its fraction is below
 * size / population), until `window` witnesses are taken; the lower median of their populations.
 * Undefined when no claim counts. The order of `claims` does not matter.
 */
export function statedPopulation (claims: readonly PopulationClaim[], input: StatedPopulationInput): number | undefined {
  const window = input.window ?? POPULATION_CLAIM_WINDOW
  if (!Number.isSafeInteger(window) || window < 1) return undefined
  const order = [...claims].sort(newestFirst)
  const taken = new Set<string>()
  const stated: number[] = []
  for (const claim of order) {
    if (stated.length >= window) break
    if (taken.has(claim.witness)) continue
    if (!(input.reputation(claim.witness) > 0)) continue
    const fraction = input.fractionOf(claim)
    if (fraction === undefined || !isDrawn(fraction, claim.population)) continue
    taken.add(claim.witness)
    stated.push(claim.population * (claim.shards ?? 1)) // W12: a shard's population speaks for shards × it
  }
  if (stated.length === 0) return undefined
  stated.sort((a, b) => a - b)
  // The lower median: an integer, and a population a witness stated; of two middles, the one that draws more.
  return stated[(stated.length - 1) >> 1]
}

/**
 * N̂ (witness-draw-v1 §6): the larger of `graphAgents` (the distinct agent identities of the node's
 * reputation graph) and the median of the populations reputable drawn witnesses stated
 * (statedPopulation), at least 0.
 */
export function populationEstimate (graphAgents: number, claims: readonly PopulationClaim[], input: StatedPopulationInput): number {
  return Math.max(0, graphAgents, statedPopulation(claims, input) ?? 0)
}

/** Newest first: by `at` descending, then by id ascending (one order at every node). */
function newestFirst (a: PopulationClaim, b: PopulationClaim): number {
  if (a.at !== b.at) return b.at - a.at
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0
}
