import { CID } from 'multiformats/cid'
import { z } from 'zod'

const utf8 = new TextEncoder()

export function utf8Length (value: string): number {
  return utf8.encode(value).length
}

/** Marks a zod issue so that decoders report FIELD_TOO_LARGE rather than SCHEMA_INVALID. */
export const TOO_LARGE = { isnad: 'FIELD_TOO_LARGE' } as const

/** A string of at most `maxBytes` UTF-8 bytes with no control characters (record-v1 R3). */
export function boundedText (maxBytes: number, { allowNewlines = false, min = 0 } = {}): z.ZodString {
  const control = allowNewlines ? /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/u : /[\u0000-\u001F\u007F]/u
  return z.string()
    .min(min)
    .refine((s) => utf8Length(s) <= maxBytes, { message: `longer than ${maxBytes} UTF-8 bytes`, params: TOO_LARGE })
    .refine((s) => !control.test(s), { message: 'contains control characters' })
}

const TIMESTAMP_PATTERN = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d{3})?Z$/

/** True for a real UTC instant written as `YYYY-MM-DDTHH:MM:SS[.mmm]Z` (record-v1 R5). */
export function isIsoTimestamp (value: string): boolean {
  const match = TIMESTAMP_PATTERN.exec(value)
  if (match === null) return false
  const millis = Date.parse(value)
  if (Number.isNaN(millis)) return false
  // Date.parse rolls 2026-02-30 over to March; the round trip catches it.
  return new Date(millis).toISOString().slice(0, 19) === value.slice(0, 19)
}

export const isoTimestamp = z.string().refine(isIsoTimestamp, {
  message: 'must be a UTC ISO-8601 timestamp like 2026-02-05T16:00:00Z'
})

/** `did:key` syntax only; the key inside is checked by identity when a signature is verified. */
export const didKey = z.string()
  .max(128)
  .regex(/^did:key:z[1-9A-HJ-NP-Za-km-z]+$/, 'must be a did:key (base58btc multibase)')

/** True when `value` is the canonical (base32, lower-case) string of a CIDv1. */
export function isCanonicalCidV1 (value: string, codec?: number): boolean {
  try {
    const cid = CID.parse(value)
    return cid.version === 1 && cid.toString() === value && (codec === undefined || cid.code === codec)
  } catch {
    return false
  }
}

const DAG_CBOR_CODE = 0x71
const SHA2_256_CODE = 0x12

/** A reference to an isnad record: CIDv1, dag-cbor, sha2-256, canonical base32 string (record-v1 R6). */
export const recordCid = z.string().max(128).refine((value) => {
  if (!isCanonicalCidV1(value, DAG_CBOR_CODE)) return false
  return CID.parse(value).multihash.code === SHA2_256_CODE
}, { message: 'must be a canonical CIDv1 (dag-cbor, sha2-256) string' })

/** Any canonical CIDv1 (cid anchors reference content in any codec). */
export const anyCid = z.string().max(128).refine((value) => isCanonicalCidV1(value), {
  message: 'must be a canonical CIDv1 string'
})

/** Unpadded standard base64 of a 64-byte Ed25519 signature (86 characters). */
export const signatureBase64 = z.string().regex(/^[A-Za-z0-9+/]{86}$/, 'must be 86 characters of unpadded base64 (64 bytes)')
