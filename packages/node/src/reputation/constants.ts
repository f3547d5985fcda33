/**
 * Reputation (docs/trust.md §3): personalised PageRank over the graph of verified attestations, with the
 * operator's trust roots as the teleport set. The numbers every bound in docs/trust.md is stated in.
 */

/**
 * Probability that the random walk follows an attestation edge rather than jumping back to a root.
 * 0.85 is PageRank's classic value; the Sybil bound grows as d / (1 − d)², so a larger d would trade
 * reach for Sybil resistance.
 * @default 0.85
 */
export const DEFAULT_DAMPING = 0.85

/**
 * Power iteration stops when the L1 change of the rank vector falls below this. The error left is at
 * most tol · d/(1 − d) ≈ 6e-8 of the total mass, far below what a 4-decimal score shows; 1e-10 cost
 * figure 10 about a quarter more iterations (the target: 100k agents × 1M attestations under 5 s).
 * @default 1e-8
 */
export const DEFAULT_TOLERANCE = 1e-8

/** @default 300 — 0.85^300 ≈ 6e-22: the iteration has converged long before, whatever the graph. */
export const DEFAULT_MAX_ITERATIONS = 300

/**
 * What one witness's counted attestation of one memory adds to the edge witness → author: a confirm
 * is a full endorsement, a partial half of one (it confirms some claims only), a dispute takes one
 * back. Per (witness, author) pair the sum is clamped at 0: PageRank has no negative edges, and a
 * dispute is weighed where it belongs, in the disputed memory's own score.
 */
export const VOTE_WEIGHTS = Object.freeze({ confirm: 1, partial: 0.5, dispute: -1 })

/** Reputation of every agent when the node has no trust roots: the schema's 0.5 (src/trust DEFAULT_REPUTATION). */
export const UNROOTED_REPUTATION = 0.5

/**
 * What one witness's membership of a claim (a verdict on a memory that at least one other agent gave
 * too) adds to its out-weight, beside VOTE_WEIGHTS' endorsement of the author (docs/trust.md §3): the
 * agents who said the same on a memory share what its witness hands on. So a witness who
 * never authors still earns standing from the reputable agents it agrees with. 2 (two thirds of a
 * confirming witness's walk to the agents that agree with it) measured better than 1.
 * @default 2
 */
export const AGREEMENT_WEIGHT = 2

/**
 * How much a contradiction weighs against an agreement in the debit (docs/trust.md §3): an agent's
 * reputation is multiplied by A / (A + λ·X), where A is the vote weight (standing.ts voteWeightOf:
 * rank per exposure over the reference, uncapped) of the agents (and anchor signers) that agreed
 * with its verdicts and X of those that contradicted them. λ = 3: one contradiction of a reputable
 * agent undoes three agreements, so an honest witness wrong 5 % of the time keeps ~0.86 of its
 * standing while an agent that lies a third of the time keeps ~0.4.
 * @default 3
 */
export const CONTRADICTION_WEIGHT = 3

/**
 * The reference of a standing (standing.ts): agents ordered by rank per unit of exposure, the one at
 * which they hold this share of the non-root mass sets ρ_ref; those above it stand at 1, the rest at
 * (π/x)/ρ_ref. Independent of the network's size; an attacker holding mass L of the walk moves the
 * reference by at most L of the mass. Measured on the model engine (docs/simulation.md, "Scale:
 * shards and interests"): 0.93 left 20 % of true memories Unverified at 3,000 agents and 27 % at
 * 10,000; 0.97 leaves 12 % and 11 %. 0.97 was unsafe while the debit weighed votes by the capped
 * standing (a 40 % Sybil ring disputing true memories then left 36 % of them Unverified); weighed
 * by rank (voteWeightOf), the same ring leaves at most 13 % (sybil-ring, 3 seeds).
 * @default 0.97
 */
export const REFERENCE_MASS_SHARE = 0.97

/**
 * What an author's memory hands each witness that confirmed it, in the walk (docs/trust.md §3): a witness
 * that never authors is reached from the authors it confirms as well as from the agents it agrees
 * with. Never an endorsement (`endorses`, the mutual-vouching rule, reads endorsements only).
 * @default 1
 */
export const ACKNOWLEDGE_WEIGHT = 1

/**
 * The beta prior of the evidence factor (reputation.ts evidenceFactor): how many fully reputable
 * corroborations an agent's standing is shrunk by. 1.5: one confirm of a root's memory and nothing
 * else leaves a stranger at 0.4 of its standing, below MIN_CONFIRM_WEIGHT alone (docs/trust.md §4).
 * @default 1.5
 */
export const EVIDENCE_PRIOR = 1.5

/**
 * The confirm record's prior (confirm-record.ts, docs/trust.md §5): as much agreement as one fully
 * reputable independent witness gives, so one contradicted confirm does not zero a witness that has
 * no other record with the author. @default 1
 */
export const CONFIRM_RECORD_PRIOR = 1

/**
 * How many times its contradiction the confirm record weighs against its agreement: the margin a
 * memory's confirms need over its disputes (src/trust CONFIRM_MARGIN). 3 (the debit's
 * CONTRADICTION_WEIGHT) left one more true memory in seven Unverified in the 12-agent scenario
 * (small: 23.8 % against 14.3 %) and hidden-circle's false Attested at 2.2 % instead of 4.4 %. @default 2
 */
export const CONFIRM_RECORD_MARGIN = 2
