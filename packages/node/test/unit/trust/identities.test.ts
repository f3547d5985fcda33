import { describe, expect, it } from 'vitest'
import { collectVotes, computeReputation, votesOf, type MemoryAttestations, type StoredAttestation } from '../../../src/reputation/index.js'
import { computeTrust, type KeyIdentities } from '../../../src/trust/index.js'
import { NOW, T0, attestationEvidence, iso, memoryEvidence, minutes } from './fixtures.js'

/**
 * A key table as a keyring would answer it (src/key-events's Keyring through keyringIdentities):
 * identity W has device keys w-laptop and w-phone; the author A has a device key a-phone; the
 * witness X's key x-1 was revoked as compromised since T0 + 10 min.
 */
const OWNERS: Record<string, string> = { 'w-laptop': 'W', 'w-phone': 'W', 'a-phone': 'author', 'x-1': 'X' }
const COMPROMISED_SINCE = T0 + minutes(10)
const identities: KeyIdentities = {
  identityOf: (did) => OWNERS[did] ?? did,
  named: (did) => OWNERS[did] !== undefined,
  refusalAt: (did, at) => did === 'x-1' && at >= COMPROMISED_SINCE ? 'KEY_REVOKED' : undefined,
  introducedAt: () => undefined
}

const trustOf = (attestations: ReturnType<typeof attestationEvidence>[], withIdentities = true): ReturnType<typeof computeTrust> =>
  computeTrust({ memory: memoryEvidence(), attestations, anchors: [], now: NOW, ...(withIdentities ? { identities } : {}) })

describe('trust counts identities, not keys', () => {
  it('two device keys of one identity are one witness, the newest attestation of either', () => {
    const both = [
      attestationEvidence({ id: 'a1', witness: 'w-laptop', at: T0 + minutes(5) }),
      attestationEvidence({ id: 'a2', witness: 'w-phone', at: T0 + minutes(6), verdict: 'dispute' })
    ]
    const byIdentity = trustOf(both)
    expect(byIdentity.factors.witness_count).toBe(1)
    expect(byIdentity.counted.attestations.map((a) => a.id)).toEqual(['a2'])
    expect(byIdentity.refused.attestations).toMatchObject([{ id: 'a1', code: 'SUPERSEDED_BY_NEWER', superseded_by: 'a2' }])
    // Vector: signature 0.2 + author reputation 0.5·0.2 − one dispute 0.15 = 0.15.
    expect(byIdentity.points).toBe(0.15)
    // Without a keyring the two keys are two witnesses (the behaviour before identities were counted).
    expect(trustOf(both, false).factors.witness_count).toBe(2)
  })

  it('the author\'s own device key never witnesses its memory', () => {
    const result = trustOf([attestationEvidence({ id: 'self', witness: 'a-phone' })])
    expect(result.factors.witness_count).toBe(0)
    expect(result.refused.attestations).toMatchObject([{ id: 'self', code: 'SELF_ATTESTATION' }])
    expect(result.points).toBe(0.3)
  })

  it('a key revoked as compromised since T: what it signed after T does not count, what it signed before does', () => {
    const before = attestationEvidence({ id: 'early', witness: 'x-1', at: COMPROMISED_SINCE - minutes(1) })
    const after = attestationEvidence({ id: 'late', witness: 'x-1', at: COMPROMISED_SINCE + minutes(1) })
    expect(trustOf([before]).factors.witness_count).toBe(1)
    const refused = trustOf([after])
    expect(refused.factors.witness_count).toBe(0)
    expect(refused.refused.attestations).toMatchObject([{ id: 'late', code: 'KEY_NOT_VALID' }])
    expect(refused.refused.attestations[0]?.reason).toContain('KEY_REVOKED')
    // A refused newer attestation never silences the key's valid older one.
    expect(trustOf([before, after]).counted.attestations.map((a) => a.id)).toEqual(['early'])
  })
})

describe('reputation graph nodes are identities', () => {
  const stored = (id: string, witness: string, minute: number, verdict: 'confirm' | 'dispute' = 'confirm'): StoredAttestation => ({
    id, record: { kind: 'attestation', version: 1, memory: 'm', witness, attestation: verdict, witnessed_at: iso(T0 + minutes(minute)) }
  })

  it('one vote per identity per memory, none from the author\'s keys or a refused key', () => {
    const memories: MemoryAttestations[] = [{
      author: 'author',
      attestations: [stored('1', 'w-laptop', 5), stored('2', 'w-phone', 6, 'dispute'), stored('3', 'a-phone', 5), stored('4', 'x-1', 11), stored('5', 'x-1', 9)]
    }]
    expect(votesOf(memories, identities)).toEqual([{ author: 'author', votes: [{ witness: 'W', verdict: 'dispute' }, { witness: 'X', verdict: 'confirm' }] }])
    // Without identities: four keys, the author's device key among them.
    expect(votesOf(memories)[0]?.votes).toHaveLength(4)
  })

  it('a root\'s device key endorses as the root; a lookup by any key of an identity gives the identity\'s reputation', () => {
    const memories: MemoryAttestations[] = [
      { author: 'author', attestations: [stored('1', 'w-laptop', 5)] },
      { author: 'other', attestations: [stored('2', 'w-phone', 5)] }
    ]
    const table = computeReputation(collectVotes(memories, identities), ['w-phone'])
    expect(table.roots).toEqual(['W'])
    expect(table.graph.agents).not.toContain('w-laptop')
    expect(table.lookup('w-laptop')).toBe(1)
    expect(table.lookup('author')).toBeGreaterThan(0)
    expect(table.lookup('author')).toBe(table.lookup('a-phone'))
    expect(table.describe('a-phone').path).toEqual(['W', 'author'])
  })
})

describe('a memory its author\'s key could not sign', () => {
  it('gets no signature points, no witness lifts it, and the explanation says why', async () => {
    const { computeTrust: compute } = await import('../../../src/trust/index.js')
    const { memoryEvidence: mem, confirms: conf, NOW: now } = await import('./fixtures.js')
    const identities = {
      identityOf: (d: string) => d,
      named: (d: string) => d === 'author',
      refusalAt: (d: string) => d === 'author' ? 'KEY_REVOKED' as const : undefined,
      introducedAt: () => undefined
    }
    for (const policy of ['isnad-v0.1', 'isnad-reputation'] as const) {
      const result = compute({ memory: mem(), attestations: conf(3), anchors: [], reputation: () => 1, now, identities }, { policy })
      const signature = result.contributions.find((c) => c.factor === 'author_signature')
      expect(signature?.points, `${policy}: no signature points`).toBe(0)
      expect(signature?.reason, `${policy}: why`).toContain('KEY_REVOKED')
      expect(result.level, `${policy}: Unverified whatever the witnesses say`).toBe('Unverified')
      expect(result.level_basis?.reason, `${policy}: the level's reason`).toContain('forged authorship')
    }
  })
})
