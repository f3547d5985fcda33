import type { TrustLevel, TrustPolicyName } from '../schema/index.js'

/**
 * Lower bound of each level (provenance schema, "Trust Levels": Unverified 0.0–0.3, Attested 0.3–0.6,
 * Anchored 0.6–0.8, Consensus 0.8–1.0). The table's ranges share their ends; a score equal to a bound
 * belongs to the higher level, so 0.3 is Attested (docs/trust.md §1: Unverified < 0.3 ≤ Attested).
 */
export const ATTESTED_THRESHOLD = 0.3
export const ANCHORED_THRESHOLD = 0.6
export const CONSENSUS_THRESHOLD = 0.8

/** Every level with its lower bound, highest first: the first bound ≤ score names the level. */
export const TRUST_LEVEL_THRESHOLDS: ReadonlyArray<readonly [TrustLevel, number]> = Object.freeze([
  ['Consensus', CONSENSUS_THRESHOLD],
  ['Anchored', ANCHORED_THRESHOLD],
  ['Attested', ATTESTED_THRESHOLD],
  ['Unverified', 0]
] as const)

/** The weights of `compute_trust_score` in the provenance schema's "Verification Algorithm". */
export const ISNAD_V01_WEIGHTS = Object.freeze({
  /** `if verify_signature(memory.provenance.author): score += 0.2` */
  authorSignature: 0.2,
  /** `if confirmed >= 1: score += 0.2` */
  firstConfirm: 0.2,
  /** `if confirmed >= 3: score += 0.1` */
  manyConfirms: 0.1,
  /** `if valid_anchors >= 1: score += 0.2` */
  firstAnchor: 0.2,
  /** `if valid_anchors >= 2: score += 0.1` */
  manyAnchors: 0.1,
  /** `score += author_rep * 0.2` */
  authorReputation: 0.2,
  /** `score -= disputes * 0.15` */
  perDispute: 0.15
})

/** `confirmed >= 3` earns ISNAD_V01_WEIGHTS.manyConfirms. */
export const MANY_CONFIRMS = 3
/** `valid_anchors >= 2` earns ISNAD_V01_WEIGHTS.manyAnchors. */
export const MANY_ANCHORS = 2

/**
 * Reputation of an agent the lookup knows nothing about: 0.5, the value both of the provenance
 * schema's examples use (`"author_reputation": 0.5`).
 * @default 0.5
 */
export const DEFAULT_REPUTATION = 0.5

/**
 * The policy a new node is set to (`isnad init`; docs/trust.md §1): the one that holds against the built-in
 * scenarios' attacks with only what a node has without configuration (its own agents as roots).
 * A node initialised before keeps what its `_meta/policy.json` names.
 * @default 'isnad-reputation'
 */
export const DEFAULT_TRUST_POLICY: TrustPolicyName = 'isnad-reputation'

/**
 * The policy computeTrust scores with when told none: the provenance schema's algorithm, which
 * needs no reputation (pure callers, bundles, vectors).
 * @default 'isnad-v0.1'
 */
export const SCHEMA_TRUST_POLICY: TrustPolicyName = 'isnad-v0.1'

export const DAY_MS = 24 * 60 * 60 * 1000
