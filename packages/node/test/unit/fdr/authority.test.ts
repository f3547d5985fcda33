import { describe, expect, it } from 'vitest'
import { createAuthority, createMemoryVerifier, type SelectedMemory } from '../../../src/fdr/index.js'
import { nodeCryptoVerifier } from '../../../src/fast-crypto/index.js'
import { createWorld } from './fixtures.js'

/*
 * The Authority (FDR §3.4, §3.7, §5.1, §5.3; M-4, M-12): it judges submitted selections with
 * verifyProof() alone — no store, no prove — with requireEvidence = evidence present and method ≠ none.
 */

const verifier = createMemoryVerifier({ signatures: nodeCryptoVerifier })
/** The Authority is given only verifyProof: calling anything else would fail. */
const authorityVerifier = { verifyProof: verifier.verifyProof }

async function selection (method: 'isnad-ed25519' | 'merkle-inclusion' | 'hash' = 'isnad-ed25519', summary?: string): Promise<SelectedMemory> {
  const world = await createWorld(summary)
  const proved = createMemoryVerifier({ signatures: nodeCryptoVerifier, method }).prove({ worldId: world.id }, world)
  return {
    ref: { worldId: world.id },
    reason: 'matched tags #ops',
    confidence: 0.4,
    verified: proved.valid,
    evidence: { ...proved.proof!, verifiedAt: 1_770_000_000_000, verifiedBy: 'did:key:z6MkSelector' }
  }
}

describe('Authority', () => {
  it('accepts selections whose proofs verify, whatever the method, in the order submitted', async () => {
    const submitted = [await selection('isnad-ed25519'), await selection('merkle-inclusion', 'b'), await selection('hash', 'c')]
    const decision = createAuthority({ verifier: authorityVerifier }).check(JSON.parse(JSON.stringify(submitted)))
    expect(decision.accepted).toBe(true)
    expect(decision.verdicts.map((v) => v.worldId)).toEqual(submitted.map((s) => s.ref.worldId)) // M-4: never re-selects
    expect(decision.verdicts.every((v) => v.proofChecked)).toBe(true)
  })

  it('requireEvidence (§5.1): evidence must be present and its method not none', async () => {
    const good = await selection()
    const { evidence: _evidence, ...bare } = good
    const none = { ...good, evidence: { method: 'none' as const, verifiedAt: 1, verifiedBy: 'x' } }
    const strict = createAuthority({ verifier: authorityVerifier })
    expect(strict.check([bare]).verdicts[0]?.code).toBe('EVIDENCE_REQUIRED')
    expect(strict.check([none]).verdicts[0]?.code).toBe('EVIDENCE_REQUIRED')
    const lenient = createAuthority({ verifier: authorityVerifier, requireEvidence: false })
    expect(lenient.check([bare, none]).verdicts.map((v) => [v.accepted, v.proofChecked])).toEqual([[true, false], [true, false]])
  })

  it('extracts the proof (§5.3): verifiedAt and verifiedBy do not enter verification', async () => {
    const good = await selection()
    const restamped = { ...good, evidence: { ...good.evidence!, verifiedAt: 0, verifiedBy: 'someone else' } }
    expect(createAuthority({ verifier: authorityVerifier }).check([restamped]).accepted).toBe(true)
  })

  it('refuses a proof that fails, a proof of another memory, a method it does not accept, and garbage', async () => {
    const good = await selection()
    const other = await selection('isnad-ed25519', 'other')
    const authority = createAuthority({ verifier: authorityVerifier })
    const forged = JSON.parse(JSON.stringify(good)) as SelectedMemory & { evidence: { proof: { memory: { record: { content: { summary: string } } } } } }
    forged.evidence.proof.memory.record.content.summary = 'forged'
    expect(authority.check([forged]).verdicts[0]?.code).toBe('PROOF_INVALID')
    expect(authority.check([{ ...good, evidence: other.evidence }]).verdicts[0]?.code).toBe('WRONG_MEMORY')
    const cryptoOnly = createAuthority({ verifier: authorityVerifier, acceptedMethods: ['isnad-ed25519', 'merkle-inclusion'] })
    expect(cryptoOnly.check([await selection('hash', 'h')]).verdicts[0]?.code).toBe('METHOD_NOT_ACCEPTED')
    expect(authority.check([{ ref: {} }]).verdicts[0]?.code).toBe('SCHEMA_INVALID')
    expect(authority.check('nothing').accepted).toBe(false)
    const decision = authority.check([good, forged])
    expect([decision.accepted, decision.verdicts.map((v) => v.accepted)]).toEqual([false, [true, false]])
  })

  it('checks a whole MemoryTrace, and refuses an object that claims to be one but is not', async () => {
    const good = await selection()
    const trace = { selector: 'did:key:z6MkSelector', query: '{}', selectedAt: 1, atWorldId: 'isnad-log:9:ab', selected: [good] }
    const authority = createAuthority({ verifier: authorityVerifier })
    expect(authority.check(trace).accepted).toBe(true)
    expect(authority.check({ ...trace, selectedAt: -1 }).verdicts[0]?.code).toBe('SCHEMA_INVALID')
  })
})
