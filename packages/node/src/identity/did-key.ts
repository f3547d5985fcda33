import { base58btc } from 'multiformats/bases/base58'
import { varint } from 'multiformats'
import { IsnadError } from '../errors/index.js'
import { MAX_DID_BYTES } from '../schema/index.js'

/** Multicodec code of an Ed25519 public key (multicodec table: `ed25519-pub`). */
export const ED25519_PUB_CODEC = 0xed
export const ED25519_PUBLIC_KEY_BYTES = 32
const DID_KEY_PREFIX = 'did:key:'
const CODEC_PREFIX = varint.encodeTo(ED25519_PUB_CODEC, new Uint8Array(varint.encodingLength(ED25519_PUB_CODEC)))

/** `did:key:z…` of an Ed25519 public key (did:key spec §3: multibase base58btc of multicodec 0xed + key). */
export function encodeDidKey (publicKey: Uint8Array): string {
  if (publicKey.length !== ED25519_PUBLIC_KEY_BYTES) {
    throw new IsnadError('KEY_INVALID', `an Ed25519 public key has 32 bytes, got ${publicKey.length}`)
  }
  const bytes = new Uint8Array(CODEC_PREFIX.length + publicKey.length)
  bytes.set(CODEC_PREFIX, 0)
  bytes.set(publicKey, CODEC_PREFIX.length)
  return DID_KEY_PREFIX + base58btc.encode(bytes)
}

/**
 * The raw public key inside a `did:key`. Throws DID_INVALID — and nothing else, whatever the
 * string — for anything that is not exactly `did:key:z` + base58btc(0xed 0x01 ‖ 32 bytes) written
 * canonically (vectors: protocols/vectors/did-key/ed25519.json).
 */
export function decodeDidKey (did: string): Uint8Array {
  if (typeof did !== 'string' || did.length > MAX_DID_BYTES || !did.startsWith(DID_KEY_PREFIX + 'z')) {
    throw new IsnadError('DID_INVALID', 'not an Ed25519 did:key', { details: { did: String(did).slice(0, MAX_DID_BYTES) } })
  }
  let bytes: Uint8Array
  try {
    bytes = base58btc.decode(did.slice(DID_KEY_PREFIX.length))
  } catch (cause) {
    throw new IsnadError('DID_INVALID', 'did:key is not valid base58btc', { details: { did }, cause })
  }
  // The multicodec varint must be exactly 0xed 0x01 (did:key spec, Ed25519): compared as bytes,
  // not with varint.decode, which throws RangeError on an empty, truncated or non-minimal varint.
  if (bytes.length !== CODEC_PREFIX.length + ED25519_PUBLIC_KEY_BYTES || !CODEC_PREFIX.every((b, i) => bytes[i] === b)) {
    throw new IsnadError('DID_INVALID', 'did:key does not hold an Ed25519 public key (multicodec 0xed, 32 bytes)', { details: { did } })
  }
  const publicKey = bytes.slice(CODEC_PREFIX.length)
  // One key, one spelling: the base58 decoder does not reject a character above U+00FF (it decodes
  // to some other bytes; vector not-base58-euro-sign), so the string must be the encoder's output.
  if (encodeDidKey(publicKey) !== did) {
    throw new IsnadError('DID_INVALID', 'did:key is not in canonical form', { details: { did } })
  }
  return publicKey
}

export function isDidKey (did: string): boolean {
  try {
    decodeDidKey(did)
    return true
  } catch {
    return false
  }
}
