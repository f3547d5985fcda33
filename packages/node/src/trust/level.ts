import { TRUST_LEVELS, TRUST_SCORE_DECIMALS, roundTrustScore, type TrustLevel } from '../schema/index.js'
import { ANCHORED_THRESHOLD, ATTESTED_THRESHOLD, CONSENSUS_THRESHOLD, MANY_CONFIRMS, TRUST_LEVEL_THRESHOLDS } from './constants.js'

/** The provenance schema's level of a score in [0, 1]; a score on a bound takes the higher level. */
export function trustLevelOf (score: number): TrustLevel {
  for (const [level, bound] of TRUST_LEVEL_THRESHOLDS) {
    if (score >= bound) return level
  }
  return 'Unverified'
}

/** What the evidence of a memory holds, as the evidence band reads it. */
export interface LevelEvidence {
  /** Confirms that count under the policy (isnad-v0.1: every counted confirm; reputation policies: those carrying weight). */
  confirms: number
  /** Verified anchors that count (after the counting rules). */
  anchors: number
}

/**
 * The highest level the evidence allows, by the meaning the schema's "Trust Levels" table gives each
 * level (docs/trust.md §1): Unverified is "self-reported only" (no counted confirm); Attested, "at least one
 * witness", needs a counted confirm; Anchored, "external verification exists", needs that and a
 * verified anchor; Consensus, "multiple witnesses + anchors", needs MANY_CONFIRMS (3, the schema's
 * `confirmed >= 3`) counted confirms and a verified anchor. The levels are a ladder: each rung needs
 * what the one below it needs.
 */
export function evidenceLevelOf ({ confirms, anchors }: LevelEvidence): TrustLevel {
  if (confirms < 1) return 'Unverified'
  if (anchors < 1) return 'Attested'
  return confirms >= MANY_CONFIRMS ? 'Consensus' : 'Anchored'
}

/** A level's place on the scale, Unverified 0 to Consensus 3: what trust order compares first. */
export function levelRank (level: TrustLevel): number {
  return TRUST_LEVELS.indexOf(level)
}

export function lowerLevel (a: TrustLevel, b: TrustLevel): TrustLevel {
  return levelRank(a) <= levelRank(b) ? a : b
}

/** One unit of a 4-decimal score (TRUST_SCORE_DECIMALS). */
const SCORE_UNIT = 10 ** -TRUST_SCORE_DECIMALS

/**
 * The highest score a level's band holds, at 4 decimals: the next level's lower bound less one unit
 * (Unverified 0.2999, Attested 0.5999, Anchored 0.7999), 1 for Consensus. A memory's score is held
 * at or below its level's top (docs/trust.md §1, "one scale"), so the score alone says the level.
 */
export function topOfLevel (level: TrustLevel): number {
  const next = NEXT_BOUND[level]
  return next === undefined ? 1 : roundTrustScore(next - SCORE_UNIT)
}

const NEXT_BOUND: Readonly<Record<TrustLevel, number | undefined>> = {
  Unverified: ATTESTED_THRESHOLD, Attested: ANCHORED_THRESHOLD, Anchored: CONSENSUS_THRESHOLD, Consensus: undefined
}

/** The lowest score of a level's band: its threshold (0 for Unverified). What `--min-level` asks for. */
export function bottomOfLevel (level: TrustLevel): number {
  return TRUST_LEVEL_THRESHOLDS.find(([l]) => l === level)?.[1] ?? 0
}

/**
 * Why the evidence band stops where it does: the missing piece of the next rung. "A witness" is a
 * confirm the policy counts for the level (PolicyScore.countedConfirms), which can be fewer than the
 * confirms accepted by the counting rules (a reputation-weighted policy counts only those that weigh).
 */
export function evidenceReason (level: TrustLevel, { confirms, anchors }: LevelEvidence): string {
  switch (level) {
    case 'Unverified': return 'no confirm counts as a witness: self-reported only (Attested needs at least one)'
    case 'Attested': return `${witnesses(confirms)} but no verified anchor (Anchored needs one)`
    case 'Anchored': return `${witnesses(confirms)} and ${anchors} verified anchor${anchors === 1 ? '' : 's'} ` +
      `(Consensus needs ${MANY_CONFIRMS} witnesses and an anchor)`
    case 'Consensus': return `${witnesses(confirms)} and ${anchors} verified anchor${anchors === 1 ? '' : 's'}`
  }
}

function witnesses (confirms: number): string {
  return confirms === 1 ? '1 confirm counts as a witness' : `${confirms} confirms count as witnesses`
}
