import { roundTrustScore, type ContentType, type ViewObject, type ViewObjectType } from '../../schema/index.js'
import {
  DEFAULT_CORRECTION_TYPE, DEFAULT_DISPUTED_BELOW, DEFAULT_FACT_REVIEW_DAYS, HORIZON_OF_CONTENT, HORIZON_OF_OBJECT_TYPE,
  OBJECT_TYPE_OF_CONTENT, type Horizon
} from './constants.js'
import type { ViewTrust } from './reducer-input.js'

/**
 * The mapping rules of the view reducer (Memory Format Spec V3.1 §6, docs/views.md). Each is a small
 * pure function so the tests can walk the whole table.
 */

/** Settings from `_meta/policy.json` (its `views` block) that change the objects. */
export interface ViewRules {
  /** @default DEFAULT_FACT_REVIEW_DAYS (90) */
  factReviewDays: number
  /** @default DEFAULT_DISPUTED_BELOW (0.3) */
  disputedBelow: number
}

export const DEFAULT_VIEW_RULES: Readonly<ViewRules> = {
  factReviewDays: DEFAULT_FACT_REVIEW_DAYS,
  disputedBelow: DEFAULT_DISPUTED_BELOW
}

/**
 * fact, observation, insight, encounter → fact; decision → decision; commitment → commitment;
 * correction → the type of the object it supersedes (spec §9), else fact.
 */
export function objectTypeOf (content: ContentType, supersededType?: ViewObjectType): ViewObjectType {
  if (content === 'correction') return supersededType ?? DEFAULT_CORRECTION_TYPE
  return OBJECT_TYPE_OF_CONTENT[content]
}

/** By content type (constants.ts says why); a correction lasts as long as what it corrects. */
export function horizonOf (content: ContentType, type: ViewObjectType): Horizon {
  return content === 'correction' ? HORIZON_OF_OBJECT_TYPE[type] : HORIZON_OF_CONTENT[content]
}

/**
 * salience = confidence × (0.5 + 0.5 × trust score), 4 decimals. The author's confidence sets the
 * ceiling; trust earned from witnesses and anchors lifts the object toward it, and an unverified
 * memory keeps half its weight rather than vanishing (it is still the author's own memory).
 */
export function salienceOf (confidence: number, trustScore: number): number {
  const value = clamp01(confidence) * (0.5 + 0.5 * clamp01(trustScore))
  return roundTrustScore(clamp01(value))
}

/**
 * superseded when a successor exists (spec §9), else disputed when the trust policy counted a dispute
 * and the score fell below `disputedBelow` (the "Unverified" band), else active. `done` and
 * `cancelled` are never derived: they come from the caller's hints.
 */
export function statusOf (trust: ViewTrust, hasSuccessor: boolean, rules: ViewRules = DEFAULT_VIEW_RULES): ViewObject['status'] {
  if (hasSuccessor) return 'superseded'
  if (trust.dispute_count > 0 && trust.score < rules.disputedBelow) return 'disputed'
  return 'active'
}

function clamp01 (value: number): number {
  return Math.min(1, Math.max(0, value))
}
