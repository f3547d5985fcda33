import { randomBytes } from 'node:crypto'
import { readdir } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { IsnadError } from '../errors/index.js'
import { decodeDidKey, encodeDidKey, isDidKey, keyPairFromSeed } from '../identity/index.js'
import {
  DEFAULT_KEY_FILE, DEFAULT_SCRYPT_N, DEFAULT_SCRYPT_P, DEFAULT_SCRYPT_R, KEYFILE_EXTENSION, KEYFILE_FORMAT,
  KEYFILE_MODE, MAX_DEFAULT_FILE_BYTES, MAX_KEYFILE_BYTES, MAX_LABEL_BYTES, SEED_BYTES
} from './constants.js'
import type { CreateKeyOptions, InvalidKeyFile, KeyInfo, Keystore, KeystoreInit, LoadedKey } from './types.js'
import {
  decodeBase64, encodeBase64, keyFileInvalid, keyFileNameOf, KeyLabelSchema, parseKeyFile, ScryptCostSchema,
  serializeKeyFile, type KeyFile, type ScryptCost
} from './keyfile.js'
import { errnoOf, ioError, pathExists, writeFileAtomic } from '../fs/index.js'
import { ensurePrivateDirectory, readSmallFile } from './private-files.js'
import { openSeed, sealSeed } from './secret-box.js'

/** The keystore on disk: one `<did suffix>.json` per key plus `default` (see Keystore). */
export class FileKeystore implements Keystore {
  readonly directory: string
  private readonly cost: ScryptCost
  private readonly now: () => Date

  constructor (init: KeystoreInit) {
    this.directory = resolve(init.directory)
    const cost = ScryptCostSchema.safeParse({
      N: init.scrypt?.N ?? DEFAULT_SCRYPT_N,
      r: init.scrypt?.r ?? DEFAULT_SCRYPT_R,
      p: init.scrypt?.p ?? DEFAULT_SCRYPT_P
    })
    if (!cost.success) {
      throw new IsnadError('USAGE', `invalid scrypt cost: ${cost.error.issues[0]?.message ?? 'invalid'}`)
    }
    this.cost = cost.data
    this.now = init.now ?? (() => new Date())
  }

  async create (opts: CreateKeyOptions = {}): Promise<KeyInfo> {
    if (opts.label !== undefined && !KeyLabelSchema.safeParse(opts.label).success) {
      throw new IsnadError('USAGE', `a key label has at most ${MAX_LABEL_BYTES} UTF-8 bytes and no control characters`)
    }
    if (opts.passphrase === '') throw new IsnadError('USAGE', 'a passphrase must not be empty')
    // Fresh randomness is only ours to wipe; a caller's seed stays as the caller gave it.
    const seed = opts.seed ?? randomBytes(SEED_BYTES)
    try {
      const did = encodeDidKey(keyPairFromSeed(seed).publicKey)
      const file = this.fileOf(did)
      // Decided before writing, so a corrupt `default` fails the call before a key file exists.
      const makeDefault = opts.makeDefault ?? (await this.defaultDid()) === null
      await ensurePrivateDirectory(this.directory)
      // lstat: a dangling symlink in keys/ also takes the name.
      if (await pathExists(file, { noFollow: true })) {
        throw new IsnadError('ALREADY_EXISTS', `key ${did} already exists`, { details: { did, file } })
      }
      const keyFile: KeyFile = {
        format: KEYFILE_FORMAT,
        did,
        ...(opts.label === undefined ? {} : { label: opts.label }),
        created_at: this.now().toISOString(),
        secret: opts.passphrase === undefined
          ? { encoding: 'plain', seed: encodeBase64(seed) }
          : await sealSeed(seed, opts.passphrase, did, this.cost)
      }
      await writeFileAtomic(file, serializeKeyFile(keyFile), KEYFILE_MODE)
      if (makeDefault) await this.writeDefault(did)
      return this.infoOf(keyFile, file, makeDefault)
    } finally {
      if (opts.seed === undefined) seed.fill(0)
    }
  }

  async list (): Promise<KeyInfo[]> {
    return (await this.scan()).keys
  }

  async scan (): Promise<{ keys: KeyInfo[], invalid: InvalidKeyFile[] }> {
    let names: string[]
    try {
      names = await readdir(this.directory)
    } catch (err) {
      if (errnoOf(err) === 'ENOENT') return { keys: [], invalid: [] }
      throw ioError('list', this.directory, err)
    }
    const keys: KeyInfo[] = []
    const invalid: InvalidKeyFile[] = []
    let defaultDid: string | null = null
    try {
      defaultDid = await this.defaultDid()
    } catch (err) {
      if (!(err instanceof IsnadError)) throw err
      invalid.push({ file: this.defaultFile(), error: err })
    }
    for (const name of names.filter((n) => n.endsWith(KEYFILE_EXTENSION) && !n.startsWith('.')).sort()) {
      const file = join(this.directory, name)
      try {
        const keyFile = await this.readKeyFile(file)
        if (keyFile === undefined) continue // deleted since readdir
        if (keyFileNameOf(keyFile.did) !== name) throw misnamed(file, keyFile.did)
        keys.push(this.infoOf(keyFile, file, keyFile.did === defaultDid))
      } catch (err) {
        if (!(err instanceof IsnadError)) throw err
        invalid.push({ file, error: err })
      }
    }
    keys.sort((a, b) => a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : a.did < b.did ? -1 : 1)
    return { keys, invalid }
  }

  async info (did: string): Promise<KeyInfo> {
    const { keyFile, file } = await this.keyFileOf(did)
    return this.infoOf(keyFile, file, (await this.defaultDid()) === did)
  }

  async load (did: string, passphrase?: string): Promise<LoadedKey> {
    const { keyFile, file } = await this.keyFileOf(did)
    let seed: Uint8Array
    if (keyFile.secret.encoding === 'plain') {
      seed = decodeBase64(keyFile.secret.seed) ?? new Uint8Array(0) // the schema checked it; never empty
    } else {
      if (passphrase === undefined) {
        throw new IsnadError('PASSPHRASE_REQUIRED', `key ${did} is encrypted: a passphrase is required`, { details: { did } })
      }
      seed = await openSeed(keyFile.secret, passphrase, did)
    }
    try {
      const { secretKey, publicKey } = keyPairFromSeed(seed)
      // The did is the only thing that ties a seed to an identity: a file holding another seed
      // (edited, or copied under the wrong name) would otherwise sign as someone else.
      if (encodeDidKey(publicKey) !== did) throw keyFileInvalid(file, 'its secret does not belong to its did', { did })
      return { did, secretKey, publicKey }
    } finally {
      seed.fill(0)
    }
  }

  async defaultDid (): Promise<string | null> {
    const file = this.defaultFile()
    const invalid = (reason: string): IsnadError => new IsnadError('KEYFILE_INVALID', `default key file ${file} is invalid: ${reason}`, { details: { file } })
    const text = await readSmallFile(file, MAX_DEFAULT_FILE_BYTES, invalid)
    if (text === undefined) return null
    const did = text.trim()
    if (!isDidKey(did)) throw invalid('it does not hold an Ed25519 did:key')
    return did
  }

  async setDefault (did: string): Promise<void> {
    await this.keyFileOf(did)
    await ensurePrivateDirectory(this.directory)
    await this.writeDefault(did)
  }

  private async writeDefault (did: string): Promise<void> {
    await writeFileAtomic(this.defaultFile(), did + '\n', KEYFILE_MODE)
  }

  private defaultFile (): string {
    return join(this.directory, DEFAULT_KEY_FILE)
  }

  /** The file of a did, after checking the did: it becomes a path, so `../x` must never get here. */
  private fileOf (did: string): string {
    decodeDidKey(did)
    return join(this.directory, keyFileNameOf(did))
  }

  private async readKeyFile (file: string): Promise<KeyFile | undefined> {
    const text = await readSmallFile(file, MAX_KEYFILE_BYTES, (reason) => keyFileInvalid(file, reason))
    return text === undefined ? undefined : parseKeyFile(text, file)
  }

  private async keyFileOf (did: string): Promise<{ keyFile: KeyFile, file: string }> {
    const file = this.fileOf(did)
    const keyFile = await this.readKeyFile(file)
    if (keyFile === undefined) throw new IsnadError('UNKNOWN_KEY', `unknown key ${did}`, { details: { did } })
    if (keyFile.did !== did) throw misnamed(file, keyFile.did)
    return { keyFile, file }
  }

  private infoOf (keyFile: KeyFile, file: string, isDefault: boolean): KeyInfo {
    return {
      did: keyFile.did,
      ...(keyFile.label === undefined ? {} : { label: keyFile.label }),
      created_at: keyFile.created_at,
      encrypted: keyFile.secret.encoding !== 'plain',
      default: isDefault,
      file
    }
  }
}

/** Keys are found by file name, so a file whose did differs from its name could never be loaded. */
function misnamed (file: string, did: string): IsnadError {
  return keyFileInvalid(file, `it holds ${did}, not the did its name says`, { did })
}

export function createKeystore (init: KeystoreInit): Keystore {
  return new FileKeystore(init)
}
