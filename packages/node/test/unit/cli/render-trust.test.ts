import { describe, expect, it } from 'vitest'
import { renderTrust } from '../../../src/operations/index.js'
import { computeTrust } from '../../../src/trust/index.js'
import { attestationEvidence, memoryEvidence, NOW } from '../trust/fixtures.js'

/** `trust explain` says plainly when the node has too little to judge, and why the level is what it is. */
describe('renderTrust', () => {
  it('says "too little to judge" for a node without roots, with the level\'s reason', () => {
    const trust = computeTrust({ memory: memoryEvidence(), attestations: [attestationEvidence({ id: 'a1', witness: 'w1' })], anchors: [], now: NOW, rooted: false }, { policy: 'isnad-reputation' })
    const text = renderTrust(trust)
    expect(trust.insufficient?.code).toBe('NO_ROOTS')
    expect(text).toMatch(/^trust \S+ Unverified/)
    expect(text).toContain('too little to judge (NO_ROOTS)')
    expect(text).toContain('level: too little to judge')
  })

  it('names the rule that set the level of an unwitnessed memory', () => {
    const text = renderTrust(computeTrust({ memory: memoryEvidence(), attestations: [], anchors: [], now: NOW }))
    expect(text).toMatch(/^trust 0\.29 Unverified/)
    expect(text).toContain('level: points 0.3 are in the Attested band, but the evidence allows only Unverified')
    expect(text).toContain('the score is held at 0.2999, the top of Unverified')
    expect(text).not.toContain('too little to judge')
  })
})
