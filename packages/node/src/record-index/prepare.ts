import * as dagCbor from '@ipld/dag-cbor'
import { IsnadError } from '../errors/index.js'
import { cidString, encodeCanonical, encodeSignedRecordBytes, recordBytesIn, verifiedIdOf } from '../record/index.js'
import { cidOfBytesNative } from '../fast-crypto/index.js'
import type { IsnadRecord, SignedRecord, StoredRecord, TrustEntry } from '../schema/index.js'

/** A record checked against its id and encoded once, ready for any store to write. */
export interface PreparedRecord {
  id: string
  signed: SignedRecord
  /** Canonical DAG-CBOR of the signed record: what the store keeps. */
  bytes: Uint8Array
}

/**
 * Recomputes every id before anything is written (record-v1 R1: the id is the CID of the unsigned
 * record), so a mismatch anywhere refuses the whole batch. Duplicates within the batch collapse to
 * one. Signatures are the caller's business: the node stores only verified records.
 *
 * A record that comes with the bytes verification built (StoredRecord.bytes) is not encoded again:
 * when they are the very bytes the pipeline built for this id in this process (verifiedIdOf) they
 * are taken as they are, otherwise their record part is hashed against the id (one SHA-256); either
 * way they are copied, so no caller can change what a store holds by writing to its buffer later.
 * Otherwise the record is encoded once, for both the id and the bytes.
 */
export function prepareRecords (records: readonly StoredRecord[]): PreparedRecord[] {
  const prepared = new Map<string, PreparedRecord>()
  for (const record of records) {
    if (prepared.has(record.id)) continue
    prepared.set(record.id, record.bytes === undefined ? encodeRecord(record) : checkBytes(record, record.bytes))
  }
  return [...prepared.values()]
}

function encodeRecord ({ id, signed }: StoredRecord): PreparedRecord {
  const recordBytes = encodeCanonical(signed.record)
  assertId(id, signed, cidString(cidOfBytesNative(recordBytes)))
  return { id, signed, bytes: encodeSignedRecordBytes(recordBytes, signed.signature) }
}

function checkBytes ({ id, signed }: StoredRecord, bytes: Uint8Array): PreparedRecord {
  if (verifiedIdOf(bytes) === id) return { id, signed, bytes: bytes.slice() }
  const recordBytes = recordBytesIn(bytes, signed.signature)
  if (recordBytes === undefined) {
    throw new IsnadError('CID_MISMATCH', `the bytes given for ${signed.record.kind} ${id} are not a record signed with its signature; nothing of the batch was stored`, {
      details: { id }
    })
  }
  assertId(id, signed, cidString(cidOfBytesNative(recordBytes)))
  return { id, signed, bytes: bytes.slice() }
}

function assertId (id: string, signed: SignedRecord, actual: string): void {
  if (actual !== id) {
    throw new IsnadError('CID_MISMATCH', `${signed.record.kind} stored as ${id} has CID ${actual}; nothing of the batch was stored`, {
      details: { id, actual }
    })
  }
}

/**
 * Decodes bytes a store wrote itself, without the schema check of decodeSignedRecord: they were
 * the canonical encoding of a verified, schema-valid record when putMany wrote them (checked
 * against their id there), and nothing but putMany writes to a store. Parsing them again on every
 * read cost about as much as the read itself. Bytes that are not DAG-CBOR at all (a damaged index
 * directory) still fail, with DECODE_FAILED naming the record; the index can be rebuilt from the
 * ledger. Each call returns a fresh object, so callers may mutate it.
 */
export function decodeStoredRecord (id: string, bytes: Uint8Array): SignedRecord {
  try {
    return dagCbor.decode<SignedRecord>(bytes)
  } catch (cause) {
    throw new IsnadError('DECODE_FAILED', `stored record ${id} is not DAG-CBOR: the index is damaged and must be rebuilt`, { cause, details: { id } })
  }
}

/** A trust score must lie in [0, 1]: the query indexes give it a fixed-width key. */
export function assertTrustEntry (memoryId: string, trust: TrustEntry): void {
  const { score } = trust
  if (typeof score !== 'number' || !(score >= 0 && score <= 1)) {
    throw new IsnadError('USAGE', `trust score of memory ${memoryId} must be a number from 0 to 1`, {
      details: { memoryId, score }
    })
  }
}

export function trustNotFound (memoryId: string): IsnadError {
  return new IsnadError('NOT_FOUND', `cannot record trust for memory ${memoryId}: it is not stored`, {
    details: { memoryId }
  })
}

/** The relations the accessors of RecordStore walk, by name. */
// No `attested_by` (attestations by a witness): nothing asked for it, and its key (a did:key and an
// id, 128 bytes) was a sixth of the index written by a sync. An index of layout 5 still
// holding them is rebuilt on open (level/format.ts).
export const LINKS = ['attestations', 'anchors', 'witness_requests', 'successors'] as const
export type Link = (typeof LINKS)[number]

/** Every relation a record takes part in: `from` is the key the accessor is asked with. */
export function linksOf (record: IsnadRecord): Array<{ link: Link, from: string }> {
  switch (record.kind) {
    case 'memory':
      return record.lineage.supersedes === undefined ? [] : [{ link: 'successors', from: record.lineage.supersedes }]
    case 'attestation':
      return [{ link: 'attestations', from: record.memory }]
    case 'anchor':
      return [{ link: 'anchors', from: record.memory }]
    case 'witness_request':
      return [{ link: 'witness_requests', from: record.memory }]
  }
}

/**
 * Whether a trust entry given with a batch says nothing new about a stored one: the same score,
 * level and policy (only `computed_at` differs). putMany then keeps the stored entry as it is, so
 * `computed_at` is when the node computed the score it holds: a sync re-scores a memory with every
 * page that brings one of its attestations, mostly to the same score, and rewriting the entry each
 * time was a quarter of the index's bytes after a sync. setTrust always writes.
 */
export function sameTrust (stored: TrustEntry | undefined, entry: TrustEntry): boolean {
  return stored !== undefined && stored.score === entry.score && stored.level === entry.level && stored.policy === entry.policy
}

/** Copies a trust entry so no caller can change what a store holds by mutating an object. */
export function copyTrust (trust: TrustEntry): TrustEntry {
  return { score: trust.score, level: trust.level, policy: trust.policy, computed_at: trust.computed_at }
}
