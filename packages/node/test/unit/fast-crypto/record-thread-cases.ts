import * as dagCbor from '@ipld/dag-cbor'
import { readFileSync } from 'node:fs'
import { expect, vi } from 'vitest'
import { isIsnadError, type ErrorCode } from '../../../src/errors/index.js'
import { nodeCryptoVerifier, runningVerifierThreads, useRecordThreads, VERIFY_THREADS_MIN_BURST } from '../../../src/fast-crypto/index.js'
import { encodeSignedRecord, verifiedIdOf, verifyRecordBytes, verifyRecordBytesAsync, type VerifiedRecord } from '../../../src/record/index.js'
import type { RecordKind, SignedRecord } from '../../../src/schema/index.js'

/*
 * The record vectors of protocols/vectors/records as cases for the verifier threads' tests
 * (record-threads*.test.ts), and the two ways of verifying them those tests compare: on this
 * thread (here) and through the node's fast paths, on the threads once they run (viaThreads).
 */

interface VectorFile<V> { now: string, vectors: V[] }
interface ValidVector { id: string, signed: SignedRecord }
interface InvalidVector { id: string, code: ErrorCode, options?: { expected_kind: RecordKind }, signed?: unknown, json_only?: true, bytes?: { hex: string, zero_pad_to?: number } }

function load<V> (name: string): VectorFile<V> {
  return JSON.parse(readFileSync(new URL(`../../../protocols/vectors/records/${name}`, import.meta.url), 'utf8')) as VectorFile<V>
}

export const valid = load<ValidVector>('valid.json')
const invalid = load<InvalidVector>('invalid.json')
const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex')

function bytesOf (spec: { hex: string, zero_pad_to?: number }): Uint8Array {
  const head = Buffer.from(spec.hex, 'hex')
  const out = new Uint8Array(Math.max(head.length, spec.zero_pad_to ?? 0))
  out.set(head)
  return out
}

export interface Case { id: string, bytes: Uint8Array, now: number, expectedKind?: RecordKind }

export const cases: Case[] = [
  ...valid.vectors.map((v) => ({ id: v.id, bytes: encodeSignedRecord(v.signed), now: Date.parse(valid.now) })),
  // Another kind expected: WRONG_KIND from both places.
  ...valid.vectors.map((v) => ({ id: `${v.id} (expected anchor)`, bytes: encodeSignedRecord(v.signed), now: Date.parse(valid.now), expectedKind: 'anchor' as const })),
  ...invalid.vectors.filter((v) => v.json_only !== true && (v.bytes !== undefined || v.signed !== undefined)).map((v) => ({
    id: v.id,
    bytes: v.bytes === undefined ? dagCbor.encode(v.signed) : bytesOf(v.bytes),
    now: Date.parse(invalid.now),
    ...(v.options === undefined ? {} : { expectedKind: v.options.expected_kind })
  }))
]

/** What a verification gave, as comparable data. */
function outcomeOf (result: VerifiedRecord | unknown): unknown {
  if (isIsnadError(result)) return { code: result.code, message: result.message, details: result.details }
  if (result instanceof Error) return { error: String(result) }
  const verified = result as VerifiedRecord
  return { id: verified.id, cid: verified.cid.toString(), signed: verified.signed, bytes: hex(verified.bytes), noted: verifiedIdOf(verified.bytes) }
}

export function here ({ bytes, now, expectedKind }: Case): unknown {
  try {
    return outcomeOf(verifyRecordBytes(bytes, { verifier: nodeCryptoVerifier, now, ...(expectedKind === undefined ? {} : { expectedKind }) }))
  } catch (err) {
    return outcomeOf(err)
  }
}

export async function viaThreads ({ bytes, now, expectedKind }: Case): Promise<unknown> {
  return await verifyRecordBytesAsync(bytes, { verifier: nodeCryptoVerifier, now, ...(expectedKind === undefined ? {} : { expectedKind }) })
    .then(outcomeOf, outcomeOf)
}

/**
 * Starts the threads as an ingest does: a first burst of signature checks. Whole records go to them
 * from then on, whatever the machine's default (RECORD_THREADS_MIN_CPUS), so these tests check the
 * threads' path on a 2-CPU runner too.
 */
export async function startThreads (): Promise<void> {
  useRecordThreads(true)
  const first = cases[0] as Case
  await Promise.all(Array.from({ length: 2 * VERIFY_THREADS_MIN_BURST }, async () => await viaThreads(first)))
  // The burst starts the threads; they take checks once they have said they are ready.
  await vi.waitFor(() => { expect(runningVerifierThreads(), 'threads started by the first burst').toBeGreaterThan(0) }, { timeout: 10_000 })
}

