import { createCipheriv, createDecipheriv, randomBytes, scrypt } from 'node:crypto'
import { IsnadError } from '../errors/index.js'
import {
  AES_KEY_BYTES, GCM_IV_BYTES, GCM_TAG_BYTES, KEYFILE_AAD_PREFIX, SCRYPT_SALT_BYTES
} from './constants.js'
import { decodeBase64, encodeBase64, scryptMemoryBytes, type EncryptedSecret, type ScryptCost } from './keyfile.js'

const CIPHER = 'aes-256-gcm'
/** Headroom over scrypt's own need, for OpenSSL's bookkeeping. */
const SCRYPT_MAXMEM_SLACK = 1024 * 1024

/**
 * scrypt (RFC 7914) of the passphrase. NFC first, so a passphrase typed on a system that composes
 * characters differently (macOS keyboards produce NFD for some input) still opens the key.
 */
async function deriveKey (passphrase: string, salt: Uint8Array, { N, r, p }: ScryptCost): Promise<Buffer> {
  return await new Promise((resolve, reject) => {
    // Node's default maxmem (32 MiB) is just below what N = 2^15, r = 8 needs; the cost was bounded
    // by ScryptCostSchema before it got here.
    const maxmem = scryptMemoryBytes(N, r, p) + SCRYPT_MAXMEM_SLACK
    scrypt(passphrase.normalize('NFC'), salt, AES_KEY_BYTES, { N, r, p, maxmem }, (err, key) => {
      if (err === null) resolve(key)
      else reject(new IsnadError('KEY_INVALID', 'scrypt refused the key file\'s cost parameters', { details: { N, r, p } }))
    })
  })
}

function associatedData (did: string): Buffer {
  return Buffer.from(KEYFILE_AAD_PREFIX + did, 'utf8')
}

/** Base64 fields of a secret that passed KeyFileSchema, so they decode; the check is for the type only. */
function bytesOf (value: string, field: string): Uint8Array {
  const bytes = decodeBase64(value)
  if (bytes === undefined) throw new IsnadError('KEYFILE_INVALID', `encrypted secret field ${field} is not base64`)
  return bytes
}

/**
 * Encrypts a seed under a passphrase: a fresh random salt gives a fresh AES key per file, so the
 * random 96-bit IV can never repeat under one key. The did (with a format prefix) is the AAD.
 */
export async function sealSeed (seed: Uint8Array, passphrase: string, did: string, cost: ScryptCost): Promise<EncryptedSecret> {
  const salt = randomBytes(SCRYPT_SALT_BYTES)
  const iv = randomBytes(GCM_IV_BYTES)
  const key = await deriveKey(passphrase, salt, cost)
  try {
    const cipher = createCipheriv(CIPHER, key, iv, { authTagLength: GCM_TAG_BYTES })
    cipher.setAAD(associatedData(did))
    const ciphertext = Buffer.concat([cipher.update(seed), cipher.final()])
    return {
      encoding: 'scrypt-aes-256-gcm',
      kdf: { N: cost.N, r: cost.r, p: cost.p, salt: encodeBase64(salt) },
      iv: encodeBase64(iv),
      ciphertext: encodeBase64(ciphertext),
      tag: encodeBase64(cipher.getAuthTag())
    }
  } finally {
    key.fill(0)
  }
}

/**
 * Decrypts a sealed seed. GCM authenticates everything at once, so a wrong passphrase and an altered
 * salt, cost, IV, ciphertext, tag or did are the same failure: PASSPHRASE_WRONG. Telling them apart
 * would need a second authenticator the passphrase does not key, which an attacker could recompute.
 */
export async function openSeed (secret: EncryptedSecret, passphrase: string, did: string): Promise<Uint8Array> {
  const salt = bytesOf(secret.kdf.salt, 'kdf.salt')
  const iv = bytesOf(secret.iv, 'iv')
  const ciphertext = bytesOf(secret.ciphertext, 'ciphertext')
  const tag = bytesOf(secret.tag, 'tag')
  const key = await deriveKey(passphrase, salt, secret.kdf)
  let plaintext: Buffer | undefined
  try {
    const decipher = createDecipheriv(CIPHER, key, iv, { authTagLength: GCM_TAG_BYTES })
    decipher.setAAD(associatedData(did))
    decipher.setAuthTag(tag)
    plaintext = decipher.update(ciphertext)
    decipher.final()
    return new Uint8Array(plaintext) // a copy: the buffer below is zeroed
  } catch {
    // No cause: the OpenSSL message says nothing useful, and the unauthenticated plaintext is zeroed.
    throw new IsnadError('PASSPHRASE_WRONG', `wrong passphrase for key ${did}`, { details: { did } })
  } finally {
    key.fill(0)
    plaintext?.fill(0)
  }
}
