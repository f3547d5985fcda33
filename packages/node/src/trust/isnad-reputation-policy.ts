import { roundTrustScore, type InsufficientTrust, type TrustContribution } from '../schema/index.js'
import { checkedReputation } from './count-evidence.js'
import { ISNAD_V01_WEIGHTS as W, MANY_CONFIRMS } from './constants.js'
import { anchorStep, signatureStep } from './isnad-v01-policy.js'
import type { AcceptedAttestation, AttestationScoreNote, CountedEvidence, PolicyScore, TrustPolicy } from './types.js'

/** A partial attestation confirms some of a memory's claims: half the weight of a confirm. */
export const PARTIAL_WEIGHT = 0.5

/** Reputation-weighted confirms a memory needs before any confirm counts as a witness (docs/trust.md §1): half a fully reputable witness. @default 0.5 */
export const MIN_CONFIRM_WEIGHT = 0.5

/** How many times the disputes' weight the confirms' must reach to count (docs/trust.md §1). @default 2 */
export const CONFIRM_MARGIN = 2

/**
 * How many of a memory's confirmers must be in its author's circle before the one confirmer outside
 * it stops counting too (docs/trust.md §5). A value of 1 left 15–25 % of true memories
 * Unverified in the built-in scenarios: in a small network an honest author has confirmed some honest witness's
 * memories by chance, and that one coincidence then voided the memory's other, independent confirm.
 * Two circle confirmers beside one outsider is a circle recruiting a third; one is a coincidence.
 * @default 2
 */
export const CIRCLE_MIN = 2

/**
 * The least the drawn witnesses' disputes must weigh (Σ rep) before they can hold a memory below
 * Attested against the witnesses its author chose (docs/trust.md §5): a tenth of a fully reputable
 * witness. Without it a single drawn Sybil the debit had brought to 0.0001 outweighed "no drawn
 * confirm" and voided the honest witnesses' confirms: with 50–60 % Sybils disputing true memories,
 * 36 % of them stayed Unverified (22 % with it); 0.05 and 0.5 measured alike on the scenarios, and a
 * larger floor lets more false memories through at scale (3,000 agents: 3.8 % false Attested
 * without it, 4.3 % at 0.1, 4.6 % at 0.5).
 * @default 0.1
 */
export const DRAWN_DISPUTE_MIN = 0.1

/**
 * A confirm whose witness's record with the author (src/reputation confirm-record.ts) is below this is
 * **discredited** (docs/trust.md §5): the draw has contradicted that witness's confirms of the author's
 * other memories more than it agreed with them, at the confirm margin ((A + 1) < 2X). A discredited
 * confirm keeps its weight rep × record in the points but is no witness for the level: it neither
 * reaches MIN_CONFIRM_WEIGHT nor counts as a witness, and when the discredited confirms weigh more than
 * CONFIRM_MARGIN times the others the memory is its author's discredited circle's word. 0.4 and 0.6
 * measured the same as ½ on wide-circle, hidden-circle, small and sybil-ring.
 * @default 0.5
 */
export const DISCREDITED_RECORD = 0.5

/**
 * The most a score moves per unit of one agent's reputation (the Sybil bound's `scoreSlope`): the
 * author term is 0.2·rep, the confirm term's steepest slope is 0.2, a dispute's is 0.15, and an
 * agent is in one role per memory (the author never witnesses itself; one vote per witness).
 */
export const REPUTATION_POLICY_MAX_SLOPE = Math.max(W.authorReputation, W.firstConfirm, W.perDispute)

/**
 * Policy `isnad-reputation` (docs/trust.md §1): `isnad-v0.1` with every witness's vote
 * weighted by its reputation from the node's trust roots. The confirm steps become continuous in the
 * weighted count C = Σ rep(confirmer) + ½·Σ rep(partial witness): +0.2·min(1, C), then +0.1 more,
 * linearly, as C goes from 1 to 3 (MANY_CONFIRMS), so three fully reputable confirms earn exactly
 * what they earn in isnad-v0.1 and any number of zero-reputation keys earn nothing. Each dispute
 * costs 0.15 × its witness's reputation.
 */
export const isnadReputationPolicy: TrustPolicy = Object.freeze({
  name: 'isnad-reputation',
  description: 'isnad-v0.1 with each witness weighted by its reputation from the node\'s trust roots',
  score (evidence: CountedEvidence): PolicyScore {
    const attestations = new Map<string, AttestationScoreNote>()
    let confirmWeight = 0
    let disputeWeight = 0
    let countedConfirms = 0
    let drawnConfirmWeight = 0
    let drawnDisputeWeight = 0
    // The confirms that witness for the level, and those discredited by their record with the author.
    let witnessWeight = 0
    let discreditedWeight = 0
    let discreditedConfirms = 0
    let weighty = evidence.authorReputation > 0
    // A confirm (or partial) by a witness the author vouches for in turn is not independent; nor is
    // one whose only fellow confirmers are at least CIRCLE_MIN such witnesses (it agrees with the
    // author's clique alone). A root is never in an author's circle (src/reputation inCircle).
    const support = evidence.attestations.filter((a) => a.record.attestation !== 'dispute')
    const mutual = new Set(support.filter((a) => evidence.endorses(evidence.author, a.record.witness)).map((a) => a.id))
    const cliqueOnly = mutual.size >= CIRCLE_MIN && mutual.size === support.length - 1
    for (const a of evidence.attestations) {
      const reputation = checkedReputation(evidence.reputation, a.record.witness)
      if (mutual.has(a.id)) {
        attestations.set(a.id, { points: 0, note: `not counted: the author vouches for ${a.record.witness} (it confirmed memories of that witness, directly or through one agent), and mutual vouching is not independent evidence (witness reputation ${round(reputation)})` })
        continue
      }
      // A root's confirm is never the circle's: the node chose its roots (as src/reputation inCircle).
      if (cliqueOnly && a.record.attestation !== 'dispute' && !evidence.isRoot(a.record.witness)) {
        attestations.set(a.id, { points: 0, note: `not counted: every other confirmer of this memory is vouched for by its author, so this confirm agrees with the author's circle alone (witness reputation ${round(reputation)})` })
        continue
      }
      // A confirm weighs by its witness's record with the author too: what its confirms of the author's
      // other memories met from the witnesses the author did not choose (docs/trust.md §5).
      const record = a.record.attestation === 'dispute' ? 1 : evidence.confirmRecord(a.record.witness, evidence.author, evidence.memory.id)
      const rep = reputation
      const weight = weightOf(a, rep) * record
      const discredited = record < DISCREDITED_RECORD
      if (rep > 0) weighty = true
      // A confirm is a witness for the evidence band only when its witness carries weight and is not discredited.
      if (a.record.attestation === 'confirm' && rep > 0) {
        if (discredited) discreditedConfirms++
        else countedConfirms++
      }
      const drawn = evidence.drawn.has(a.id)
      if (a.record.attestation === 'dispute') {
        disputeWeight += rep
        if (drawn) drawnDisputeWeight += rep
        attestations.set(a.id, { points: roundTrustScore(-W.perDispute * rep), note: `dispute weighted by reputation ${round(rep)}` })
      } else {
        confirmWeight += weight
        if (drawn) drawnConfirmWeight += weight
        if (discredited) discreditedWeight += weightOf(a, rep)
        else witnessWeight += weight
        attestations.set(a.id, { note: record < 1 ? `${noteOf(a, rep, weightOf(a, rep))}, × its confirm record with the author ${round(record)} = ${round(weight)}${discredited ? `; discredited (record below ${DISCREDITED_RECORD}): no witness for the level` : ''}` : noteOf(a, rep, weight) })
      }
    }
    const contributions = reputationContributions(evidence, confirmStep(confirmWeight), disputeWeight)
    // "At least one witness" (the schema's Attested) means the weight of the witnesses is clearly on
    // the memory's side: reputation-weighted confirms of at least MIN_CONFIRM_WEIGHT and at least CONFIRM_MARGIN times the disputes' weight. With three witnesses
    // right 95% of the time, a false memory gets two wrong confirms with probability ~0.7%, one with ~14%.
    // Discredited confirms (DISCREDITED_RECORD) do not reach the minimum, and when they outweigh the
    // others by the margin the memory stands on its author's discredited circle: a circle the draw
    // keeps contradicting on this author's memories, with at most a lazy or erring witness beside it.
    const short = witnessWeight < MIN_CONFIRM_WEIGHT
    const circled = !short && discreditedWeight > CONFIRM_MARGIN * witnessWeight
    const contested = !short && !circled && confirmWeight < CONFIRM_MARGIN * disputeWeight
    // The witnesses drawn for the memory are ones its author did not choose (docs/trust.md §5): when
    // their disputes outweigh their confirms, the witnesses the author chose do not make it Attested.
    // On a sharded node the author's chosen witnesses are mostly of other shards, so the node cannot
    // see whether they are its circle; the drawn ones are of the memory's shard, which it holds.
    // Drawn disputes weighing less than DRAWN_DISPUTE_MIN say nothing against no drawn confirm.
    const drawnAgainst = !short && !circled && !contested && drawnDisputeWeight > drawnConfirmWeight && drawnDisputeWeight >= DRAWN_DISPUTE_MIN
    const result: PolicyScore = { contributions, attestations, countedConfirms: short || circled || contested || drawnAgainst ? 0 : countedConfirms }
    if (countedConfirms + discreditedConfirms > 0 && short) {
      result.evidenceNote = discreditedConfirms === 0
        ? `too little confirm weight: the accepted confirms and partials weigh ${round(confirmWeight)} in all (Σ reputation, a partial half), below ${MIN_CONFIRM_WEIGHT}`
        : `too little confirm weight: the confirms and partials not discredited by their record with the author weigh ${round(witnessWeight)} (Σ reputation × record, a partial half), below ${MIN_CONFIRM_WEIGHT}`
    } else if (countedConfirms > 0 && circled) {
      result.evidenceNote = `the author's discredited witnesses carry it: confirms whose record with the author is below ${DISCREDITED_RECORD} weigh ${round(discreditedWeight)} (Σ reputation), more than ${CONFIRM_MARGIN}× the others' ${round(witnessWeight)}`
    } else if (countedConfirms > 0 && contested) {
      result.evidenceNote = `contested: the confirms' reputation (${round(confirmWeight)}) is not ${CONFIRM_MARGIN}× the disputes' (${round(disputeWeight)})`
    } else if (countedConfirms > 0 && drawnAgainst) {
      result.evidenceNote = `the drawn witnesses dispute it: the disputes of witnesses drawn for this memory weigh ${round(drawnDisputeWeight)}, more than their confirms (${round(drawnConfirmWeight)}), and the witnesses its author chose do not outvote the draw`
    }
    const insufficient = insufficientOf(evidence, weighty)
    if (insufficient !== undefined) result.insufficient = insufficient
    return result
  }
})

/**
 * Too little to judge (docs/trust.md §1): without roots every agent has the default reputation, which
 * says nothing about anyone; with roots, when neither the author nor any witness is on a trust path
 * from them, the evidence is only what strangers say of themselves.
 */
export function insufficientOf (evidence: CountedEvidence, weighty: boolean): InsufficientTrust | undefined {
  if (!evidence.rooted) {
    return { code: 'NO_ROOTS', reason: 'this node has no trust roots (no agent of its own, none added with `isnad trust root add`): every agent has the default reputation, which says nothing about anyone' }
  }
  if (!weighty) {
    return { code: 'NO_PATH', reason: 'no trust path from this node\'s roots reaches the author or any witness of this memory' }
  }
  return undefined
}

export function weightOf (a: AcceptedAttestation, rep: number): number {
  return a.record.attestation === 'partial' ? PARTIAL_WEIGHT * rep : rep
}

export function noteOf (a: AcceptedAttestation, rep: number, weight: number): string {
  return a.record.attestation === 'partial'
    ? `partial: half a confirm, weight ${PARTIAL_WEIGHT} × reputation ${round(rep)} = ${round(weight)}`
    : `confirm weighted by reputation ${round(rep)}`
}

/**
 * The five steps of a reputation-weighted score, in the schema's order: the signature, the
 * confirms (the policy's own step), the anchors, the author's reputation and the disputes weighted
 * by their witnesses' reputation. Shared by isnad-reputation and isnad-draw.
 */
export function reputationContributions (evidence: CountedEvidence, confirms: TrustContribution, disputeWeight: number): TrustContribution[] {
  return [
    signatureStep(evidence.memory.signatureValid, evidence.authorKeyRefusal),
    confirms,
    anchorStep(evidence.anchors.length),
    {
      factor: 'author_reputation',
      points: roundTrustScore(W.authorReputation * evidence.authorReputation),
      reason: `${W.authorReputation} × author reputation ${round(evidence.authorReputation)}`
    },
    {
      factor: 'disputes',
      points: roundTrustScore(-W.perDispute * disputeWeight),
      reason: `disputes weighted by reputation: Σ rep = ${round(disputeWeight)} × −${W.perDispute}`
    }
  ]
}

export function confirmStep (c: number): TrustContribution {
  const first = W.firstConfirm * Math.min(1, c)
  const more = W.manyConfirms * Math.min(1, Math.max(0, (c - 1) / (MANY_CONFIRMS - 1)))
  return {
    factor: 'confirms',
    points: roundTrustScore(first + more),
    reason: `reputation-weighted confirms C = ${round(c)}: +${W.firstConfirm} × min(1, C), ` +
      `+${W.manyConfirms} × min(1, (C − 1)/${MANY_CONFIRMS - 1}) for C above 1`
  }
}

function round (value: number): number {
  return roundTrustScore(value)
}
