import type { TrustLevel } from '../schema/index.js'
import { TRUST_LEVEL_THRESHOLDS } from './constants.js'

/** The provenance schema's level of a score in [0, 1]; a score on a bound takes the higher level. */
export function trustLevelOf (score: number): TrustLevel {
  for (const [level, bound] of TRUST_LEVEL_THRESHOLDS) {
    if (score >= bound) return level
  }
  return 'Unverified'
}
