import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { inspect } from 'node:util'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { IsnadError } from '../../../src/errors/index.js'
import { encodeDidKey, keyPairFromSeed } from '../../../src/identity/index.js'
import { createKeystore, type Keystore, MAX_KEYFILE_BYTES } from '../../../src/keystore/index.js'
import { codeOf, flipBit, keyFilePath, readJson, seedOf, writeJson } from './helpers.js'

const FAST = { N: 2 ** 10, r: 8, p: 1 }
const PASS = 'open sesame'
// Its base64 starts with a letter, so V8's JSON.parse error would quote it (a digit would not be quoted).
const SEED = seedOf(3)
const DID = encodeDidKey(keyPairFromSeed(SEED).publicKey)
const OTHER_SEED = seedOf(8)
const OTHER_DID = encodeDidKey(keyPairFromSeed(OTHER_SEED).publicKey)

interface Sealed {
  format: string
  did: string
  created_at: string
  secret: { encoding: string, kdf: { N: number, r: number, p: number, salt: string }, iv: string, ciphertext: string, tag: string }
}

let home: string
let store: Keystore
let file: string
let sealed: Sealed

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'isnad-keys-'))
  store = createKeystore({ directory: home, scrypt: FAST })
  file = (await store.create({ seed: SEED, passphrase: PASS })).file
  sealed = await readJson(file) as unknown as Sealed
})

afterEach(async () => {
  await rm(home, { recursive: true, force: true })
})

async function loadWith (edit: (copy: Sealed) => void): Promise<string> {
  const copy = structuredClone(sealed)
  edit(copy)
  await writeJson(file, copy)
  return await codeOf(store.load(DID, PASS))
}

describe('an altered encrypted secret', () => {
  // GCM authenticates salt-derived key, IV, ciphertext, tag and AAD in one check: a well-formed
  // change is indistinguishable from a wrong passphrase, so it is PASSPHRASE_WRONG.
  it.each(['ciphertext', 'tag', 'iv'] as const)('flipped bit in %s → PASSPHRASE_WRONG', async (field) => {
    expect(await loadWith((s) => { s.secret[field] = flipBit(s.secret[field]) })).toBe('PASSPHRASE_WRONG')
  })

  it('flipped bit in the salt, or another scrypt cost → PASSPHRASE_WRONG (another AES key)', async () => {
    expect(await loadWith((s) => { s.secret.kdf.salt = flipBit(s.secret.kdf.salt) })).toBe('PASSPHRASE_WRONG')
    expect(await loadWith((s) => { s.secret.kdf.N = 2 ** 11 })).toBe('PASSPHRASE_WRONG')
    expect(await loadWith((s) => { s.secret.kdf.r = 4 })).toBe('PASSPHRASE_WRONG')
  })

  it('the secret moved into another did\'s file → PASSPHRASE_WRONG (the did is the AAD)', async () => {
    const copy = { ...structuredClone(sealed), did: OTHER_DID }
    await writeJson(keyFilePath(home, OTHER_DID), copy)
    expect(await codeOf(store.load(OTHER_DID, PASS))).toBe('PASSPHRASE_WRONG')
  })

  // Malformed fields fail the schema before any decryption is tried: KEYFILE_INVALID.
  it.each([
    ['truncated ciphertext', (s: Sealed) => { s.secret.ciphertext = Buffer.alloc(31).toString('base64') }],
    ['short tag', (s: Sealed) => { s.secret.tag = Buffer.alloc(12).toString('base64') }],
    ['short salt', (s: Sealed) => { s.secret.kdf.salt = Buffer.alloc(8).toString('base64') }],
    ['non-canonical base64', (s: Sealed) => { s.secret.iv = s.secret.iv.slice(0, -1) + '=' }],
    ['N not a power of two', (s: Sealed) => { s.secret.kdf.N = 1000 }],
    ['N asking for 4 GiB', (s: Sealed) => { s.secret.kdf.N = 2 ** 22 }],
    ['unknown encoding', (s: Sealed) => { s.secret.encoding = 'rot13' }]
  ])('%s → KEYFILE_INVALID', async (_name, edit) => {
    expect(await loadWith(edit)).toBe('KEYFILE_INVALID')
  })
})

describe('invalid key files', () => {
  const plain = (did: string, seed: Uint8Array): Record<string, unknown> => ({
    format: 'isnad-key/v1', did, created_at: '2026-02-05T16:00:00Z', secret: { encoding: 'plain', seed: Buffer.from(seed).toString('base64') }
  })

  it('garbage JSON → KEYFILE_INVALID naming the file, on info and load', async () => {
    await writeFile(file, 'garbage')
    // Functions, not promises: a second promise created up front would reject before it is awaited.
    for (const attempt of [async () => await store.info(DID), async () => await store.load(DID, PASS)]) {
      const err = await attempt().then(() => undefined, (e: unknown) => e)
      expect(err).toMatchObject({ code: 'KEYFILE_INVALID', details: { file } })
      expect((err as Error).message).toContain(file)
    }
  })

  it.each([
    ['wrong format', { format: 'isnad-key/v2' }],
    ['no created_at', { created_at: undefined }],
    ['local time', { created_at: '2026-02-05T16:00:00+01:00' }],
    ['unknown field', { extra: true }],
    ['label with a newline', { label: 'a\nb' }],
    ['an array', null]
  ])('%s → KEYFILE_INVALID', async (_name, change) => {
    await writeJson(file, change === null ? [1] : { ...plain(DID, SEED), ...change })
    expect(await codeOf(store.info(DID))).toBe('KEYFILE_INVALID')
  })

  it('a plain seed of 31 bytes → KEYFILE_INVALID', async () => {
    await writeJson(file, plain(DID, SEED.slice(0, 31)))
    expect(await codeOf(store.info(DID))).toBe('KEYFILE_INVALID')
  })

  it('a file larger than MAX_KEYFILE_BYTES → KEYFILE_INVALID without reading it', async () => {
    await writeFile(file, ' '.repeat(MAX_KEYFILE_BYTES + 1))
    expect(await codeOf(store.info(DID))).toBe('KEYFILE_INVALID')
  })

  it('a seed that does not match the did → KEYFILE_INVALID on load (info does not decrypt)', async () => {
    await writeJson(file, plain(DID, OTHER_SEED))
    expect((await store.info(DID)).did).toBe(DID)
    expect(await codeOf(store.load(DID))).toBe('KEYFILE_INVALID')
  })

  it('the hand-written `default` field is accepted and ignored', async () => {
    await writeJson(file, { ...plain(DID, SEED), default: true })
    expect(await store.info(DID)).toMatchObject({ did: DID, default: true }) // the first key is the default
    await store.create({ seed: OTHER_SEED, makeDefault: true })
    expect((await store.info(DID)).default).toBe(false)
  })
})

describe('error messages never contain key material', () => {
  const SECRET_SPELLINGS = [
    Buffer.from(SEED).toString('base64'),
    Buffer.from(SEED).toString('hex'),
    // Prefixes too: V8's JSON.parse message quotes about ten characters of the text.
    Buffer.from(SEED).toString('base64').slice(0, 8),
    Buffer.from(SEED).toString('hex').slice(0, 8),
    Buffer.from(SEED).toString('base64url').slice(0, 8)
  ]

  it('in any failure of a file that holds the seed', async () => {
    const b64 = Buffer.from(SEED).toString('base64')
    const failures: Array<[string, () => Promise<unknown>]> = [
      // V8's JSON.parse quotes the text around the error: this is where a seed would leak.
      ['a bare base64 seed', async () => { await writeFile(file, b64); return await store.info(DID) }],
      ['an unquoted seed', async () => { await writeFile(file, `{"seed": ${b64}}`); return await store.info(DID) }],
      ['truncated JSON', async () => { await writeFile(file, `{"format":"isnad-key/v1","secret":{"encoding":"plain","seed":"${b64}`); return await store.load(DID) }],
      ['seed as an unknown field name', async () => { await writeJson(file, { [b64]: 1 }); return await store.info(DID) }],
      ['seed in the label', async () => { await writeJson(file, { format: 'isnad-key/v1', did: DID, created_at: '2026-02-05T16:00:00Z', label: `${b64}\n`, secret: { encoding: 'plain', seed: b64 } }); return await store.info(DID) }],
      ['seed as the did', async () => { await writeJson(file, { format: 'isnad-key/v1', did: b64, created_at: '2026-02-05T16:00:00Z', secret: { encoding: 'plain', seed: b64 } }); return await store.info(DID) }],
      ['seed of another did', async () => { await writeJson(keyFilePath(home, OTHER_DID), { format: 'isnad-key/v1', did: OTHER_DID, created_at: '2026-02-05T16:00:00Z', secret: { encoding: 'plain', seed: b64 } }); return await store.load(OTHER_DID) }],
      ['wrong passphrase', async () => { await writeJson(file, sealed); return await store.load(DID, 'nope') }],
      ['tampered ciphertext', async () => { await writeJson(file, { ...sealed, secret: { ...sealed.secret, ciphertext: flipBit(sealed.secret.ciphertext) } }); return await store.load(DID, PASS) }],
      ['no passphrase', async () => { await writeJson(file, sealed); return await store.load(DID) }],
      ['duplicate create', async () => await store.create({ seed: SEED })]
    ]
    for (const [name, run] of failures) {
      const err = await run().then(() => undefined, (e: unknown) => e)
      expect(err, name).toBeInstanceOf(IsnadError)
      // inspect prints message, stack, details and the whole cause chain: everything a log could show.
      const printed = [inspect(err, { depth: 10 }), JSON.stringify((err as IsnadError).toJSON())].join('\n')
      for (const spelling of SECRET_SPELLINGS) expect(printed.includes(spelling), `${name}: ${spelling}`).toBe(false)
    }
  })
})
