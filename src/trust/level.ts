import type { TrustLevel } from '../schema/index.js'
import { MANY_CONFIRMS, TRUST_LEVEL_THRESHOLDS } from './constants.js'

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

const RANK: Readonly<Record<TrustLevel, number>> = { Unverified: 0, Attested: 1, Anchored: 2, Consensus: 3 }

export function lowerLevel (a: TrustLevel, b: TrustLevel): TrustLevel {
  return RANK[a] <= RANK[b] ? a : b
}

/** Why the evidence band stops where it does: the missing piece of the next rung. */
export function evidenceReason (level: TrustLevel, { confirms, anchors }: LevelEvidence): string {
  switch (level) {
    case 'Unverified': return 'no counted confirm: self-reported only (Attested needs at least one counted confirm)'
    case 'Attested': return `${confirms} counted confirm${confirms === 1 ? '' : 's'} but no verified anchor (Anchored needs one)`
    case 'Anchored': return `${confirms} counted confirm${confirms === 1 ? '' : 's'} and ${anchors} verified anchor${anchors === 1 ? '' : 's'} ` +
      `(Consensus needs ${MANY_CONFIRMS} counted confirms and an anchor)`
    case 'Consensus': return `${confirms} counted confirms and ${anchors} verified anchor${anchors === 1 ? '' : 's'}`
  }
}
