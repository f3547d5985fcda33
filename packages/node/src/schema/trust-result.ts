import { z } from 'zod'
import { ANCHOR_TYPES, ATTESTATION_VERDICTS } from './records.js'
import { didKey, isoTimestamp, recordCid } from './primitives.js'
import { ANCHOR_STATES } from './memory-view.js'
import { AgentEvidenceSchema } from './agent-evidence.js'

/**
 * The trust result: a score with its explanation (docs/trust.md §0, "every score comes with its explanation").
 * Its `score`, `factors` and `computed_at` have the provenance schema's `trust` block shape, so the
 * memory view prints it as is; the rest says which evidence counted, which was refused and why.
 */

/** The provenance schema's "Trust Levels" table, lowest first. Thresholds live in src/trust. */
export const TRUST_LEVELS = ['Unverified', 'Attested', 'Anchored', 'Consensus'] as const
export type TrustLevel = (typeof TRUST_LEVELS)[number]

/** Trust policies a node can be set to (docs/trust.md §1). */
export const TRUST_POLICY_NAMES = ['isnad-v0.1', 'isnad-reputation', 'isnad-draw'] as const
export type TrustPolicyName = (typeof TRUST_POLICY_NAMES)[number]

/**
 * Names a node setting (`_meta/policy.json` trust_policy) may still hold from before a policy was
 * renamed, with the policy they name now: `isnad-spot-check` counted only witnesses the node asked
 * itself; `isnad-draw` counts those and the witnesses the draw selected (docs/trust.md §5a).
 */
export const FORMER_TRUST_POLICY_NAMES: Readonly<Record<string, TrustPolicyName>> = Object.freeze({
  'isnad-spot-check': 'isnad-draw'
})

/** One contribution per step of the scoring algorithm, in the provenance schema's order. */
export const TRUST_CONTRIBUTION_FACTORS = ['author_signature', 'confirms', 'anchors', 'author_reputation', 'disputes'] as const
export type TrustContributionFactor = (typeof TRUST_CONTRIBUTION_FACTORS)[number]

/** Why an attestation did not count. Stable: callers and tests branch on the code, never the reason. */
export const ATTESTATION_REFUSAL_CODES = [
  'SIGNATURE_INVALID', 'WRONG_MEMORY', 'SELF_ATTESTATION', 'TIMESTAMP_IN_FUTURE', 'BEFORE_MEMORY',
  'SUPERSEDED_BY_NEWER', 'DUPLICATE_ATTESTATION', 'KEY_NOT_VALID'
] as const
export type AttestationRefusalCode = (typeof ATTESTATION_REFUSAL_CODES)[number]

/** Why an anchor did not count. */
export const ANCHOR_REFUSAL_CODES = [
  'SIGNATURE_INVALID', 'WRONG_MEMORY', 'TIMESTAMP_IN_FUTURE', 'ANCHOR_NOT_VERIFIED', 'DUPLICATE_ANCHOR'
] as const
export type AnchorRefusalCode = (typeof ANCHOR_REFUSAL_CODES)[number]

/** Scores and points carry 4 decimals (see roundTrustScore). */
export const TRUST_SCORE_DECIMALS = 4
const SCALE = 10 ** TRUST_SCORE_DECIMALS

/**
 * Rounds to TRUST_SCORE_DECIMALS, half toward +∞ (`Math.round`), and never returns -0.
 * Why: the weights are decimal fractions that binary floating point cannot hold, so a sum lands a hair
 * off its decimal value, on either side of a level threshold. 0.1 + 0.2 is 0.30000000000000004, and
 * signature + 3 confirms + 2 anchors + 0.2 × reputation 0.5 − 4 disputes, which is 0.3 in decimal,
 * sums to 0.29999999999999993 in doubles: Unverified instead of Attested. Rounding restores the
 * decimal value, makes the score independent of summation order, and lets any implementation
 * reproduce the normative vectors (protocols/vectors/trust/) bit for bit.
 */
export function roundTrustScore (value: number): number {
  return Math.round(value * SCALE) / SCALE + 0
}

const points = z.number().finite()
const count = z.number().int().min(0)

export const TrustFactorsSchema = z.strictObject({
  // The provenance schema's names (its "trust.factors" block) ...
  author_reputation: z.number().min(0).max(1),
  witness_count: count,
  anchor_count: count,
  age_days: count,
  dispute_count: count,
  // ... and what the explanation adds.
  confirm_count: count,
  partial_count: count,
  signature_valid: z.boolean()
})

export const TrustContributionSchema = z.strictObject({
  factor: z.enum(TRUST_CONTRIBUTION_FACTORS),
  points,
  reason: z.string().min(1)
})

export const CountedAttestationSchema = z.strictObject({
  id: recordCid,
  witness: didKey,
  verdict: z.enum(ATTESTATION_VERDICTS),
  witnessed_at: isoTimestamp,
  /** What this attestation alone adds, when the policy can say (confirms count as a group). */
  points: points.optional(),
  note: z.string().optional()
})

export const CountedAnchorSchema = z.strictObject({
  id: recordCid,
  type: z.enum(ANCHOR_TYPES),
  reference: z.string()
})

export const RefusedAttestationSchema = z.strictObject({
  id: recordCid,
  witness: didKey,
  code: z.enum(ATTESTATION_REFUSAL_CODES),
  reason: z.string().min(1),
  /** For SUPERSEDED_BY_NEWER and DUPLICATE_ATTESTATION: the attestation that counts instead. */
  superseded_by: recordCid.optional()
})

export const RefusedAnchorSchema = z.strictObject({
  id: recordCid,
  code: z.enum(ANCHOR_REFUSAL_CODES),
  reason: z.string().min(1),
  /** For ANCHOR_NOT_VERIFIED: the anchor's verification state. */
  state: z.enum(ANCHOR_STATES).optional(),
  /** For DUPLICATE_ANCHOR: the anchor that counts instead. */
  duplicate_of: recordCid.optional()
})

/** Which rule set a result's level (docs/trust.md §1): the score band, the evidence band, both (equal), or too little to judge. */
export const TRUST_LEVEL_RULES = ['score', 'evidence', 'both', 'insufficient'] as const
export type TrustLevelRule = (typeof TRUST_LEVEL_RULES)[number]

/**
 * The level is the lower of the score's band and the band the evidence allows (Attested needs a
 * counted confirm, Anchored a verified anchor too, Consensus three counted confirms and an anchor).
 */
export const TrustLevelBasisSchema = z.strictObject({
  /** The band the points reach (TrustResult.points; the score's own band in results stored before points existed). */
  score_level: z.enum(TRUST_LEVELS),
  evidence_level: z.enum(TRUST_LEVELS),
  set_by: z.enum(TRUST_LEVEL_RULES),
  reason: z.string().min(1)
})

/** Why a node has too little to judge (no roots at all; nothing in the evidence on a path from its roots). */
export const INSUFFICIENT_TRUST_CODES = ['NO_ROOTS', 'NO_PATH'] as const
export type InsufficientTrustCode = (typeof INSUFFICIENT_TRUST_CODES)[number]

export const InsufficientTrustSchema = z.strictObject({
  code: z.enum(INSUFFICIENT_TRUST_CODES),
  reason: z.string().min(1)
})

/** Whether the computing node made a private check of the memory (protocols/witness-draw-v1.md). */
export const PRIVATE_CHECK_STATES = ['asked', 'not-sampled'] as const
export type PrivateCheckState = (typeof PRIVATE_CHECK_STATES)[number]

/**
 * Who selected the witnesses, for a policy that counts only witnesses the author did not choose
 * (isnad-draw, docs/trust.md §5a): how many accepted attestations the draw selected for this memory
 * at this node's estimate, how many came from witnesses this node asked itself, and whether it made a
 * private check; `reason` says it in words, including when no drawn witness answered.
 */
export const WitnessSelectionSchema = z.strictObject({
  /** N̂: the distinct agents of this node's reputation graph; absent when the caller gave none (no draw then counts). */
  population_estimate: count.optional(),
  /** Accepted attestations drawn for this memory (a verified draw, below size / population, a population this node accepts). */
  drawn: count,
  /** Accepted attestations by witnesses this node asked itself and that the draw did not select. */
  asked: count,
  /** Of the drawn and asked ones, those whose witness has no reputation at this node (they weigh nothing). */
  unweighted: count,
  private_check: z.enum(PRIVATE_CHECK_STATES).optional(),
  reason: z.string().min(1)
})

export const TrustResultSchema = z.strictObject({
  /**
   * The trust score on one scale with the level (docs/trust.md §1): the points held within the
   * level's band, so its band is always the level and ordering by it never puts a lower level above a higher.
   */
  score: z.number().min(0).max(1),
  /**
   * The algorithm's sum clamped to [0, 1], before the level's band holds it (absent in results
   * stored by versions where the score was the points). `score` is below it only when the evidence
   * (or too little to judge) set a lower level than the points' band.
   */
  points: z.number().min(0).max(1).optional(),
  level: z.enum(TRUST_LEVELS),
  policy: z.enum(TRUST_POLICY_NAMES),
  computed_at: isoTimestamp,
  factors: TrustFactorsSchema,
  /** Rounded to 4 decimals, the points sum to the unclamped score. */
  contributions: z.array(TrustContributionSchema),
  counted: z.strictObject({
    attestations: z.array(CountedAttestationSchema),
    anchors: z.array(CountedAnchorSchema)
  }),
  refused: z.strictObject({
    attestations: z.array(RefusedAttestationSchema),
    anchors: z.array(RefusedAnchorSchema)
  }),
  /** Present (true) when the sum fell outside [0, 1]; `unclamped_score` is that sum. */
  clamped: z.boolean().optional(),
  unclamped_score: z.number().optional(),
  /** Which rule set `level` (absent only in results stored by versions that set the level by the score alone). */
  level_basis: TrustLevelBasisSchema.optional(),
  /** Present when the node has too little to judge: `level` is then Unverified whatever the score. */
  insufficient: InsufficientTrustSchema.optional(),
  /** Who selected the witnesses, under a policy that tells them apart (isnad-draw). */
  witness_selection: WitnessSelectionSchema.optional(),
  /** The agents this score read whose evidence the node does not hold, and whether it fetched it (docs/trust.md §3a). */
  evidence: z.array(AgentEvidenceSchema).optional()
}).superRefine((result, ctx) => {
  const basis = result.level_basis
  if (basis !== undefined) {
    const lower = TRUST_LEVELS.indexOf(basis.score_level) <= TRUST_LEVELS.indexOf(basis.evidence_level) ? basis.score_level : basis.evidence_level
    const expected = result.insufficient === undefined ? lower : 'Unverified'
    if (result.level !== expected) {
      ctx.addIssue({ code: 'custom', path: ['level'], message: `level ${result.level} is not ${expected}, what level_basis gives` })
    }
  }
  const sum = roundTrustScore(result.contributions.reduce((total, c) => total + c.points, 0))
  const unclamped = result.unclamped_score ?? result.points ?? result.score
  if (result.points !== undefined && result.score > result.points) {
    ctx.addIssue({ code: 'custom', path: ['score'], message: `score ${result.score} is above the points ${result.points}` })
  }
  if (sum !== unclamped) {
    ctx.addIssue({ code: 'custom', path: ['contributions'], message: `contributions sum to ${sum}, not ${unclamped}` })
  }
  if ((result.clamped === true) !== (result.unclamped_score !== undefined)) {
    ctx.addIssue({ code: 'custom', path: ['clamped'], message: 'clamped and unclamped_score go together' })
  }
})

export type TrustFactors = z.infer<typeof TrustFactorsSchema>
export type TrustContribution = z.infer<typeof TrustContributionSchema>
export type CountedAttestation = z.infer<typeof CountedAttestationSchema>
export type CountedAnchor = z.infer<typeof CountedAnchorSchema>
export type RefusedAttestation = z.infer<typeof RefusedAttestationSchema>
export type RefusedAnchor = z.infer<typeof RefusedAnchorSchema>
export type TrustResult = z.infer<typeof TrustResultSchema>
export type TrustLevelBasis = z.infer<typeof TrustLevelBasisSchema>
export type InsufficientTrust = z.infer<typeof InsufficientTrustSchema>
export type WitnessSelection = z.infer<typeof WitnessSelectionSchema>
