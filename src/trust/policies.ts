import { IsnadError } from '../errors/index.js'
import { TRUST_POLICY_NAMES, type TrustPolicyName } from '../schema/index.js'
import { isnadReputationPolicy } from './isnad-reputation-policy.js'
import { isnadSpotCheckPolicy } from './isnad-spot-check-policy.js'
import { isnadV01Policy } from './isnad-v01-policy.js'
import type { TrustPolicy } from './types.js'

/** Every policy a node can be set to, by name (the node's setting: `_meta/policy.json` trust_policy). */
export const TRUST_POLICIES: Readonly<Record<TrustPolicyName, TrustPolicy>> = Object.freeze({
  'isnad-v0.1': isnadV01Policy,
  'isnad-reputation': isnadReputationPolicy,
  'isnad-spot-check': isnadSpotCheckPolicy
})

export function isTrustPolicyName (name: string): name is TrustPolicyName {
  return (TRUST_POLICY_NAMES as readonly string[]).includes(name)
}

/** The policy a setting names (config file, `--policy`); USAGE for a name no policy has. */
export function getTrustPolicy (name: string): TrustPolicy {
  if (!isTrustPolicyName(name)) {
    throw new IsnadError('USAGE', `unknown trust policy ${JSON.stringify(name)}; known: ${TRUST_POLICY_NAMES.join(', ')}`)
  }
  return TRUST_POLICIES[name]
}
