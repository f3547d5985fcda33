import * as dagCbor from '@ipld/dag-cbor'
import { sha256 } from '@noble/hashes/sha2.js'
import { CID } from 'multiformats/cid'
import { Digest } from 'multiformats/hashes/digest'
import { base64 } from 'multiformats/bases/base64'
import { IsnadError } from '../errors/index.js'
import type { IsnadRecord, RecordKind } from '../schema/index.js'
import { decodeBase64, encodeBase32Multibase } from './multibase.js'

const SHA2_256 = 0x12
/** CIDv1 header (version 1, codec dag-cbor 0x71) then the multihash header (sha2-256, 32 bytes). */
const CID_HEADER = Uint8Array.of(0x01, dagCbor.code, SHA2_256, 32)

/**
 * Canonical encoding (record-v1 §2): DAG-CBOR, whose encoder sorts map keys by length then bytes,
 * uses the shortest integer forms, 64-bit floats, and refuses undefined, NaN and Infinity.
 * Optional fields that are absent must be absent, never `undefined`: a value holding `undefined`
 * (a JavaScript caller's `{ notes: undefined }`) is copied without those keys first; parsed JSON
 * and decoded CBOR never hold any, so the hot path encodes without copying.
 */
export function encodeCanonical (value: unknown): Uint8Array {
  try {
    return dagCbor.encode(hasUndefined(value) ? stripUndefined(value) : value)
  } catch (cause) {
    throw new IsnadError('SCHEMA_INVALID', 'value cannot be encoded as DAG-CBOR', { cause })
  }
}

/** CIDv1 (dag-cbor, sha2-256) of already-encoded canonical bytes. */
export function cidOfBytes (bytes: Uint8Array): CID {
  return cidOfDigest(sha256(bytes))
}

/**
 * CIDv1 (dag-cbor, sha2-256) from the SHA-256 digest of canonical bytes, for callers that hash
 * elsewhere (native-cid.ts, with node:crypto).
 */
export function cidOfDigest (sha256Digest: Uint8Array): CID {
  // The CID's bytes are assembled once and the Digest and CID views point into them: what
  // CID.createV1(code, Digest.create(…)) builds, without its two copies (every record pays this).
  const cidBytes = new Uint8Array(CID_HEADER.length + 32)
  cidBytes.set(CID_HEADER, 0)
  cidBytes.set(sha256Digest, CID_HEADER.length)
  const digest = new Digest(SHA2_256, 32, cidBytes.subarray(CID_HEADER.length), cidBytes.subarray(2))
  return new CID(1, dagCbor.code, digest, cidBytes)
}

/**
 * The canonical string of a CIDv1 (multibase `b`, base32 lower case; record-v1 §2.3): what
 * `cid.toString()` returns, without its per-instance cache, which costs several times the encoding.
 */
export function cidString (cid: CID): string {
  return encodeBase32Multibase(cid.bytes)
}

/** The record id: CIDv1 of the canonical encoding of the unsigned record (record-v1 R1, §2.3). */
export function recordCidOf (record: IsnadRecord): CID {
  return cidOfBytes(encodeCanonical(record))
}

const DOMAIN_TAGS: Record<RecordKind, string> = {
  memory: 'isnad/memory/v1\0',
  attestation: 'isnad/attestation/v1\0',
  anchor: 'isnad/anchor/v1\0',
  witness_request: 'isnad/witness-request/v1\0'
}
const utf8 = new TextEncoder()
const DOMAIN_BYTES = Object.fromEntries(
  Object.entries(DOMAIN_TAGS).map(([kind, tag]) => [kind, utf8.encode(tag)])
) as Record<RecordKind, Uint8Array>

/**
 * The bytes an Ed25519 signature covers (record-v1 §3.1, R11): the record kind's domain tag, then the
 * bytes of the record's CID, so a signature for one kind can never be replayed as another.
 */
export function signingInputFor (kind: RecordKind, cid: CID): Uint8Array {
  const tag = DOMAIN_BYTES[kind]
  const input = new Uint8Array(tag.length + cid.bytes.length)
  input.set(tag, 0)
  input.set(cid.bytes, tag.length)
  return input
}

export function domainTagOf (kind: RecordKind): string {
  return DOMAIN_TAGS[kind]
}

/** Unpadded standard base64 (RFC 4648 §4 without `=`), as signatures are written in JSON. */
export function encodeSignature (signature: Uint8Array): string {
  return base64.baseEncode(signature)
}

/** record-v1 R9: refuses non-base64 and non-zero spare bits (one signature, one spelling). */
export function decodeSignature (text: string): Uint8Array {
  try {
    return decodeBase64(text)
  } catch (cause) {
    throw new IsnadError('SIGNATURE_MALFORMED', 'signature is not valid unpadded base64', { cause })
  }
}

function isPlainObject (value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !(value instanceof Uint8Array) && CID.asCID(value) === null
}

function hasUndefined (value: unknown): boolean {
  if (value === undefined) return true
  if (Array.isArray(value)) return value.some(hasUndefined)
  if (isPlainObject(value)) {
    for (const key in value) {
      if (Object.hasOwn(value, key) && hasUndefined(value[key])) return true
    }
  }
  return false
}

function stripUndefined (value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stripUndefined)
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {}
    for (const [key, inner] of Object.entries(value)) {
      if (inner !== undefined) out[key] = stripUndefined(inner)
    }
    return out
  }
  return value
}

/**
 * The signing input for a domain tag outside RecordKind (a signed object kept out of the record
 * union, such as a checkpoint, transparency-v1 §5.2): `tag` as UTF-8 (ending in NUL), then the CID
 * bytes — the same construction as signingInputFor (record-v1 §3.1).
 */
export function signingInputWithTag (tag: string, cid: CID): Uint8Array {
  const tagBytes = utf8.encode(tag)
  const input = new Uint8Array(tagBytes.length + cid.bytes.length)
  input.set(tagBytes, 0)
  input.set(cid.bytes, tagBytes.length)
  return input
}
