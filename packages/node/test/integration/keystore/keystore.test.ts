import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { encodeDidKey, keyPairFromSeed, signBytes } from '../../../src/identity/index.js'
import { nodeCryptoVerifier } from '../../../src/fast-crypto/index.js'
import { createKeystore, DEFAULT_SCRYPT_N, type Keystore } from '../../../src/keystore/index.js'
import { codeOf, keyFilePath, readJson, seedOf } from './helpers.js'

/** Cheap scrypt for the suite (≈1 ms); one test below runs the default cost. */
const FAST = { N: 2 ** 10, r: 8, p: 1 }
const NOW = new Date('2026-02-05T16:00:00.000Z')

let home: string
let directory: string
let store: Keystore

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'isnad-keys-'))
  // A directory that does not exist yet, so the test sees the keystore create it.
  directory = join(home, 'keys')
  store = createKeystore({ directory, scrypt: FAST, now: () => NOW })
})

afterEach(async () => {
  await rm(home, { recursive: true, force: true })
})

describe('create, list, info, default', () => {
  it('starts empty', async () => {
    expect(await store.list()).toEqual([])
    expect(await store.defaultDid()).toBeNull()
  })

  it('writes <did suffix>.json with mode 0600 in a 0700 directory, and no temp file', async () => {
    const key = await store.create({ label: 'alice' })
    expect(key.file).toBe(keyFilePath(directory, key.did))
    expect(key).toEqual({ did: key.did, label: 'alice', created_at: NOW.toISOString(), encrypted: false, default: true, file: key.file })
    expect((await stat(directory)).mode & 0o777).toBe(0o700)
    expect((await stat(key.file)).mode & 0o777).toBe(0o600)
    expect((await stat(join(directory, 'default'))).mode & 0o777).toBe(0o600)
    expect((await readdir(directory)).sort()).toEqual([key.did.slice('did:key:'.length) + '.json', 'default'].sort())
    const file = await readJson(key.file)
    expect(file).toMatchObject({ format: 'isnad-key/v1', did: key.did, label: 'alice', created_at: NOW.toISOString() })
    expect(file).not.toHaveProperty('default')
  })

  it('tightens an existing keys directory to 0700', async () => {
    await mkdir(directory, { mode: 0o755 })
    await store.create()
    expect((await stat(directory)).mode & 0o777).toBe(0o700)
  })

  it('makes the first key the default, later keys only when asked', async () => {
    const first = await store.create({ label: 'first' })
    const second = await store.create({ label: 'second' })
    expect(first.default).toBe(true)
    expect(second.default).toBe(false)
    expect(await store.defaultDid()).toBe(first.did)
    const third = await store.create({ makeDefault: true })
    expect(third.default).toBe(true)
    expect(await store.defaultDid()).toBe(third.did)
    expect((await readFile(join(directory, 'default'), 'utf8')).trim()).toBe(third.did)

    await store.setDefault(second.did)
    expect(await store.defaultDid()).toBe(second.did)
    expect((await store.info(second.did)).default).toBe(true)
    expect((await store.info(first.did)).default).toBe(false)
    const listed = await store.list()
    expect(listed.map((k) => k.did).sort()).toEqual([first.did, second.did, third.did].sort())
    expect(listed.filter((k) => k.default).map((k) => k.did)).toEqual([second.did])
  })

  it('does not make the first key default when told not to', async () => {
    const key = await store.create({ makeDefault: false })
    expect(key.default).toBe(false)
    expect(await store.defaultDid()).toBeNull()
  })

  it('lists oldest first', async () => {
    let t = 0
    const clocked = createKeystore({ directory, scrypt: FAST, now: () => new Date(Date.UTC(2026, 0, 1) + 1000 * t++) })
    const created = [await clocked.create(), await clocked.create(), await clocked.create()]
    expect((await clocked.list()).map((k) => k.did)).toEqual(created.map((k) => k.did))
  })

  it('refuses a second file for the same seed, bad labels and empty passphrases', async () => {
    const seed = seedOf(1)
    await store.create({ seed })
    expect(await codeOf(store.create({ seed }))).toBe('ALREADY_EXISTS')
    expect(await codeOf(store.create({ label: 'a\nb' }))).toBe('USAGE')
    expect(await codeOf(store.create({ label: 'x'.repeat(257) }))).toBe('USAGE')
    expect(await codeOf(store.create({ passphrase: '' }))).toBe('USAGE')
    expect(await codeOf(store.create({ seed: new Uint8Array(31) }))).toBe('KEY_INVALID')
  })

  it('refuses unknown and malformed dids', async () => {
    const unknown = encodeDidKey(keyPairFromSeed(seedOf(9)).publicKey)
    expect(await codeOf(store.info(unknown))).toBe('UNKNOWN_KEY')
    expect(await codeOf(store.load(unknown))).toBe('UNKNOWN_KEY')
    expect(await codeOf(store.setDefault(unknown))).toBe('UNKNOWN_KEY')
    // The did becomes a file name: anything but a canonical did:key is refused before any I/O.
    expect(await codeOf(store.info('did:key:../../etc/passwd'))).toBe('DID_INVALID')
    expect(await codeOf(store.load('../default'))).toBe('DID_INVALID')
  })

  it('refuses invalid scrypt cost options', () => {
    expect(() => createKeystore({ directory, scrypt: { N: 1000 } })).toThrow(expect.objectContaining({ code: 'USAGE' }))
    expect(() => createKeystore({ directory, scrypt: { N: 2 ** 22, r: 8 } })).toThrow(expect.objectContaining({ code: 'USAGE' }))
  })
})

describe('load', () => {
  it('gives the same signing key from a plain and an encrypted file of one seed', async () => {
    const seed = seedOf(2)
    const other = createKeystore({ directory: join(home, 'other'), scrypt: FAST })
    const plain = await store.create({ seed })
    const encrypted = await other.create({ seed, passphrase: 'correct horse battery staple' })
    expect(encrypted.did).toBe(plain.did)
    expect(encrypted.encrypted).toBe(true)
    expect(plain.encrypted).toBe(false)

    const a = await store.load(plain.did)
    const b = await other.load(encrypted.did, 'correct horse battery staple')
    expect(b.secretKey).toEqual(a.secretKey)
    expect(b.publicKey).toEqual(a.publicKey)
    expect(a.secretKey).toEqual(seed)
    expect(encodeDidKey(a.publicKey)).toBe(plain.did)
    const message = new TextEncoder().encode('isnad')
    const signature = signBytes(message, b.secretKey)
    expect(signature).toEqual(signBytes(message, a.secretKey))
    expect(nodeCryptoVerifier.verify(signature, message, a.publicKey)).toBe(true)
  })

  it('ignores a passphrase given for a plain key', async () => {
    const key = await store.create({ seed: seedOf(3) })
    expect((await store.load(key.did, 'unused')).secretKey).toEqual(seedOf(3))
  })

  it('opens a passphrase typed in another Unicode normal form', async () => {
    const key = await store.create({ passphrase: 'caf\u00e9' })
    await expect(store.load(key.did, 'cafe\u0301')).resolves.toMatchObject({ did: key.did })
  })

  it('says PASSPHRASE_WRONG and PASSPHRASE_REQUIRED', async () => {
    const key = await store.create({ passphrase: 'right' })
    await expect(store.load(key.did, 'wrong')).rejects.toMatchObject({
      code: 'PASSPHRASE_WRONG', message: `wrong passphrase for key ${key.did}`
    })
    expect(await codeOf(store.load(key.did, ''))).toBe('PASSPHRASE_WRONG')
    expect(await codeOf(store.load(key.did))).toBe('PASSPHRASE_REQUIRED')
    expect((await store.info(key.did)).encrypted).toBe(true) // info never needs the passphrase
  })

  it('encrypts at the default cost (scrypt N = 2^15, r = 8, p = 1)', async () => {
    const slow = createKeystore({ directory })
    const key = await slow.create({ seed: seedOf(4), passphrase: 'pass' })
    const file = await readJson(key.file) as { secret: { kdf: Record<string, unknown> } }
    expect(file.secret.kdf).toMatchObject({ N: DEFAULT_SCRYPT_N, r: 8, p: 1 })
    expect(DEFAULT_SCRYPT_N).toBe(32768)
    expect((await slow.load(key.did, 'pass')).secretKey).toEqual(seedOf(4))
    // Reading uses the file's own cost, whatever the reader would choose for new keys.
    expect((await store.load(key.did, 'pass')).secretKey).toEqual(seedOf(4))
  })
})

describe('scan', () => {
  it('skips corrupt key files and reports them; ignores non-key files', async () => {
    const good = await store.create({ seed: seedOf(5) })
    const bad = keyFilePath(directory, encodeDidKey(keyPairFromSeed(seedOf(6)).publicKey))
    await writeFile(bad, '{ not json', { mode: 0o600 })
    await writeFile(join(directory, 'README.md'), '# keys\n')
    await writeFile(join(directory, '.z6Mk.json.0123.tmp'), '{')
    const { keys, invalid } = await store.scan()
    expect(keys.map((k) => k.did)).toEqual([good.did])
    expect(invalid.map((i) => [i.file, i.error.code])).toEqual([[bad, 'KEYFILE_INVALID']])
    expect(await store.list()).toEqual(keys)
  })

  it('reports a file named for another did, and a corrupt default pointer', async () => {
    const key = await store.create({ seed: seedOf(5) })
    const elsewhere = keyFilePath(directory, encodeDidKey(keyPairFromSeed(seedOf(6)).publicKey))
    await writeFile(elsewhere, await readFile(key.file))
    await writeFile(join(directory, 'default'), 'not a did\n')
    const { keys, invalid } = await store.scan()
    expect(keys.map((k) => [k.did, k.default])).toEqual([[key.did, false]])
    expect(invalid.map((i) => i.error.code)).toEqual(['KEYFILE_INVALID', 'KEYFILE_INVALID'])
    expect(await codeOf(store.defaultDid())).toBe('KEYFILE_INVALID')
    // info by the misnamed file's did finds the file and refuses it
    expect(await codeOf(store.info(encodeDidKey(keyPairFromSeed(seedOf(6)).publicKey)))).toBe('KEYFILE_INVALID')
  })
})
