import { hash } from 'node:crypto'
import { hashLine as genericHashLine } from './hash.js'

/**
 * The spec §8 hash of the three lines the reducer builds (object, attachment, reducer line), by the
 * same rule as hashLine but without a generic canonicaliser. RFC 8785 text differs from
 * JSON.stringify only in member order (§3.2.3: sorted by UTF-16 code units) and in what it refuses
 * (lone surrogates, NaN, ±Infinity). These lines have known members, so each is copied into an
 * object literal written in sorted order, absent members left undefined (JSON.stringify omits
 * them), and V8's JSON.stringify of the copy is the canonical text: one object per line instead of
 * a sorted key list, a copy of every object and array, and a generic walk.
 *
 * The copy is used only when it certainly gives the canonical text: every member of the line is one
 * the copy names, and every value is a well-formed string, a finite number, a boolean, null, or an
 * array of those. Anything else (an unexpected member, a lone surrogate, NaN) goes to hashLine,
 * which hashes it or refuses it exactly as before. The golden tests pin the bytes; a property test
 * compares both routes on arbitrary lines.
 */

const HASH_PREFIX = 'sha256:'

type Line = Readonly<Record<string, unknown>>

export function hashObjectLine (line: Line): string {
  const copy = {
    assumptions: line.assumptions,
    confidence: line.confidence,
    decision_key: line.decision_key,
    due_at: line.due_at,
    event_refs: line.event_refs,
    evidence_ref: line.evidence_ref,
    horizon: line.horizon,
    id: line.id,
    owner: line.owner,
    project: line.project,
    review_at: line.review_at,
    salience: line.salience,
    schema_version: line.schema_version,
    scope: line.scope,
    source: line.source,
    status: line.status,
    summary: line.summary,
    supersedes: line.supersedes,
    tags: line.tags,
    ts: line.ts,
    type: line.type,
    visibility: line.visibility,
    why: line.why
  }
  return isCopyOf(copy, line) ? hashOfText(JSON.stringify(copy)) : genericHashLine(line)
}

/** The attachment's nested members: copied and checked entry by entry (anchorCopy …). */
const NESTED_ATTACHMENT_MEMBERS: ReadonlySet<string> = new Set(['anchors', 'attestations', 'trust'])

export function hashAttachmentLine (line: Line): string {
  const anchors = copiesOf(line.anchors, anchorCopy)
  const attestations = copiesOf(line.attestations, attestationCopy)
  const trust = isRecord(line.trust) ? trustCopy(line.trust) : undefined
  if (anchors === undefined || attestations === undefined || trust === undefined) return genericHashLine(line)
  const copy = {
    anchors,
    attestations,
    id: line.id,
    memory: line.memory,
    object: line.object,
    schema_version: line.schema_version,
    scope: line.scope,
    trust,
    ts: line.ts
  }
  return isCopyOf(copy, line, NESTED_ATTACHMENT_MEMBERS) ? hashOfText(JSON.stringify(copy)) : genericHashLine(line)
}

export function hashReductionLine (line: Line): string {
  const copy = {
    attachment: line.attachment,
    attachment_hash: line.attachment_hash,
    attachment_shard: line.attachment_shard,
    id: line.id,
    memory: line.memory,
    object: line.object,
    object_hash: line.object_hash,
    object_type: line.object_type,
    previous: line.previous,
    reducer: line.reducer,
    schema_version: line.schema_version,
    shard: line.shard,
    ts: line.ts
  }
  return isCopyOf(copy, line) ? hashOfText(JSON.stringify(copy)) : genericHashLine(line)
}

function hashOfText (text: string): string {
  return HASH_PREFIX + hash('sha256', text, 'hex')
}

function anchorCopy (a: Line): object | undefined {
  const copy = { hash: a.hash, id: a.id, reference: a.reference, state: a.state, type: a.type }
  return isCopyOf(copy, a) ? copy : undefined
}

function attestationCopy (a: Line): object | undefined {
  const copy = { id: a.id, verdict: a.verdict, witness: a.witness }
  return isCopyOf(copy, a) ? copy : undefined
}

function trustCopy (t: Line): object | undefined {
  const copy = { level: t.level, score: t.score }
  return isCopyOf(copy, t) ? copy : undefined
}

/** Copies of a plain array's entries (plain objects), or undefined when any is not one or has other members. */
function copiesOf (list: unknown, copyOf: (entry: Line) => object | undefined): object[] | undefined {
  if (!Array.isArray(list) || Object.getPrototypeOf(list) !== Array.prototype) return undefined
  const out: object[] = []
  for (const entry of list as unknown[]) {
    const copy = isRecord(entry) ? copyOf(entry) : undefined
    if (copy === undefined) return undefined
    out.push(copy)
  }
  return out
}

/**
 * True when `copy` holds every member of `original` (no more: the copy's undefined members are
 * absent ones) and every value is plain JSON that JSON.stringify writes in its canonical form
 * (`checked` names members whose copies were checked where they were made).
 */
function isCopyOf (copy: Line, original: Line, checked?: ReadonlySet<string>): boolean {
  if (!isRecord(original)) return false
  let present = 0
  for (const key in copy) {
    const value = copy[key]
    if (value === undefined) continue
    if (!Object.hasOwn(original, key) || (checked?.has(key) !== true && !isPlainValue(value))) return false
    present++
  }
  let members = 0
  for (const key in original) if (Object.hasOwn(original, key)) members++
  return members === present
}

function isPlainValue (value: unknown): boolean {
  switch (typeof value) {
    case 'string': return isWellFormed(value)
    case 'number': return Number.isFinite(value)
    case 'boolean': return true
    case 'object':
      if (value === null) return true
      if (!Array.isArray(value) || Object.getPrototypeOf(value) !== Array.prototype) return false
      for (const item of value as unknown[]) {
        // Nested arrays and objects are not members of these lines' arrays: the generic route takes them.
        if (typeof item === 'object' || !isPlainValue(item)) return false
      }
      return true
    default: return false
  }
}

/** A plain object: no prototype but Object's (or none), no toJSON, not an array. */
function isRecord (value: unknown): value is Line {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false
  const proto: unknown = Object.getPrototypeOf(value)
  return (proto === Object.prototype || proto === null) && !('toJSON' in value)
}

/** String.prototype.isWellFormed (ES2024, in Node since 20): no lone surrogates, which RFC 8785 refuses. */
function isWellFormed (text: string): boolean {
  return (text as unknown as { isWellFormed: () => boolean }).isWellFormed()
}
