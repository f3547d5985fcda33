import { roundTrustScore } from '../schema/index.js'
import { checkedReputation } from './count-evidence.js'
import { ISNAD_V01_WEIGHTS as W } from './constants.js'
import { CONFIRM_MARGIN, MIN_CONFIRM_WEIGHT, confirmStep, insufficientOf, noteOf, reputationContributions, weightOf } from './isnad-reputation-policy.js'
import type { AttestationScoreNote, CountedEvidence, PolicyScore, TrustPolicy } from './types.js'

/**
 * Policy `isnad-spot-check` (issue 18, docs/trust.md §5a): isnad-reputation's reputation-weighted
 * steps, where only a witness **the author did not choose** makes a memory Attested. A witness is
 * independent when the node asked it itself (a witness request by one of its own agents or trust
 * roots, addressed to it, before its verdict: CountedEvidence.independent); every other witness was
 * recruited by the author, or volunteered, and an author who assembles a circle of agents that are
 * honest everywhere else (so reputable) controls all of those.
 *
 * With I = the independent confirms' weight (Σ rep, partials ½), O = the other confirms' weight,
 * DI and DO the disputes' (Σ rep):
 * - the confirm step takes C = I + min(O, I): the author's witnesses corroborate up to as much as
 *   the independent ones say, never in their place;
 * - every dispute costs 0.15 × rep, as in isnad-reputation;
 * - the evidence band allows Attested only when I ≥ MIN_CONFIRM_WEIGHT, I ≥ CONFIRM_MARGIN × DI (an
 *   independent dispute of like weight blocks it: the node's own sample disagrees) and
 *   C ≥ CONFIRM_MARGIN × (DI + DO); it then counts the independent confirms and as many of the others.
 *
 * No circle rule: the node's draw, not the witnesses' history, is what makes a confirm independent,
 * so an honest witness who happens to know the author costs nothing.
 */
export const isnadSpotCheckPolicy: TrustPolicy = Object.freeze({
  name: 'isnad-spot-check',
  description: 'isnad-reputation where only witnesses the node asked itself (not the author\'s choice) make a memory Attested',
  needsSpotChecks: true,
  score (evidence: CountedEvidence): PolicyScore {
    const attestations = new Map<string, AttestationScoreNote>()
    let independentWeight = 0
    let otherWeight = 0
    let independentDisputes = 0
    let otherDisputes = 0
    let independentConfirms = 0
    let otherConfirms = 0
    let weighty = evidence.authorReputation > 0
    for (const a of evidence.attestations) {
      const rep = checkedReputation(evidence.reputation, a.record.witness)
      const independent = evidence.independent.has(a.id)
      const who = independent ? 'asked by this node' : 'chosen by the author or unasked'
      if (rep > 0) weighty = true
      if (a.record.attestation === 'dispute') {
        if (independent) independentDisputes += rep
        else otherDisputes += rep
        attestations.set(a.id, { points: roundTrustScore(-W.perDispute * rep), note: `dispute weighted by reputation ${rep}; witness ${who}` })
        continue
      }
      const weight = weightOf(a, rep)
      if (independent) independentWeight += weight
      else otherWeight += weight
      if (a.record.attestation === 'confirm' && rep > 0) {
        if (independent) independentConfirms++
        else otherConfirms++
      }
      attestations.set(a.id, { note: `${noteOf(a, rep, weight)}; witness ${who}` })
    }
    const confirmWeight = independentWeight + Math.min(otherWeight, independentWeight)
    const disputeWeight = independentDisputes + otherDisputes
    const confirms = confirmStep(confirmWeight)
    confirms.reason += ` (C = independent ${round(independentWeight)} + min(author-chosen ${round(otherWeight)}, independent))`
    const contributions = reputationContributions(evidence, confirms, disputeWeight)
    const result: PolicyScore = { contributions, attestations, countedConfirms: 0 }
    if (independentWeight < MIN_CONFIRM_WEIGHT) {
      if (independentConfirms + otherConfirms > 0) {
        result.evidenceNote = `no witness the author did not choose: the confirms of witnesses this node asked weigh ${round(independentWeight)}, below ${MIN_CONFIRM_WEIGHT}; the author's own witnesses (${round(otherWeight)}) only corroborate`
      }
    } else if (independentWeight < CONFIRM_MARGIN * independentDisputes) {
      result.evidenceNote = `the witnesses this node asked disagree: their confirms (${round(independentWeight)}) are not ${CONFIRM_MARGIN}× their disputes (${round(independentDisputes)})`
    } else if (confirmWeight < CONFIRM_MARGIN * disputeWeight) {
      result.evidenceNote = `contested: the confirms' reputation (${round(confirmWeight)}) is not ${CONFIRM_MARGIN}× the disputes' (${round(disputeWeight)})`
    } else {
      result.countedConfirms = independentConfirms + Math.min(otherConfirms, independentConfirms)
    }
    const insufficient = insufficientOf(evidence, weighty)
    if (insufficient !== undefined) result.insufficient = insufficient
    return result
  }
})

function round (value: number): number {
  return roundTrustScore(value)
}
