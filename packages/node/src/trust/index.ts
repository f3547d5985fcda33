/**
 * Trust, computed locally and never gossiped as truth (docs/trust.md §0). Pure: no clock, no I/O, no
 * randomness. The result's zod schema is TrustResultSchema in src/schema.
 */
export { computeTrust } from './compute.js'
export { countEvidence, checkedReputation, defaultReputation } from './count-evidence.js'
export { trustLevelOf, evidenceLevelOf, lowerLevel, levelRank, topOfLevel, bottomOfLevel, type LevelEvidence } from './level.js'
export { evidenceLine, explanationLines, formatTrustScore, EXPLANATION_LINE_KINDS, type ExplanationLine, type ExplanationLineKind } from './explanation-text.js'
export { isnadV01Policy } from './isnad-v01-policy.js'
export { DRAWN_DISPUTE_MIN, isnadReputationPolicy, PARTIAL_WEIGHT, REPUTATION_POLICY_MAX_SLOPE } from './isnad-reputation-policy.js'
export { isnadDrawPolicy } from './isnad-draw-policy.js'
export { independentAttestations } from './independent-witnesses.js'
export { drawnAttestations, drawKeyIntroducedAfter, type DrawnWitnesses } from './drawn-witnesses.js'
export { TRUST_POLICIES, getTrustPolicy, isTrustPolicyName } from './policies.js'
export {
  ATTESTED_THRESHOLD, ANCHORED_THRESHOLD, CONSENSUS_THRESHOLD, TRUST_LEVEL_THRESHOLDS, ISNAD_V01_WEIGHTS,
  MANY_CONFIRMS, MANY_ANCHORS, DEFAULT_REPUTATION, DEFAULT_TRUST_POLICY, SCHEMA_TRUST_POLICY
} from './constants.js'
export type {
  AcceptedAnchor, AcceptedAttestation, AnchorEvidence, AttestationEvidence, AttestationScoreNote, ComputeTrustOptions,
  CountedEvidence, KeyIdentities, KeyRefusalCode, MemoryEvidence, PolicyScore, ReputationLookup, TrustInput, TrustPolicy,
  WitnessRequestEvidence
} from './types.js'
// The result's schema and types live in src/schema (schema → trust); trust is their public face too.
export {
  TRUST_LEVELS, TRUST_POLICY_NAMES, FORMER_TRUST_POLICY_NAMES, PRIVATE_CHECK_STATES, ATTESTATION_REFUSAL_CODES, ANCHOR_REFUSAL_CODES, TRUST_SCORE_DECIMALS,
  TrustResultSchema, roundTrustScore
} from '../schema/index.js'
export type {
  TrustResult, TrustLevel, TrustPolicyName, TrustFactors, TrustContribution, TrustContributionFactor,
  CountedAttestation, CountedAnchor, RefusedAttestation, RefusedAnchor, AttestationRefusalCode, AnchorRefusalCode,
  PrivateCheckState, WitnessSelection
} from '../schema/index.js'
