import { afterEach, describe, expect, it, vi } from 'vitest'
import { createMemoryVerifier, type VerificationMethod, type World } from '../../../src/fdr/index.js'
import { nobleVerifier } from '../../../src/identity/index.js'
import { nodeCryptoVerifier } from '../../../src/fast-crypto/index.js'
import { createAgent, createAttestation } from '../../fixtures/records.js'
import { createWorld } from './fixtures.js'

/*
 * The pure MemoryVerifier (FDR §3.3–3.4): prove() from a world, verifyProof() from the proof alone,
 * for each method; tampering is caught; the same input always gives the same output; and neither
 * touches the clock or randomness (M-8), checked by making them throw while it runs.
 */

const METHODS: Array<Exclude<VerificationMethod, 'none'>> = ['isnad-ed25519', 'merkle-inclusion', 'hash']

/** A deep copy through JSON: what a proof is after a file or the network. */
function roundTrip<T> (value: T): T {
  return JSON.parse(JSON.stringify(value)) as T
}

describe('MemoryVerifier', () => {
  afterEach(() => { vi.restoreAllMocks() })

  it.each(METHODS)('%s: prove gives a proof that verifyProof accepts with nothing but the proof, with either Ed25519 verifier', async (method) => {
    const world = await createWorld()
    const result = createMemoryVerifier({ signatures: nodeCryptoVerifier, method }).prove({ worldId: world.id }, world)
    expect(result.valid, result.error).toBe(true)
    expect(result.proof?.method).toBe(method)
    // M-9: the Verifier's output has no time and no actor; the Selector adds those.
    expect(Object.keys(result)).toEqual(['valid', 'proof'])
    expect(Object.keys(result.proof!)).toEqual(['method', 'proof'])
    for (const signatures of [nodeCryptoVerifier, nobleVerifier]) {
      expect(createMemoryVerifier({ signatures }).verifyProof(roundTrip(result.proof!))).toBe(true)
    }
  })

  it('isnad-ed25519 carries every valid attestation and anchor, and drops those about another memory', async () => {
    const world = await createWorld()
    const stray = createAttestation(createAgent(16), 'bafyreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy')
    const proof = createMemoryVerifier({ signatures: nodeCryptoVerifier }).prove({ worldId: world.id }, { ...world, attestations: [...world.attestations, stray] }).proof?.proof as { attestations: unknown[], anchors: unknown[] }
    expect(proof.attestations).toHaveLength(2)
    expect(proof.anchors).toHaveLength(1)
  })

  it('prove refuses a world that is not the ref, or whose memory does not hash to it', async () => {
    const world = await createWorld()
    const other = await createWorld('another memory')
    const verifier = createMemoryVerifier({ signatures: nodeCryptoVerifier })
    expect(verifier.prove({ worldId: other.id }, world).valid).toBe(false)
    expect(verifier.prove({ worldId: world.id }, { ...world, memory: other.memory }).valid).toBe(false)
    const merkle = createMemoryVerifier({ signatures: nodeCryptoVerifier, method: 'merkle-inclusion' })
    const { inclusion: _inclusion, ...unlogged } = world
    expect(merkle.prove({ worldId: world.id }, unlogged).error).toMatch(/^NOT_FOUND/)
  })

  it.each(METHODS)('%s: verifyProof catches tampering', async (method) => {
    const world = await createWorld()
    const verifier = createMemoryVerifier({ signatures: nodeCryptoVerifier, method })
    const proof = verifier.prove({ worldId: world.id }, world).proof!
    const other = await createWorld('a different memory')
    const body = roundTrip(proof) as { method: string, proof: Record<string, any> }
    if (method === 'hash') body.proof.record.content.summary = 'the build was fine'
    else body.proof.memory.record.content.summary = 'the build was fine'
    expect(verifier.explainProof(body).code).toBe(method === 'hash' ? 'CID_MISMATCH' : 'SIGNATURE_INVALID')
    const moved = roundTrip(proof) as { method: string, proof: Record<string, any> }
    moved.proof.worldId = other.id
    expect(verifier.explainProof(moved).code).toBe('CID_MISMATCH')
    expect(verifier.verifyProof({ method: 'none' })).toBe(false)
    expect(verifier.verifyProof({ ...proof, method: method === 'hash' ? 'isnad-ed25519' : 'hash' })).toBe(false)
    expect(verifier.explainProof('not a proof').code).toBe('SCHEMA_INVALID')
  })

  it('isnad-ed25519 refuses a forged witness signature and evidence about another memory', async () => {
    const world = await createWorld()
    const verifier = createMemoryVerifier({ signatures: nodeCryptoVerifier })
    const proof = roundTrip(verifier.prove({ worldId: world.id }, world).proof!) as { method: 'isnad-ed25519', proof: any }
    proof.proof.attestations[0].record.attestation = 'dispute'
    expect(verifier.explainProof(proof).code).toBe('SIGNATURE_INVALID')
    const other = await createWorld('another')
    const mixed = roundTrip(verifier.prove({ worldId: world.id }, world).proof!) as { method: 'isnad-ed25519', proof: any }
    mixed.proof.attestations.push(roundTrip(other.attestations[0]!.signed))
    expect(verifier.explainProof(mixed).code).toBe('WRONG_MEMORY')
  })

  it.each(METHODS)('%s: is pure — the same input gives the same output, with the clock and randomness unusable', async (method) => {
    const world = await createWorld()
    const verifier = createMemoryVerifier({ signatures: nodeCryptoVerifier, method })
    const first = verifier.prove({ worldId: world.id }, world)
    const forbidden = (): never => { throw new Error('the Verifier touched the clock or randomness') }
    vi.spyOn(Date, 'now').mockImplementation(forbidden)
    vi.spyOn(Math, 'random').mockImplementation(forbidden)
    vi.spyOn(performance, 'now').mockImplementation(forbidden)
    vi.spyOn(globalThis.crypto, 'getRandomValues').mockImplementation(forbidden)
    for (let i = 0; i < 3; i++) {
      expect(verifier.prove({ worldId: world.id }, roundTrip(world) as World)).toEqual(first)
      expect(verifier.verifyProof(roundTrip(first.proof!))).toBe(true)
    }
  })
})
