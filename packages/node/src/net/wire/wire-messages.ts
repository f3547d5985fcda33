import * as dagCbor from '@ipld/dag-cbor'
import { z } from 'zod'
import { IsnadError } from '../../errors/index.js'
import { schemaError } from '../../record/index.js'
import { sameBytes } from '../../fast-crypto/index.js'
import { recordCid } from '../../schema/index.js'
import { MAX_ENVELOPE_BYTES, MAX_FETCH_IDS, MAX_SYNC_PAGE_SIZE } from './constants.js'

/*
 * The DAG-CBOR messages of the wire protocols other than the signed records themselves, each with
 * its zod schema: what comes from the network is decoded in DAG-CBOR's strict profile, checked
 * against the schema, and must be in canonical form (re-encoding gives the same bytes), so one
 * message has one encoding (gossip-v1 §4, fetch-v1 §2, sync-v1 §2).
 */

const bytes = z.custom<Uint8Array>((value) => value instanceof Uint8Array, { message: 'must be a byte string' })

/** gossip-v1 §4: a witness request travels with the memory it asks witnesses for. */
export const WitnessEnvelopeSchema = z.strictObject({ memory: bytes, request: bytes })
export type WitnessEnvelope = z.infer<typeof WitnessEnvelopeSchema>

/** fetch-v1 §2. */
export const FetchRequestSchema = z.strictObject({
  ids: z.array(recordCid).min(1).max(MAX_FETCH_IDS)
})
export type FetchRequest = z.infer<typeof FetchRequestSchema>

const cursor = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER)

/** sync-v1 §2. */
export const SyncRequestSchema = z.strictObject({
  cursor,
  limit: z.number().int().min(1).max(MAX_SYNC_PAGE_SIZE)
})
export type SyncRequest = z.infer<typeof SyncRequestSchema>

/** sync-v1 §3: the first response frame. */
export const SyncHeaderSchema = z.strictObject({
  count: z.number().int().min(0).max(MAX_SYNC_PAGE_SIZE),
  next: cursor
})
export type SyncHeader = z.infer<typeof SyncHeaderSchema>

/** Canonical DAG-CBOR of a wire message. */
export function encodeWire (value: WitnessEnvelope | FetchRequest | SyncRequest | SyncHeader): Uint8Array {
  return dagCbor.encode(value)
}

/**
 * Bytes → a schema-valid message in canonical form: size, then decode, then schema, then the
 * canonical-form check. Errors: RECORD_TOO_LARGE, DECODE_FAILED, SCHEMA_INVALID.
 */
export function decodeWire<T> (input: Uint8Array, schema: z.ZodType<T>, what: string, maxBytes: number): T {
  if (input.length > maxBytes) {
    throw new IsnadError('RECORD_TOO_LARGE', `${what} of ${input.length} bytes exceeds ${maxBytes}`)
  }
  let data: unknown
  try {
    data = dagCbor.decode(input)
  } catch (cause) {
    throw new IsnadError('DECODE_FAILED', `${what} is not valid DAG-CBOR`, { cause })
  }
  const result = schema.safeParse(data)
  if (!result.success) throw schemaError(result.error, what)
  if (!sameBytes(dagCbor.encode(data), input)) {
    throw new IsnadError('DECODE_FAILED', `${what} is not in canonical DAG-CBOR form`)
  }
  return result.data
}

export function encodeWitnessEnvelope (request: Uint8Array, memory: Uint8Array): Uint8Array {
  return encodeWire({ memory, request })
}

export function decodeWitnessEnvelope (input: Uint8Array): WitnessEnvelope {
  return decodeWire(input, WitnessEnvelopeSchema, 'witness-request envelope', MAX_ENVELOPE_BYTES)
}
