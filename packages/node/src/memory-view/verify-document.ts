import { z } from 'zod'
import { IsnadError } from '../errors/index.js'
import type { SignatureVerifier } from '../identity/index.js'
import { parseSignedRecord, recordCidOf, schemaError, verifyRecord } from '../record/index.js'
import {
  BUNDLE_FORMAT, MAX_BUNDLE_RECORDS, MemoryViewSchema, type AnchorRecord, type AttestationRecord,
  type IsnadRecord, type SignedRecord
} from '../schema/index.js'
import { verifyRecordInclusion } from '../merkle/index.js'
import { computeTrust, type TrustResult } from '../trust/index.js'
import { recordsFromView } from './memory-view.js'

export interface RecordVerdict {
  /** The recomputed id (CID) when the record could be read, else the id the document claimed. */
  id: string | null
  kind: string
  valid: boolean
  code?: string
  reason?: string
}

export interface DocumentReport {
  valid: boolean
  document: 'memory-view' | 'bundle' | 'record-inclusion'
  records: RecordVerdict[]
  /** For a memory view: the trust recomputed from the verified evidence (anchors unchecked offline). */
  trust?: TrustResult
}

/** Loose envelope: records are checked one by one so each gets its own verdict. */
export const BundleEnvelopeSchema = z.strictObject({
  format: z.literal(BUNDLE_FORMAT),
  exported_at: z.string(),
  records: z.array(z.unknown()).max(MAX_BUNDLE_RECORDS)
})

export type BundleEnvelope = z.infer<typeof BundleEnvelopeSchema>

/**
 * A bundle's envelope (record-v1 §6), with one code per kind of fault on every path (verify, import,
 * the API, the CLI): more than MAX_BUNDLE_RECORDS records is FIELD_TOO_LARGE, as any size limit;
 * anything else wrong with the envelope is BUNDLE_INVALID. The records are checked one by one after.
 */
export function parseBundleEnvelope (value: unknown): BundleEnvelope {
  const parsed = BundleEnvelopeSchema.safeParse(value)
  if (parsed.success) return parsed.data
  throw bundleEnvelopeError(parsed.error)
}

/** The error for a bundle envelope that failed its schema: FIELD_TOO_LARGE or BUNDLE_INVALID. */
export function bundleEnvelopeError (error: z.ZodError): IsnadError {
  const named = schemaError(error, 'bundle')
  if (named.code === 'FIELD_TOO_LARGE') return named
  return new IsnadError('BUNDLE_INVALID', named.message, { details: named.details })
}

export interface VerifyDocumentOptions {
  verifier: SignatureVerifier
  now: number
}

/**
 * Verifies a memory view or an export bundle with nothing but the document (offline, any peer): every
 * record's id and signature, and for a view that every witness and anchor belongs to its memory.
 * Pure: the verifier and the clock are passed in.
 */
export function verifyDocument (document: unknown, options: VerifyDocumentOptions): DocumentReport {
  if (typeof document === 'object' && document !== null && 'proof' in document && 'checkpoint' in document) {
    return verifyInclusionDocument(document, options)
  }
  if (typeof document === 'object' && document !== null && 'format' in document) {
    const bundle = parseBundleEnvelope(document)
    const records = bundle.records.map((input) => checkRecord(input, null, options))
    return { valid: records.every((r) => r.valid), document: 'bundle', records }
  }
  const view = MemoryViewSchema.safeParse(document)
  if (!view.success) throw schemaError(view.error, 'memory view')
  const rebuilt = recordsFromView(view.data)
  const memory = checkRecord(rebuilt.memory, rebuilt.claimedIds.memory, options)
  const attestations = rebuilt.attestations.map((a, i) => checkRecord(a, rebuilt.claimedIds.attestations[i] ?? null, options))
  const anchors = rebuilt.anchors.map((a, i) => checkRecord(a, rebuilt.claimedIds.anchors[i] ?? null, options))
  const trust = computeTrust({
    memory: { id: memory.id ?? view.data.id, record: rebuilt.memory.record, signatureValid: memory.valid },
    attestations: rebuilt.attestations.map((a, i) => evidenceOf<AttestationRecord>(a, attestations[i])),
    anchors: rebuilt.anchors.map((a, i) => ({
      ...evidenceOf<AnchorRecord>(a, anchors[i]),
      verification: { state: 'unchecked' as const, reason: 'anchors are not checked offline' }
    })),
    now: options.now
  })
  const records = [memory, ...attestations, ...anchors]
  return { valid: records.every((r) => r.valid), document: 'memory-view', records, trust }
}

/** `isnad ledger prove` output: the record's CID is in the tree the signed checkpoint commits to. */
function verifyInclusionDocument (document: object, options: VerifyDocumentOptions): DocumentReport {
  const id = (document as { record?: unknown }).record
  const verdict: RecordVerdict = { id: typeof id === 'string' ? id : null, kind: 'record-inclusion', valid: false }
  try {
    if (verifyRecordInclusion(document, options.verifier, { now: options.now })) verdict.valid = true
    else Object.assign(verdict, { code: 'PROOF_INVALID', reason: 'the inclusion proof does not lead to the checkpoint\'s root' })
  } catch (err) {
    if (!(err instanceof IsnadError)) throw err
    Object.assign(verdict, { code: err.code, reason: err.message })
  }
  return { valid: verdict.valid, document: 'record-inclusion', records: [verdict] }
}

function evidenceOf<R extends IsnadRecord> (signed: SignedRecord<R>, verdict: RecordVerdict | undefined): { id: string, record: R, signatureValid: boolean } {
  return { id: verdict?.id ?? '', record: signed.record, signatureValid: verdict?.valid === true }
}

function checkRecord (input: unknown, claimedId: string | null, options: VerifyDocumentOptions): RecordVerdict {
  const kind = kindOf(input)
  try {
    const { id } = verifyRecord(input, options)
    if (claimedId !== null && claimedId !== id) {
      return { id, kind, valid: false, code: 'CID_MISMATCH', reason: `the document calls it ${claimedId}, its content hashes to ${id}` }
    }
    return { id, kind, valid: true }
  } catch (err) {
    if (!(err instanceof IsnadError)) throw err
    return { id: idIfReadable(input) ?? claimedId, kind, valid: false, code: err.code, reason: err.message }
  }
}

/** The id a record hashes to when it is at least well-formed, so a report can name a bad record. */
function idIfReadable (input: unknown): string | null {
  try {
    return recordCidOf(parseSignedRecord(input).record).toString()
  } catch {
    return null
  }
}

function kindOf (input: unknown): string {
  const record = (input as { record?: { kind?: unknown } } | null)?.record
  return typeof record?.kind === 'string' ? record.kind : 'unknown'
}

