import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { isIsnadError } from '../../../src/errors/index.js'
import { decodeDidKey, encodeDidKey, isDidKey, keyPairFromSeed } from '../../../src/identity/index.js'
import { fromHex, readVectorFile, toHex, type DidKeyVectorFile } from './vectors.js'

const vectors = readVectorFile<DidKeyVectorFile>('did-key/ed25519.json')

const BASE58BTC = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz'

/** A deliberately naive base58btc decoder (BigInt), independent of multiformats, as an oracle. */
function referenceBase58Decode (text: string): Uint8Array {
  let n = 0n
  for (const char of text) {
    const digit = BASE58BTC.indexOf(char)
    if (digit < 0) throw new Error(`not base58btc: ${char}`)
    n = n * 58n + BigInt(digit)
  }
  const bytes: number[] = []
  for (; n > 0n; n >>= 8n) bytes.unshift(Number(n & 0xffn))
  let zeros = 0
  while (text[zeros] === '1') zeros++
  return Uint8Array.from([...new Array<number>(zeros).fill(0), ...bytes])
}

function thrownBy (fn: () => unknown): unknown {
  try {
    fn()
  } catch (err) {
    return err
  }
  return undefined
}

describe('did:key over protocols/vectors/did-key/ed25519.json', () => {
  it('has valid and invalid vectors', () => {
    expect(vectors.valid.length).toBeGreaterThanOrEqual(5)
    expect(vectors.invalid.length).toBeGreaterThanOrEqual(10)
    expect(vectors.valid.map((v) => v.did)).toContain('did:key:z6MkiTBz1ymuepAQ4HEHYSF1H8quG5GLVVQR3djdX3mDooWp')
  })

  it.each(vectors.valid)('$id decodes to its public key and back', (v) => {
    expect(toHex(decodeDidKey(v.did)), `${v.id}: decodeDidKey`).toBe(v.public_key)
    expect(encodeDidKey(fromHex(v.public_key)), `${v.id}: encodeDidKey`).toBe(v.did)
    expect(isDidKey(v.did), `${v.id}: isDidKey`).toBe(true)
    // Independent of the code under test: the multibase payload is 0xed 0x01 ‖ key.
    expect(toHex(referenceBase58Decode(v.did.slice('did:key:z'.length))), `${v.id}: reference decoder`).toBe('ed01' + v.public_key)
    if (v.seed !== undefined) {
      expect(toHex(keyPairFromSeed(fromHex(v.seed)).publicKey), `${v.id}: key of the seed`).toBe(v.public_key)
    }
    if (v.public_key_base58 !== undefined) {
      expect(toHex(referenceBase58Decode(v.public_key_base58)), `${v.id}: publicKeyBase58`).toBe(v.public_key)
    }
  })

  it.each(vectors.invalid)('$id is refused with $error_code', (v) => {
    const err = thrownBy(() => decodeDidKey(v.did))
    expect(isIsnadError(err), `${v.id}: throws an IsnadError, got ${String(err)}`).toBe(true)
    expect(isIsnadError(err) ? err.code : undefined, `${v.id}: error code (${v.comment})`).toBe(v.error_code)
    expect(isDidKey(v.did), `${v.id}: isDidKey`).toBe(false)
  })

  it('encodeDidKey refuses keys that are not 32 bytes', () => {
    for (const length of [0, 31, 33, 64]) {
      const err = thrownBy(() => encodeDidKey(new Uint8Array(length)))
      expect(isIsnadError(err, 'KEY_INVALID'), `length ${length}`).toBe(true)
    }
  })
})

describe('did:key properties (fast-check)', () => {
  it('encode then decode returns the key, and every Ed25519 did:key starts with z6Mk', () => {
    fc.assert(fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), (key) => {
      const did = encodeDidKey(key)
      expect(did.startsWith('did:key:z6Mk')).toBe(true)
      expect(toHex(decodeDidKey(did))).toBe(toHex(key))
    }), { numRuns: 500 })
  })

  it('decodeDidKey on any string returns a key that re-encodes to it, or throws DID_INVALID', () => {
    const valid = vectors.valid.map((v) => v.did)
    const anyString = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 80 }),
      fc.string({ unit: fc.constantFrom(...BASE58BTC), maxLength: 60 }).map((s) => `did:key:z${s}`),
      // one character of a valid did:key replaced by anything
      fc.tuple(fc.constantFrom(...valid), fc.nat(), fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }))
        .map(([did, at, char]) => did.slice(0, at % did.length) + char + did.slice((at % did.length) + 1))
    )
    fc.assert(fc.property(anyString, (did) => {
      let key: Uint8Array | undefined
      try {
        key = decodeDidKey(did)
      } catch (err) {
        expect(isIsnadError(err, 'DID_INVALID'), `${JSON.stringify(did)}: ${String(err)}`).toBe(true)
        return
      }
      expect(key).toHaveLength(32)
      expect(encodeDidKey(key)).toBe(did)
    }), { numRuns: 3000 })
  })
})
