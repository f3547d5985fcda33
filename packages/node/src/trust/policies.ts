import { IsnadError } from '../errors/index.js'
import { FORMER_TRUST_POLICY_NAMES, TRUST_POLICY_NAMES, type TrustPolicyName } from '../schema/index.js'
import { isnadReputationPolicy } from './isnad-reputation-policy.js'
import { isnadDrawPolicy } from './isnad-draw-policy.js'
import { isnadV01Policy } from './isnad-v01-policy.js'
import type { TrustPolicy } from './types.js'

/** Every policy a node can be set to, by name (the node's setting: `_meta/policy.json` trust_policy). */
export const TRUST_POLICIES: Readonly<Record<TrustPolicyName, TrustPolicy>> = Object.freeze({
  'isnad-v0.1': isnadV01Policy,
  'isnad-reputation': isnadReputationPolicy,
  'isnad-draw': isnadDrawPolicy
})

export function isTrustPolicyName (name: string): name is TrustPolicyName {
  return (TRUST_POLICY_NAMES as readonly string[]).includes(name)
}

/**
 * The policy a setting names (config file, `--policy`); a former name (FORMER_TRUST_POLICY_NAMES)
 * gives the policy it names now. USAGE for a name no policy has.
 */
export function getTrustPolicy (name: string): TrustPolicy {
  const current = Object.hasOwn(FORMER_TRUST_POLICY_NAMES, name) ? FORMER_TRUST_POLICY_NAMES[name] as TrustPolicyName : name
  if (!isTrustPolicyName(current)) {
    throw new IsnadError('USAGE', `unknown trust policy ${JSON.stringify(name)}; known: ${TRUST_POLICY_NAMES.join(', ')}`)
  }
  return TRUST_POLICIES[current]
}
