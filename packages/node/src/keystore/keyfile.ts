import { z } from 'zod'
import { IsnadError } from '../errors/index.js'
import { isDidKey } from '../identity/index.js'
import { boundedText, didKey, isoTimestamp } from '../schema/index.js'
import {
  GCM_IV_BYTES, GCM_TAG_BYTES, KEYFILE_EXTENSION, KEYFILE_FORMAT, MAX_LABEL_BYTES, MAX_SCRYPT_MEMORY_BYTES,
  MAX_SCRYPT_P, MAX_SCRYPT_SALT_BYTES, SCRYPT_SALT_BYTES, SEED_BYTES
} from './constants.js'

const DID_KEY_PREFIX = 'did:key:'
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/

/** Standard padded base64 (RFC 4648 §4), the form `Buffer` and the `base64` tool write. */
export function encodeBase64 (bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64')
}

/**
 * Strict base64: `Buffer.from(…, 'base64')` silently skips bad characters and ignores non-zero
 * padding bits; the regex and the round trip refuse both, so every byte string has one spelling.
 */
export function decodeBase64 (value: string): Uint8Array | undefined {
  if (!BASE64.test(value)) return undefined
  const bytes = Buffer.from(value, 'base64')
  return bytes.toString('base64') === value ? new Uint8Array(bytes) : undefined
}

function base64Bytes (min: number, max = min): z.ZodString {
  const what = min === max ? `${min} bytes` : `${min} to ${max} bytes`
  return z.string().max(4 * Math.ceil(max / 3)).refine((value) => {
    const bytes = decodeBase64(value)
    return bytes !== undefined && bytes.length >= min && bytes.length <= max
  }, { message: `must be base64 of ${what}` })
}

/** Memory scrypt needs for (N, r, p): the V array of N + 2 blocks plus p blocks of B, 128·r bytes each. */
export function scryptMemoryBytes (N: number, r: number, p: number): number {
  return 128 * r * (N + 2 + p)
}

/** Cost parameters of RFC 7914; N a power of two > 1, and the memory bounded (see MAX_SCRYPT_MEMORY_BYTES). */
export const ScryptCostSchema = z.strictObject({
  N: z.int().min(2).refine((n) => (n & (n - 1)) === 0, { message: 'must be a power of two' }),
  r: z.int().min(1),
  p: z.int().min(1).max(MAX_SCRYPT_P)
}).refine(({ N, r, p }) => scryptMemoryBytes(N, r, p) <= MAX_SCRYPT_MEMORY_BYTES, {
  message: `asks scrypt for more than ${MAX_SCRYPT_MEMORY_BYTES} bytes of memory`, path: ['N']
})
export type ScryptCost = z.infer<typeof ScryptCostSchema>

export const KeyLabelSchema = boundedText(MAX_LABEL_BYTES)

const PlainSecretSchema = z.strictObject({
  encoding: z.literal('plain'),
  seed: base64Bytes(SEED_BYTES)
})

const EncryptedSecretSchema = z.strictObject({
  encoding: z.literal('scrypt-aes-256-gcm'),
  kdf: z.strictObject({
    N: z.int(),
    r: z.int(),
    p: z.int(),
    salt: base64Bytes(SCRYPT_SALT_BYTES, MAX_SCRYPT_SALT_BYTES)
  }).refine(({ N, r, p }) => ScryptCostSchema.safeParse({ N, r, p }).success, {
    message: `must be scrypt parameters with N a power of two, p ≤ ${MAX_SCRYPT_P} and at most ${MAX_SCRYPT_MEMORY_BYTES} bytes of memory`
  }),
  iv: base64Bytes(GCM_IV_BYTES),
  ciphertext: base64Bytes(SEED_BYTES),
  tag: base64Bytes(GCM_TAG_BYTES)
})

export const KeyFileSchema = z.strictObject({
  format: z.literal(KEYFILE_FORMAT),
  did: didKey.refine(isDidKey, { message: 'must be a canonical Ed25519 did:key' }),
  label: KeyLabelSchema.optional(),
  created_at: isoTimestamp,
  /**
   * Accepted for hand-written files but never written and never read: `keys/default` alone says
   * which key is the default, so changing it rewrites one small file and no key file.
   */
  default: z.boolean().optional(),
  secret: z.discriminatedUnion('encoding', [PlainSecretSchema, EncryptedSecretSchema])
})

export type KeyFile = z.infer<typeof KeyFileSchema>
export type PlainSecret = z.infer<typeof PlainSecretSchema>
export type EncryptedSecret = z.infer<typeof EncryptedSecretSchema>

/** `z6Mk….json` for `did:key:z6Mk…`; the caller has checked the did (so no path separators). */
export function keyFileNameOf (did: string): string {
  return did.slice(DID_KEY_PREFIX.length) + KEYFILE_EXTENSION
}

export function keyFileInvalid (file: string, reason: string, details: Record<string, unknown> = {}): IsnadError {
  return new IsnadError('KEYFILE_INVALID', `key file ${file} is invalid: ${reason}`, { details: { file, ...details } })
}

/**
 * Zod issues without the input: paths are field names of the schema and messages are ours or zod's
 * fixed texts. Unrecognized keys are the exception (zod quotes the names, which a hand-edited file
 * could fill with anything), so they are reported without names.
 */
function describeIssues (error: z.ZodError): Array<{ path: string, message: string }> {
  return error.issues.slice(0, 8).map((issue) => ({
    path: issue.path.map(String).join('.'),
    message: issue.code === 'unrecognized_keys' ? 'unexpected field' : issue.message
  }))
}

/** Parses and validates the text of a key file; every failure is KEYFILE_INVALID naming `file`. */
export function parseKeyFile (text: string, file: string): KeyFile {
  let data: unknown
  try {
    data = JSON.parse(text)
  } catch {
    // No cause and no parser message: V8 quotes the text around the error, which may be the seed.
    throw keyFileInvalid(file, 'not valid JSON')
  }
  const result = KeyFileSchema.safeParse(data)
  if (!result.success) {
    const issues = describeIssues(result.error)
    const first = issues[0]
    const summary = first === undefined ? 'does not match isnad-key/v1' : `${first.path === '' ? '(root)' : first.path}: ${first.message}`
    throw keyFileInvalid(file, summary, { issues })
  }
  return result.data
}

/** Pretty-printed so a person can read the did and label; a trailing newline like any text file. */
export function serializeKeyFile (keyFile: KeyFile): string {
  return JSON.stringify(keyFile, null, 2) + '\n'
}
