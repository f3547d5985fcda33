import { describe, expect, it } from 'vitest'
import { isIsnadError } from '../../../src/errors/index.js'
import {
  computeTrust, DEFAULT_REPUTATION, DEFAULT_TRUST_POLICY, getTrustPolicy, isnadV01Policy, isTrustPolicyName,
  TRUST_POLICIES, TRUST_POLICY_NAMES, type TrustInput
} from '../../../src/trust/index.js'
import { memoryEvidence, NOW } from './fixtures.js'

const base: TrustInput = { memory: memoryEvidence(), attestations: [], anchors: [], now: NOW }

function codeOf (fn: () => unknown): string | undefined {
  try {
    fn()
    return undefined
  } catch (err) {
    return isIsnadError(err) ? err.code : 'not an IsnadError'
  }
}

describe('policy registry', () => {
  it('registers every policy name, under its own name', () => {
    for (const name of TRUST_POLICY_NAMES) {
      expect(TRUST_POLICIES[name].name, `registry: ${name}`).toBe(name)
      expect(getTrustPolicy(name), `getTrustPolicy: ${name}`).toBe(TRUST_POLICIES[name])
    }
    expect(DEFAULT_TRUST_POLICY, 'a new node\'s policy').toBe('isnad-reputation')
    expect(getTrustPolicy('isnad-v0.1'), 'isnad-v0.1').toBe(isnadV01Policy)
  })

  it('refuses an unknown policy name with USAGE (a setting, not the evidence, is wrong)', () => {
    expect(isTrustPolicyName('isnad-v9'), 'isTrustPolicyName: unknown').toBe(false)
    expect(codeOf(() => getTrustPolicy('isnad-v9')), 'getTrustPolicy: unknown').toBe('USAGE')
  })

  it('takes the policy by name or as a value, with the same result', () => {
    const byDefault = computeTrust(base)
    expect(computeTrust(base, { policy: 'isnad-v0.1' }), 'policy by name').toStrictEqual(byDefault)
    expect(computeTrust(base, { policy: isnadV01Policy }), 'policy as value').toStrictEqual(byDefault)
  })
})

describe('inputs that are bugs of the caller throw USAGE', () => {
  const cases: Array<[string, TrustInput]> = [
    ['now is NaN', { ...base, now: Number.NaN }],
    ['reputation is NaN', { ...base, reputation: () => Number.NaN }],
    ['reputation below 0', { ...base, reputation: () => -0.01 }],
    ['reputation above 1', { ...base, reputation: () => 1.01 }]
  ]
  it.each(cases)('%s', (name, input) => {
    expect(codeOf(() => computeTrust(input)), `${name}: error code`).toBe('USAGE')
  })

  it('an unknown author has the default reputation 0.5, the value of the schema\'s examples', () => {
    expect(computeTrust(base).factors.author_reputation, 'default reputation').toBe(DEFAULT_REPUTATION)
    expect(DEFAULT_REPUTATION, 'DEFAULT_REPUTATION').toBe(0.5)
  })
})
