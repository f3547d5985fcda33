import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { encodeDidKey, keyPairFromSeed } from '../../../src/identity/index.js'
import { decodeBase64, encodeBase64, parseKeyFile, serializeKeyFile, type KeyFile } from '../../../src/keystore/keyfile.js'

describe('strict base64', () => {
  it('round-trips any bytes', () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 96 }), (bytes) => {
      expect(decodeBase64(encodeBase64(bytes))).toEqual(bytes)
    }))
  })

  it('refuses every other spelling Buffer would accept', () => {
    for (const spelling of ['AAE', 'AA E=', 'AAE=\n', 'AAF=', '-_8=', 'AA==AA==', '=']) {
      expect(decodeBase64(spelling), spelling).toBeUndefined()
    }
    expect(decodeBase64('AAE=')).toEqual(Uint8Array.from([0, 1]))
  })
})

describe('key file text', () => {
  it('parses what it serializes', () => {
    fc.assert(fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), fc.option(fc.string({ maxLength: 40 }).filter((s) => !/[\u0000-\u001F\u007F]/u.test(s)), { nil: undefined }), (seed, label) => {
      const keyFile: KeyFile = {
        format: 'isnad-key/v1',
        did: encodeDidKey(keyPairFromSeed(seed).publicKey),
        ...(label === undefined ? {} : { label }),
        created_at: '2026-02-05T16:00:00.000Z',
        secret: { encoding: 'plain', seed: encodeBase64(seed) }
      }
      expect(parseKeyFile(serializeKeyFile(keyFile), 'k.json')).toEqual(keyFile)
    }), { numRuns: 50 })
  })
})
