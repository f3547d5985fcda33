import { createPublicKey, verify as bareOpensslVerify } from 'node:crypto'
import { ed25519 } from '@noble/curves/ed25519.js'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { isIsnadError } from '../../../src/errors/index.js'
import { createNobleVerifier, keyPairFromSeed, nobleVerifier, publicKeyOfSeed, signBytes, verifySignatureAsync, type SignatureVerifier } from '../../../src/identity/index.js'
import { NODE_RECORD_FAST_PATHS, nodeCryptoVerifier } from '../../../src/fast-crypto/index.js'
import { GROUP_ORDER_LE, hasCanonicalScalar } from '../../../src/identity/ed25519.js'
import { signatureBackend, sodiumVerify } from '../../../src/fast-crypto/index.js'
import { fromHex, readVectorFile, toHex, type Ed25519Vector, type Ed25519VectorFile } from './vectors.js'

const L = 2n ** 252n + 27742317777372353535851937790883648493n
const VERIFIERS: SignatureVerifier[] = [nobleVerifier, createNobleVerifier(), createNobleVerifier({ keyCacheSize: 2 }), nodeCryptoVerifier]
const FILES = ['ed25519/rfc8032.json', 'ed25519/edge-cases.json']

const rfc8032 = readVectorFile<Ed25519VectorFile>('ed25519/rfc8032.json').vectors
const edgeCases = readVectorFile<Ed25519VectorFile>('ed25519/edge-cases.json').vectors
const ALL: Array<Ed25519Vector & { file: string }> = FILES.flatMap((file) =>
  readVectorFile<Ed25519VectorFile>(file).vectors.map((v) => ({ ...v, file })))

/** What a verifier did with a vector: its verdict, or the code it threw. */
function outcome (verifier: SignatureVerifier, v: Ed25519Vector): string {
  try {
    return verifier.verify(fromHex(v.signature), fromHex(v.message), fromHex(v.public_key)) ? 'valid' : 'invalid'
  } catch (err) {
    return isIsnadError(err) ? `throws ${err.code}` : `throws non-IsnadError ${String(err)}`
  }
}

/**
 * The same for verifyAsync: its verdict, or the code it rejected with. A synchronous throw is an
 * outcome of its own, so a verifier that throws instead of rejecting fails the comparison.
 */
async function outcomeAsync (verifier: SignatureVerifier, v: Ed25519Vector): Promise<string> {
  if (verifier.verifyAsync === undefined) return 'no verifyAsync'
  let promise: Promise<boolean>
  try {
    promise = verifier.verifyAsync(fromHex(v.signature), fromHex(v.message), fromHex(v.public_key))
  } catch (err) {
    return `throws synchronously ${String(err)}`
  }
  return await promise.then(
    (valid) => valid ? 'valid' : 'invalid',
    (err: unknown) => isIsnadError(err) ? `throws ${err.code}` : `throws non-IsnadError ${String(err)}`
  )
}

const expectedOutcome = (v: Ed25519Vector): string => v.expected === 'throws' ? `throws ${v.error_code ?? '?'}` : v.expected

function numberFromLE (bytes: Uint8Array): bigint {
  let n = 0n
  for (let i = bytes.length - 1; i >= 0; i--) n = (n << 8n) | BigInt(bytes[i] ?? 0)
  return n
}

const SPKI_ED25519_PREFIX = fromHex('302a300506032b6570032100')
/** node:crypto with none of the project's checks in front of it. */
function bareOpenssl (v: Ed25519Vector): boolean {
  const key = createPublicKey({ key: Buffer.concat([SPKI_ED25519_PREFIX, fromHex(v.public_key)]), format: 'der', type: 'spki' })
  return bareOpensslVerify(null, fromHex(v.message), key, fromHex(v.signature))
}

describe('Ed25519 verifiers over protocols/vectors/ed25519', () => {
  it('has the vectors this suite relies on', () => {
    expect(rfc8032.map((v) => v.id)).toEqual(['rfc8032-test-1', 'rfc8032-test-2', 'rfc8032-test-3', 'rfc8032-test-1024', 'rfc8032-test-sha-abc'])
    const ids = new Set(edgeCases.map((v) => v.id))
    for (const id of ['s-plus-l', 's-equals-l', 's-l-minus-1', 's-l-plus-1', 's-all-ones', 's-top-3-bits',
      'a-mixed-order-8-k-divisible', 'a-mixed-order-8-k-odd', 'r-torsion-component-8', 'r-small-order-8', 'r-identity',
      'a-noncanonical-edff-7f', 'r-noncanonical-0100-80', 'flip-message-first-bit', 'flip-signature-s-bit-0', 'flip-key-bit-0',
      'signature-length-0', 'signature-length-63', 'signature-length-65', 'key-length-31', 'key-length-33']) {
      expect(ids.has(id), `edge-cases.json lacks ${id}`).toBe(true)
    }
    expect(edgeCases.filter((v) => v.group === 'public-key-small-order'), 'all 8 canonical torsion encodings').toHaveLength(8)
    expect(new Set(ALL.map((v) => v.id)).size, 'vector ids are unique').toBe(ALL.length)
  })

  // The one loop: every vector, both verifiers, both forms, the expected verdict and agreement.
  it.each(ALL)('$file $id', async (v) => {
    const expected = expectedOutcome(v)
    const outcomes = VERIFIERS.map((verifier) => outcome(verifier, v))
    const asyncOutcomes = await Promise.all(VERIFIERS.map(async (verifier) => await outcomeAsync(verifier, v)))
    VERIFIERS.forEach((verifier, i) => {
      expect(outcomes[i], `${v.id}: ${verifier.name} (${v.comment})`).toBe(expected)
      expect(asyncOutcomes[i], `${v.id}: ${verifier.name} verifyAsync (${v.comment})`).toBe(expected)
      expect(asyncOutcomes[i], `${v.id}: ${verifier.name} verify and verifyAsync disagree`).toBe(outcomes[i])
    })
    VERIFIERS.forEach((verifier, i) => expect(outcomes[i], `${v.id}: ${VERIFIERS[0]?.name} and ${verifier.name} #${i} disagree`).toBe(outcomes[0]))
  })

  it('verifySignatureAsync falls back to verify, and turns its throw into a rejection', async () => {
    const [valid] = rfc8032
    if (valid === undefined) throw new Error('no RFC 8032 vector')
    const syncOnly: SignatureVerifier = { name: 'sync only', verify: nobleVerifier.verify }
    expect(await verifySignatureAsync(syncOnly, fromHex(valid.signature), fromHex(valid.message), fromHex(valid.public_key))).toBe(true)
    const rejected = verifySignatureAsync(syncOnly, new Uint8Array(63), fromHex(valid.message), fromHex(valid.public_key))
    await expect(rejected).rejects.toMatchObject({ code: 'SIGNATURE_MALFORMED' })
  })

  it.each(rfc8032)('$id: signBytes, keyPairFromSeed and publicKeyOfSeed reproduce the RFC 8032 bytes', (v) => {
    const secretKey = fromHex(v.secret_key ?? '')
    expect(toHex(keyPairFromSeed(secretKey).publicKey), `${v.id}: public key`).toBe(v.public_key)
    expect(toHex(publicKeyOfSeed(secretKey)), `${v.id}: public key (publicKeyOfSeed)`).toBe(v.public_key)
    expect(toHex(NODE_RECORD_FAST_PATHS.publicKeyOfSeed(secretKey)), `${v.id}: public key (the node's cached derivation)`).toBe(v.public_key)
    expect(toHex(NODE_RECORD_FAST_PATHS.publicKeyOfSeed(secretKey)), `${v.id}: public key (from the node's cache)`).toBe(v.public_key)
    expect(toHex(signBytes(fromHex(v.message), secretKey)), `${v.id}: signature`).toBe(v.signature)
  })

  // The vectors' zip215 / cofactorless fields say what lax verifiers accept; checking them against
  // noble's ZIP-215 mode and bare OpenSSL keeps each comment true ("passes cofactored but not
  // cofactorless", "bare OpenSSL accepts this small-order key") and shows the policy is load-bearing.
  // If only the bare node:crypto line fails after a Node/OpenSSL upgrade, OpenSSL changed: re-read
  // the vector comments; the verifiers' verdicts are checked by the loop above.
  it.each(edgeCases.filter((v) => v.expected !== 'throws'))('$id: still exercises what it claims', (v) => {
    expect(ed25519.verify(fromHex(v.signature), fromHex(v.message), fromHex(v.public_key), { zip215: true }), `${v.id}: ZIP-215 verdict`).toBe(v.zip215)
    expect(bareOpenssl(v), `${v.id}: bare node:crypto verdict`).toBe(v.cofactorless)
  })

  it('every vector: hasCanonicalScalar equals the BigInt comparison S < L', () => {
    for (const v of ALL) {
      const signature = fromHex(v.signature)
      if (signature.length !== 64) continue
      expect(hasCanonicalScalar(signature), `${v.id}: S canonical`).toBe(numberFromLE(signature.subarray(32)) < L)
    }
  })
})

describe('hasCanonicalScalar (RFC 8032 §5.1.7 step 1, byte comparison)', () => {
  const withS = (s: bigint): Uint8Array => {
    const signature = new Uint8Array(64)
    for (let i = 0; i < 32; i++) signature[32 + i] = Number((s >> BigInt(8 * i)) & 0xffn)
    return signature
  }

  it('compares against L in little-endian', () => {
    expect(numberFromLE(GROUP_ORDER_LE)).toBe(L)
    expect(GROUP_ORDER_LE).toHaveLength(32)
  })

  it.each([
    ['0', 0n, true],
    ['1', 1n, true],
    ['2^252', 2n ** 252n, true],
    ['L − 1', L - 1n, true],
    ['L', L, false],
    ['L + 1', L + 1n, false],
    ['2^252 + 2^128 − 1', 2n ** 252n + 2n ** 128n - 1n, false],
    ['2^253', 2n ** 253n, false],
    ['2^256 − 1', 2n ** 256n - 1n, false]
  ])('S = %s → %s', (_name, s, canonical) => {
    expect(hasCanonicalScalar(withS(s))).toBe(canonical)
  })

  it('agrees with BigInt on the edge vectors S = L − 1, L, L + 1, 2^256 − 1', () => {
    const byId = new Map(edgeCases.map((v) => [v.id, v]))
    for (const [id, canonical] of [['s-l-minus-1', true], ['s-equals-l', false], ['s-l-plus-1', false], ['s-all-ones', false]] as const) {
      const v = byId.get(id)
      expect(v, id).toBeDefined()
      expect(hasCanonicalScalar(fromHex(v?.signature ?? '')), id).toBe(canonical)
    }
  })

  it('agrees with BigInt on random scalars and on L with one byte changed', () => {
    const reference = (signature: Uint8Array): boolean => numberFromLE(signature.subarray(32)) < L
    fc.assert(fc.property(fc.uint8Array({ minLength: 64, maxLength: 64 }), (signature) => {
      expect(hasCanonicalScalar(signature)).toBe(reference(signature))
    }), { numRuns: 2000 })
    // Near L is where a byte comparison can go wrong: change one byte of L, randomise those below.
    fc.assert(fc.property(fc.integer({ min: 0, max: 31 }), fc.integer({ min: 0, max: 255 }), fc.uint8Array({ minLength: 32, maxLength: 32 }),
      (position, value, low) => {
        const signature = new Uint8Array(64)
        signature.set(GROUP_ORDER_LE, 32)
        signature[32 + position] = value
        for (let i = 0; i < position; i++) signature[32 + i] = low[i] ?? 0
        expect(hasCanonicalScalar(signature)).toBe(reference(signature))
      }), { numRuns: 2000 })
  })
})

describe('libsodium in front of OpenSSL (src/fast-crypto/sodium.ts)', () => {
  const verdicts = (v: Ed25519Vector): { sodium: boolean | undefined, node: boolean } => ({
    sodium: sodiumVerify(fromHex(v.signature), fromHex(v.message), fromHex(v.public_key)),
    node: nodeCryptoVerifier.verify(fromHex(v.signature), fromHex(v.message), fromHex(v.public_key))
  })

  it('is loaded on this platform, so the vector loop above goes through it', () => {
    expect(signatureBackend).toBe('libsodium')
  })

  it('refuses r-identity, a genuine signature the policy accepts: OpenSSL confirms every refusal', () => {
    const v = edgeCases.find((vector) => vector.id === 'r-identity')
    if (v === undefined) throw new Error('no r-identity vector')
    expect(verdicts(v)).toEqual({ sodium: false, node: true })
  })

  it('accepts every other valid vector on its own: a valid signature costs one check', () => {
    const valid = ALL.filter((v) => v.expected === 'valid' && v.id !== 'r-identity')
    expect(valid.length).toBeGreaterThanOrEqual(5)
    for (const v of valid) expect(verdicts(v), v.id).toEqual({ sodium: true, node: true })
  })
})

describe('Ed25519 properties (fast-check)', () => {
  const seed = fc.uint8Array({ minLength: 32, maxLength: 32 })
  const message = fc.uint8Array({ minLength: 0, maxLength: 300 })

  it('sign then verify is true on both verifiers', () => {
    fc.assert(fc.property(seed, message, (secret, msg) => {
      const { secretKey, publicKey } = keyPairFromSeed(secret)
      const signature = signBytes(msg, secretKey)
      for (const verifier of VERIFIERS) expect(verifier.verify(signature, msg, publicKey), verifier.name).toBe(true)
    }), { numRuns: 100 })
  })

  it('any single bit flip in the signature, the message or the key makes both false, in both forms', async () => {
    const target = fc.constantFrom('signature', 'message', 'publicKey')
    await fc.assert(fc.asyncProperty(seed, fc.uint8Array({ minLength: 1, maxLength: 300 }), target, fc.nat(), async (secret, msg, which, bit) => {
      const { secretKey, publicKey } = keyPairFromSeed(secret)
      const parts = { signature: signBytes(msg, secretKey), message: Uint8Array.from(msg), publicKey: Uint8Array.from(publicKey) }
      for (const verifier of VERIFIERS) {
        expect(await verifier.verifyAsync?.(parts.signature, parts.message, parts.publicKey), `${verifier.name}: verifyAsync before the flip`).toBe(true)
      }
      const flipped = parts[which]
      const index = bit % (flipped.length * 8)
      flipped[index >> 3] = (flipped[index >> 3] ?? 0) ^ (1 << (index & 7))
      for (const verifier of VERIFIERS) {
        expect(verifier.verify(parts.signature, parts.message, parts.publicKey), `${verifier.name}: ${which} bit ${index}`).toBe(false)
        expect(await verifier.verifyAsync?.(parts.signature, parts.message, parts.publicKey), `${verifier.name}: verifyAsync, ${which} bit ${index}`).toBe(false)
      }
    }), { numRuns: 150 })
  })

  it.each([
    ['publicKeyOfSeed', publicKeyOfSeed],
    ['the node\'s cached publicKeyOfSeed', NODE_RECORD_FAST_PATHS.publicKeyOfSeed]
  ] as const)('%s equals keyPairFromSeed and returns a copy the caller may change', (_, derive) => {
    fc.assert(fc.property(seed, (secret) => {
      const expected = keyPairFromSeed(secret).publicKey
      const first = derive(secret)
      expect(toHex(first)).toBe(toHex(expected))
      first.fill(0)
      expect(toHex(derive(secret))).toBe(toHex(expected))
    }), { numRuns: 50 })
    expect(() => derive(new Uint8Array(31))).toThrow(expect.objectContaining({ code: 'KEY_INVALID' }))
  })
})
