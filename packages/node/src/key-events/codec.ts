import * as dagCbor from '@ipld/dag-cbor'
import { sha256 } from '@noble/hashes/sha2.js'
import type { CID } from 'multiformats/cid'
import { IsnadError } from '../errors/index.js'
import { bytesToHex } from '@noble/hashes/utils.js'
import { cidOfBytes, cidString, encodeCanonical, schemaError, signingInputWithTag } from '../record/index.js'
import { KEY_DIGEST_PREFIX, KEY_EVENT_DOMAIN_TAG, MAX_KEY_EVENT_BYTES, MAX_KEY_LOG_BYTES } from './constants.js'
import { KeyLogSchema, SignedKeyEventSchema, type KeyEvent, type KeyLog, type SignedKeyEvent } from './schema.js'

/** record-v1 K3: the CIDv1 (dag-cbor, sha2-256) of the unsigned event, as for every record. */
export function keyEventCidOf (event: KeyEvent): CID {
  return cidOfBytes(encodeCanonical(event))
}

export function keyEventIdOf (event: KeyEvent): string {
  return cidString(keyEventCidOf(event))
}

/** record-v1 K3: what both signatures of an event cover: the domain tag, then the event's CID bytes. */
export function keyEventSigningInput (cid: CID): Uint8Array {
  return signingInputWithTag(KEY_EVENT_DOMAIN_TAG, cid)
}

/** record-v1 K6: how an event commits to a key without revealing it. */
export function keyDigestOf (publicKey: Uint8Array): string {
  return KEY_DIGEST_PREFIX + bytesToHex(sha256(publicKey))
}

/**
 * Plain data (parsed JSON, decoded CBOR) to a schema-valid signed event, KEY_EVENT_INVALID
 * otherwise. The size is checked on the canonical encoding (record-v1 K2).
 */
export function parseSignedKeyEvent (input: unknown): SignedKeyEvent {
  const parsed = SignedKeyEventSchema.safeParse(input)
  if (!parsed.success) throw asKeyEventError(schemaError(parsed.error, 'key event'))
  const signed = parsed.data as SignedKeyEvent
  const size = encodeCanonical(signed).length
  if (size > MAX_KEY_EVENT_BYTES) throw new IsnadError('KEY_EVENT_INVALID', `key event of ${size} bytes exceeds ${MAX_KEY_EVENT_BYTES}`)
  return signed
}

/** A key log from plain data: the schema, then each event's size (record-v1 K2). */
export function parseKeyLog (input: unknown): KeyLog {
  const parsed = KeyLogSchema.safeParse(input)
  if (!parsed.success) throw asKeyEventError(schemaError(parsed.error, 'key log'))
  const log = parsed.data as KeyLog
  for (const event of log.events) parseSignedKeyEvent(event)
  return log
}

/** The canonical DAG-CBOR of a key log: the gossip payload (gossip-v1 §9). */
export function encodeKeyLog (log: KeyLog): Uint8Array {
  return encodeCanonical(log)
}

/**
 * Bytes from the network to a key log: size before anything (record-v1 K2), strict DAG-CBOR, the
 * schema, then the canonical form (one log, one byte string, one gossip message id).
 */
export function decodeKeyLog (bytes: Uint8Array): KeyLog {
  if (bytes.length > MAX_KEY_LOG_BYTES) {
    throw new IsnadError('KEY_EVENT_INVALID', `key log of ${bytes.length} bytes exceeds ${MAX_KEY_LOG_BYTES}`)
  }
  let data: unknown
  try {
    data = dagCbor.decode(bytes)
  } catch (cause) {
    throw new IsnadError('DECODE_FAILED', 'key log bytes are not valid DAG-CBOR', { cause })
  }
  const log = parseKeyLog(data)
  const canonical = encodeKeyLog(log)
  if (canonical.length !== bytes.length || !canonical.every((b, i) => b === bytes[i])) {
    throw new IsnadError('DECODE_FAILED', 'key log bytes are not in canonical DAG-CBOR form')
  }
  return log
}

function asKeyEventError (err: IsnadError): IsnadError {
  return new IsnadError('KEY_EVENT_INVALID', err.message, { ...(err.details === undefined ? {} : { details: err.details }), cause: err })
}
