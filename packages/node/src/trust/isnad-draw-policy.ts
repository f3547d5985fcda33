import { roundTrustScore, type WitnessSelection } from '../schema/index.js'
import { checkedReputation } from './count-evidence.js'
import { ISNAD_V01_WEIGHTS as W } from './constants.js'
import { CONFIRM_MARGIN, MIN_CONFIRM_WEIGHT, confirmStep, insufficientOf, noteOf, reputationContributions, weightOf } from './isnad-reputation-policy.js'
import type { AcceptedAttestation, AttestationScoreNote, CountedEvidence, PolicyScore, TrustPolicy } from './types.js'

/**
 * Policy `isnad-draw` (docs/trust.md §5a, protocols/witness-draw-v1.md): isnad-reputation's
 * reputation-weighted steps, where only a witness **the author did not choose** makes a memory
 * Attested. A witness is independent when the draw selected it for this memory (a verified ECVRF
 * draw below size / population, with a population this node accepts: CountedEvidence.drawn) or when
 * this node asked it itself (a private check: CountedEvidence.asked); every other witness was
 * recruited by the author, or volunteered, and an author who assembles a circle of agents that are
 * honest everywhere else (so reputable) controls all of those.
 *
 * With I = the independent confirms' weight (Σ rep, partials ½), O = the other confirms' weight,
 * DI and DO the disputes' (Σ rep):
 * - the confirm step takes C = I + min(O, I): the author's witnesses corroborate up to as much as
 *   the independent ones say, never in their place;
 * - every dispute costs 0.15 × rep, as in isnad-reputation;
 * - the evidence band allows Attested only when the drawn disputes weigh less than MIN_CONFIRM_WEIGHT
 *   (DD = Σ rep of the drawn witnesses that dispute, whatever the drawn confirms weigh: an author that
 *   grinds its memory's bytes can add drawn confirms by its colluders but cannot remove the honest
 *   witnesses the draw selects, protocols/witness-draw-v1.md §12.1), I ≥ MIN_CONFIRM_WEIGHT,
 *   I ≥ CONFIRM_MARGIN × DI (an independent dispute of like weight blocks it) and
 *   C ≥ CONFIRM_MARGIN × (DI + DO); it then counts the independent confirms and as many of the others.
 *   A dispute by a witness the author chose, or one this node asked, is weighed by the margins only.
 *
 * No circle rule: the draw, not the witnesses' history, is what makes a confirm independent, so an
 * honest witness who happens to know the author costs nothing.
 */
export const isnadDrawPolicy: TrustPolicy = Object.freeze({
  name: 'isnad-draw',
  description: 'isnad-reputation where only witnesses the author did not choose (drawn for the memory, or asked by this node) make a memory Attested',
  score (evidence: CountedEvidence): PolicyScore {
    const attestations = new Map<string, AttestationScoreNote>()
    // The witnesses the author did not choose, and the others, each tallied alike.
    const independentSide = emptySide()
    const otherSide = emptySide()
    let drawnDisputes = 0
    let drawnDisputers = 0
    let unweighted = 0
    let weighty = evidence.authorReputation > 0
    for (const a of evidence.attestations) {
      const rep = checkedReputation(evidence.reputation, a.record.witness)
      const independent = evidence.independent.has(a.id)
      const side = independent ? independentSide : otherSide
      const who = selectionNote(evidence, a)
      if (rep > 0) weighty = true
      else if (independent) unweighted++
      if (a.record.attestation === 'dispute') {
        side.disputes += rep
        if (evidence.drawn.has(a.id) && rep > 0) {
          drawnDisputes += rep
          drawnDisputers++
        }
        attestations.set(a.id, { points: roundTrustScore(-W.perDispute * rep), note: `dispute weighted by reputation ${round(rep)}; witness ${who}` })
        continue
      }
      const weight = weightOf(a, rep)
      side.weight += weight
      if (a.record.attestation === 'confirm' && rep > 0) side.confirms++
      attestations.set(a.id, { note: `${noteOf(a, rep, weight)}; witness ${who}` })
    }
    const { weight: independentWeight, disputes: independentDisputes, confirms: independentConfirms } = independentSide
    const { weight: otherWeight, disputes: otherDisputes, confirms: otherConfirms } = otherSide
    const confirmWeight = independentWeight + Math.min(otherWeight, independentWeight)
    const disputeWeight = independentDisputes + otherDisputes
    const confirms = confirmStep(confirmWeight)
    confirms.reason += ` (C = independent ${round(independentWeight)} + min(author-chosen ${round(otherWeight)}, independent))`
    const contributions = reputationContributions(evidence, confirms, disputeWeight)
    const witnessSelection = selectionOf(evidence, unweighted)
    const result: PolicyScore = { contributions, attestations, countedConfirms: 0, witnessSelection }
    if (independentWeight < MIN_CONFIRM_WEIGHT) {
      if (independentConfirms + otherConfirms > 0) {
        result.evidenceNote = `no witness the author did not choose: the confirms of witnesses drawn for this memory or asked by this node weigh ${round(independentWeight)}, below ${MIN_CONFIRM_WEIGHT}; the author's own witnesses (${round(otherWeight)}) only corroborate; ${witnessSelection.reason}`
      }
    } else if (drawnDisputes >= MIN_CONFIRM_WEIGHT) {
      result.evidenceNote = `${drawnDisputeWords(drawnDisputers, drawnDisputes)}: drawn disputes block Attested because grinding can add drawn confirms but cannot remove honest drawn witnesses (drawn disputes weighing ${MIN_CONFIRM_WEIGHT} or more block it, whatever the drawn confirms weigh)`
    } else if (independentWeight < CONFIRM_MARGIN * independentDisputes) {
      result.evidenceNote = `the witnesses the author did not choose disagree: their confirms (${round(independentWeight)}) are not ${CONFIRM_MARGIN}× their disputes (${round(independentDisputes)})`
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

/** What one side's witnesses bring: their confirms' weight (a partial half), their disputes' weight, their weighty confirms. */
interface SideTally { weight: number, disputes: number, confirms: number }

function emptySide (): SideTally {
  return { weight: 0, disputes: 0, confirms: 0 }
}

/** The drawn disputes that block Attested, in words: one witness's reputation, or their sum. */
function drawnDisputeWords (count: number, weight: number): string {
  return count === 1 ? `a drawn witness of reputation ${round(weight)} disputes` : `${count} drawn witnesses of reputation ${round(weight)} in all dispute`
}

/** Who selected an accepted attestation's witness, as its note says it. */
function selectionNote (evidence: CountedEvidence, a: AcceptedAttestation): string {
  if (evidence.drawn.has(a.id)) return 'drawn for this memory'
  if (evidence.asked.has(a.id)) return 'asked by this node'
  const refusal = evidence.drawRefusals.get(a.id)
  return refusal === undefined ? 'chosen by the author or unasked' : `chosen by the author or unasked (${refusal})`
}

/** The explanation's witness_selection: how many were drawn and asked, and whether this node made a private check. */
function selectionOf (evidence: CountedEvidence, unweighted: number): WitnessSelection {
  const drawn = evidence.drawn.size
  let asked = 0
  for (const id of evidence.asked) if (!evidence.drawn.has(id)) asked++
  const parts: string[] = []
  if (evidence.populationEstimate === undefined) {
    parts.push('no drawn witness counts: this node gave no population estimate')
  } else if (drawn === 0) {
    parts.push(`no drawn witness answered (population estimate ${evidence.populationEstimate})`)
  } else {
    parts.push(`${drawn} drawn witness${drawn === 1 ? '' : 'es'} answered (population estimate ${evidence.populationEstimate})`)
  }
  if (evidence.privateCheck === 'asked') {
    parts.push(asked === 0 ? 'this node made a private check, not answered yet' : `this node made a private check: ${asked} witness${asked === 1 ? '' : 'es'} it asked answered`)
  } else if (asked > 0) {
    parts.push(`${asked} witness${asked === 1 ? '' : 'es'} this node asked answered`)
  } else if (evidence.privateCheck === 'not-sampled') {
    parts.push('no private check by this node (not sampled)')
  } else {
    parts.push('no private check by this node')
  }
  if (unweighted > 0) parts.push(`${unweighted} of the witnesses the author did not choose weigh nothing here (no reputation from this node's roots)`)
  const selection: WitnessSelection = { drawn, asked, unweighted, reason: parts.join('; ') }
  if (evidence.populationEstimate !== undefined) selection.population_estimate = evidence.populationEstimate
  if (evidence.privateCheck !== undefined) selection.private_check = evidence.privateCheck
  return selection
}

function round (value: number): number {
  return roundTrustScore(value)
}
