import type { z } from 'zod'
import { EventSchema, type LedgerEvent } from '../schema/index.js'
import { verifyCanonicalLineText, verifyLineHash } from './line-hash.js'
import { ArchiveReadError, decodeUtf8, readRawLines, type ReadLinesOptions } from './line-reader.js'

/**
 * What a reader finds in a ledger file, line by line. Nothing is skipped silently: a line that fails
 * a check becomes a `corrupt` entry naming the file, byte offset, line number and the check that
 * failed, so an auditor (`isnad ledger verify`) can list every one (spec §8: a hash mismatch is a
 * validation error; docs/architecture.md, "The data directory").
 */

/** Which check a line failed, cheapest first (docs/architecture.md: every line verifies against its payload). */
export type CorruptReason = 'utf8' | 'json' | 'schema' | 'hash' | 'order' | 'archive'

export interface EntryLocation {
  /** Absolute path of the file. */
  file: string
  /** Byte offset of the line (decompressed offset in an archive). */
  offset: number
  /** 1-based line number. */
  line: number
}

export type LedgerEntry<T> =
  /** `text`: the line as read (without its newline), for a reader that locates something inside it. */
  | EntryLocation & { kind: 'record', value: T, text?: string }
  | EntryLocation & { kind: 'corrupt', reason: CorruptReason, message: string, length: number }
  /** A last line without its newline: a write that never completed (or is still being written). */
  | EntryLocation & { kind: 'torn_tail', length: number }

export type LineCheck<T> = { ok: true, value: T } | { ok: false, reason: CorruptReason, message: string }

/** Checks one line's text: JSON, then the schema, then the spec §8 hash. */
export type LineValidator<T> = (text: string) => LineCheck<T>

/** A validator for lines of `schema` that carry a spec §8 `hash`. */
export function hashedLineValidator<S extends z.ZodType> (schema: S): LineValidator<z.infer<S>> {
  return (text) => {
    let raw: unknown
    try {
      raw = JSON.parse(text)
    } catch (err) {
      return { ok: false, reason: 'json', message: err instanceof Error ? err.message : 'not JSON' }
    }
    const parsed = schema.safeParse(raw)
    if (!parsed.success) {
      const issue = parsed.error.issues[0]
      return { ok: false, reason: 'schema', message: issue === undefined ? 'schema' : `${issue.path.join('.') || '(line)'}: ${issue.message}` }
    }
    // The hash is checked on the line as read, not on zod's output, so nothing zod adds or drops can
    // make a tampered line verify.
    if (!verifyCanonicalLineText(text, raw) && !verifyLineHash(raw)) return { ok: false, reason: 'hash', message: 'hash does not match the canonical payload' }
    return { ok: true, value: parsed.data as z.infer<S> }
  }
}

/** Validates `diasync-v1-event` lines (spec §5, §8). */
export const validateEventLine: LineValidator<LedgerEvent> = hashedLineValidator(EventSchema)

/** Every line of one file as entries. */
export async function * readEntries<T> (
  file: string, validate: LineValidator<T>, options: ReadLinesOptions = {}
): AsyncGenerator<LedgerEntry<T>> {
  let last: EntryLocation = { file, offset: 0, line: 0 }
  try {
    for await (const raw of readRawLines(file, options)) {
      const where = { file, offset: raw.offset, line: raw.line }
      last = where
      if (!raw.terminated) {
        yield { ...where, kind: 'torn_tail', length: raw.bytes.length }
        continue
      }
      const text = decodeUtf8(raw.bytes)
      if (text === undefined) {
        yield { ...where, kind: 'corrupt', reason: 'utf8', message: 'not valid UTF-8', length: raw.bytes.length + 1 }
        continue
      }
      const check = validate(text)
      yield check.ok
        ? { ...where, kind: 'record', value: check.value, text }
        : { ...where, kind: 'corrupt', reason: check.reason, message: check.message, length: raw.bytes.length + 1 }
    }
  } catch (err) {
    if (!(err instanceof ArchiveReadError)) throw err
    yield { file, offset: err.offset, line: last.line + 1, kind: 'corrupt', reason: 'archive', message: err.message, length: 0 }
  }
}
