import {
  MAX_BODY_BYTES, MAX_CLAIM_BYTES, MAX_CLAIMS, MAX_CONTEXT_FIELD_BYTES, MAX_DERIVED_FROM, MAX_DID_BYTES, MAX_DRAW_POPULATION, MAX_DRAW_SHARDS,
  MAX_HASH_BYTES, MAX_NOTES_BYTES, MAX_REFERENCE_BYTES, MAX_REQUEST_WITNESSES, MAX_SUMMARY_BYTES, MAX_TAG_BYTES, MAX_TAGS
} from './record-limits.js'
import {
  DID_KEY_PATTERN, hasForbiddenText, MAX_CID_CHARS, isCanonicalCidV1, isIsoTimestamp, isRecordCid, isWithinBytes, SIGNATURE_PATTERN, VRF_PROOF_PATTERN
} from './primitives.js'
import {
  ANCHOR_HASH_PATTERN, ANCHOR_TYPES, ATTESTATION_VERDICTS, CONTENT_TYPES, TAG_PATTERN,
  type AnchorRecord, type AttestationDraw, type AttestationRecord, type IsnadRecord, type MemoryRecord, type SignedRecord, type WitnessRequestRecord
} from './records.js'

/*
 * SignedRecordSchema's verdict on a valid record without zod: a node checks every record it
 * receives, and zod's generic walk (a context, an issue list and a result object per field, ~4.5 KB
 * allocated per record) cost more than decoding the bytes. Every rule of records.ts and
 * primitives.ts is read here from the same constants and patterns; records.ts stays the declared
 * schema (its JSON Schema is published) and the only source of errors: wherever this says no, the
 * caller runs zod, which refuses with its issues (or accepts). test/unit/schema/signed-record-check.test.ts
 * holds both to the same verdicts and values on vectors, mutations and generated records.
 */

type Fields = Record<string, unknown>

/**
 * What SignedRecordSchema.parse returns for `value` (a new object, fields in the schema's order,
 * absent optional fields absent, arrays copied), or undefined when zod must decide: `value` breaks a
 * rule, or holds an optional field set to `undefined` (never the case for decoded bytes or JSON).
 */
export function checkSignedRecord (value: unknown): SignedRecord | undefined {
  const signed = fieldsOf(value, 2)
  if (signed === undefined) return undefined
  const signature = signed.signature
  if (typeof signature !== 'string' || !SIGNATURE_PATTERN.test(signature)) return undefined
  const record = checkRecord(signed.record)
  return record === undefined ? undefined : { record, signature }
}

function checkRecord (value: unknown): IsnadRecord | undefined {
  if (typeof value !== 'object' || value === null) return undefined
  switch ((value as Fields).kind) {
    case 'memory': return checkMemory(value as Fields)
    case 'attestation': return checkAttestation(value as Fields)
    case 'anchor': return checkAnchor(value as Fields)
    case 'witness_request': return checkWitnessRequest(value as Fields)
    default: return undefined
  }
}

function checkMemory (record: Fields): MemoryRecord | undefined {
  const { version, content, author, created_at: createdAt, context, lineage } = record
  if (countKeys(record) !== 7 || version !== 1 || !isTimestamp(createdAt)) return undefined
  const checkedContent = checkContent(content)
  const checkedAuthor = checkAuthor(author)
  const checkedContext = checkContext(context)
  const checkedLineage = checkLineage(lineage)
  if (checkedContent === undefined || checkedAuthor === undefined || checkedContext === undefined || checkedLineage === undefined) return undefined
  return { kind: 'memory', version: 1, content: checkedContent, author: checkedAuthor, created_at: createdAt, context: checkedContext, lineage: checkedLineage }
}

function checkContent (value: unknown): MemoryRecord['content'] | undefined {
  const content = fieldsOf(value, 4)
  if (content === undefined) return undefined
  const { type, summary, body, tags } = content
  if (!isOneOf(type, CONTENT_TYPES) || !isText(summary, MAX_SUMMARY_BYTES, 1, false) || !isText(body, MAX_BODY_BYTES, 0, true)) return undefined
  if (!Array.isArray(tags) || tags.length > MAX_TAGS || !tags.every(isTag) || !isUnique(tags)) return undefined
  return { type, summary, body, tags: tags.slice() }
}

function checkAuthor (value: unknown): MemoryRecord['author'] | undefined {
  const author = fieldsOf(value, 1 + countPresent(value, 'platform', 'handle'))
  if (author === undefined) return undefined
  const { agent_id: agentId, platform, handle } = author
  if (!isDidKey(agentId) || !isOptionalText(platform, MAX_CONTEXT_FIELD_BYTES, 1, false) || !isOptionalText(handle, MAX_CONTEXT_FIELD_BYTES, 1, false)) return undefined
  const checked: MemoryRecord['author'] = { agent_id: agentId }
  if (platform !== undefined) checked.platform = platform
  if (handle !== undefined) checked.handle = handle
  return checked
}

function checkContext (value: unknown): MemoryRecord['context'] | undefined {
  const context = fieldsOf(value, 1 + countPresent(value, 'session_id', 'trigger'))
  if (context === undefined) return undefined
  const { session_id: sessionId, trigger, confidence } = context
  if (!isOptionalText(sessionId, MAX_CONTEXT_FIELD_BYTES, 1, false) || !isOptionalText(trigger, MAX_CONTEXT_FIELD_BYTES, 1, true)) return undefined
  if (!isFiniteNumber(confidence) || confidence < 0 || confidence > 1) return undefined // record-v1 R4
  // The schema's order: session_id, trigger, confidence.
  if (sessionId === undefined && trigger === undefined) return { confidence }
  if (trigger === undefined) return { session_id: sessionId, confidence }
  return sessionId === undefined ? { trigger, confidence } : { session_id: sessionId, trigger, confidence }
}

function checkLineage (value: unknown): MemoryRecord['lineage'] | undefined {
  const lineage = fieldsOf(value, 1 + countPresent(value, 'supersedes'))
  if (lineage === undefined) return undefined
  const { supersedes, derived_from: derivedFrom } = lineage
  if (supersedes !== undefined && !isCid(supersedes)) return undefined
  if (!Array.isArray(derivedFrom) || derivedFrom.length > MAX_DERIVED_FROM || !derivedFrom.every(isCid) || !isUnique(derivedFrom)) return undefined // R15
  return supersedes === undefined ? { derived_from: derivedFrom.slice() } : { supersedes, derived_from: derivedFrom.slice() }
}

function checkAttestation (record: Fields): AttestationRecord | undefined {
  const { version, memory, witness, attestation, witnessed_at: witnessedAt, notes, claims, draw } = record
  if (countKeys(record) !== 6 + countPresent(record, 'notes', 'claims', 'draw') || version !== 1) return undefined
  if (!isCid(memory) || !isDidKey(witness) || !isOneOf(attestation, ATTESTATION_VERDICTS) || !isTimestamp(witnessedAt)) return undefined
  if (!isOptionalText(notes, MAX_NOTES_BYTES, 0, true)) return undefined
  if (claims !== undefined && (attestation !== 'partial' || !isClaimList(claims))) return undefined // R12
  const checkedDraw = draw === undefined ? undefined : checkDraw(draw)
  if (draw !== undefined && checkedDraw === undefined) return undefined
  const checked: AttestationRecord = { kind: 'attestation', version: 1, memory, witness, attestation, witnessed_at: witnessedAt }
  if (notes !== undefined) checked.notes = notes
  if (claims !== undefined) checked.claims = (claims as string[]).slice()
  if (checkedDraw !== undefined) checked.draw = checkedDraw
  return checked
}

function isClaimList (claims: unknown): boolean {
  return Array.isArray(claims) && claims.length >= 1 && claims.length <= MAX_CLAIMS && claims.every((claim) => isText(claim, MAX_CLAIM_BYTES, 1, false))
}

function checkDraw (value: unknown): AttestationDraw | undefined {
  const draw = fieldsOf(value, 2 + countPresent(value, 'shards'))
  if (draw === undefined) return undefined
  const { population, proof, shards } = draw
  if (!isIntegerIn(population, 1, MAX_DRAW_POPULATION) || typeof proof !== 'string' || !VRF_PROOF_PATTERN.test(proof)) return undefined
  if (shards === undefined) return { population, proof }
  // W12: a power of two from 2 to MAX_DRAW_SHARDS.
  return isIntegerIn(shards, 2, MAX_DRAW_SHARDS) && (shards & (shards - 1)) === 0 ? { population, proof, shards } : undefined
}

function checkAnchor (record: Fields): AnchorRecord | undefined {
  const { version, memory, type, reference, hash, created_at: createdAt, anchored_by: anchoredBy } = record
  if (countKeys(record) !== 8 || version !== 1 || !isCid(memory) || !isOneOf(type, ANCHOR_TYPES)) return undefined
  if (!isText(reference, MAX_REFERENCE_BYTES, 1, false) || !isText(hash, MAX_HASH_BYTES, 0, false) || !ANCHOR_HASH_PATTERN.test(hash)) return undefined
  if (!isTimestamp(createdAt) || !isDidKey(anchoredBy)) return undefined
  if (type === 'cid' && (reference.length > MAX_CID_CHARS || !isCanonicalCidV1(reference))) return undefined // R13: anyCid
  return { kind: 'anchor', version: 1, memory, type, reference, hash, created_at: createdAt, anchored_by: anchoredBy }
}

function checkWitnessRequest (record: Fields): WitnessRequestRecord | undefined {
  const { version, memory, requester, witnesses, created_at: createdAt, expires_at: expiresAt } = record
  if (countKeys(record) !== 5 + countPresent(record, 'witnesses', 'expires_at') || version !== 1) return undefined
  if (!isCid(memory) || !isDidKey(requester) || !isTimestamp(createdAt)) return undefined
  if (witnesses !== undefined && (!Array.isArray(witnesses) || witnesses.length < 1 || witnesses.length > MAX_REQUEST_WITNESSES || !witnesses.every(isDidKey) || !isUnique(witnesses))) return undefined // R14
  if (expiresAt !== undefined && (!isTimestamp(expiresAt) || !(Date.parse(expiresAt) > Date.parse(createdAt)))) return undefined
  // The schema's order: …, witnesses, created_at, expires_at.
  const list = witnesses === undefined ? undefined : (witnesses as string[]).slice()
  if (list === undefined) {
    return expiresAt === undefined
      ? { kind: 'witness_request', version: 1, memory, requester, created_at: createdAt }
      : { kind: 'witness_request', version: 1, memory, requester, created_at: createdAt, expires_at: expiresAt }
  }
  return expiresAt === undefined
    ? { kind: 'witness_request', version: 1, memory, requester, witnesses: list, created_at: createdAt }
    : { kind: 'witness_request', version: 1, memory, requester, witnesses: list, created_at: createdAt, expires_at: expiresAt }
}

/** `value` as an object of exactly `keys` own enumerable fields (strictObject), else undefined. */
function fieldsOf (value: unknown, keys: number): Fields | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && countKeys(value as Fields) === keys ? value as Fields : undefined
}

/**
 * The enumerable keys of a plain object. With the named fields' checks, a count equal to the
 * required fields plus the optional ones present says no other field is there (strictObject).
 */
function countKeys (fields: Fields): number {
  if (Object.getPrototypeOf(fields) !== Object.prototype) return -1
  let count = 0
  for (const key in fields) {
    if (!Object.hasOwn(fields, key)) return -1
    count++
  }
  return count
}

/**
 * How many of the optional fields `names` `value` holds. A field that is there but `undefined` is
 * not counted, so the key count differs and the caller leaves it to zod.
 */
function countPresent (value: unknown, ...names: string[]): number {
  if (typeof value !== 'object' || value === null) return 0
  let count = 0
  for (const name of names) if ((value as Fields)[name] !== undefined) count++
  return count
}

function isText (value: unknown, maxBytes: number, min: number, allowNewlines: boolean): value is string {
  return typeof value === 'string' && value.length >= min && isWithinBytes(value, maxBytes) && !hasForbiddenText(value, allowNewlines)
}

function isOptionalText (value: unknown, maxBytes: number, min: number, allowNewlines: boolean): value is string | undefined {
  return value === undefined || isText(value, maxBytes, min, allowNewlines)
}

function isTag (value: unknown): boolean {
  return isText(value, MAX_TAG_BYTES, 1, false) && TAG_PATTERN.test(value)
}

function isDidKey (value: unknown): value is string {
  return typeof value === 'string' && value.length <= MAX_DID_BYTES && DID_KEY_PATTERN.test(value)
}

function isCid (value: unknown): value is string {
  return typeof value === 'string' && isRecordCid(value)
}

function isTimestamp (value: unknown): value is string {
  return typeof value === 'string' && isIsoTimestamp(value)
}

function isOneOf<T extends string> (value: unknown, options: readonly T[]): value is T {
  return typeof value === 'string' && (options as readonly string[]).includes(value)
}

function isFiniteNumber (value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value)
}

function isIntegerIn (value: unknown, min: number, max: number): value is number {
  return Number.isSafeInteger(value) && (value as number) >= min && (value as number) <= max
}

function isUnique (items: readonly unknown[]): boolean {
  if (items.length < 2) return true
  return new Set(items).size === items.length
}
