import { sortInPlace } from '../schema/index.js'

/**
 * A cheaper route to the RFC 8785 (JCS) text of plain JSON data, for the ledger's hot path (every
 * event's payload, every view line). JCS differs from JSON.stringify only in member order (§3.2.3:
 * sorted by UTF-16 code units) and in what it refuses (lone surrogates, NaN, ±Infinity); numbers and
 * strings are written as JSON.stringify writes them (§3.2.2). So when every object of a value is
 * copied with its members inserted in sorted order, V8's native JSON.stringify of the result is the
 * canonical text, without the per-value calls of a generic serialiser. Only data that is certainly
 * plain takes this route; anything else (toJSON, class instances, undefined, -0, keys that V8 would
 * reorder, deep or cyclic nesting) returns undefined and the caller uses `canonicalize` itself, which
 * also gives the errors. test/unit/ledger/canonical-copy.test.ts compares both on random values.
 */

const NOT_PLAIN: unique symbol = Symbol('not plain JSON')

/** Deeper than this goes to the generic path (which also detects cycles). */
const MAX_DEPTH = 64

/** String.prototype.isWellFormed (ES2024, in Node since 20): no lone surrogates, which I-JSON forbids. */
export function isWellFormed (text: string): boolean {
  return (text as unknown as { isWellFormed: () => boolean }).isWellFormed()
}

/** '0'…'9': V8 enumerates integer-like keys first in numeric order, whatever the insertion order. */
function startsWithDigit (key: string): boolean {
  const c = key.charCodeAt(0)
  return c >= 48 && c <= 57
}

/** Up to this many members are sorted in place by insertion (sortInPlace); more go to Array#sort. */
const INSERTION_SORT_MAX = 32

/**
 * Sorts member names by UTF-16 code units (RFC 8785 §3.2.3; `<` on strings compares code units, as
 * the default sort does), in place without allocating for the few members of a typical object: V8's
 * sort allocates its work arrays on every call, which on the ledger's hot path (CBOR-decoded
 * records, whose members come in length-first order) was most of this file's allocation.
 */
function sortKeys (keys: string[]): void {
  sortInPlace(keys, compareCodeUnits, INSERTION_SORT_MAX)
}

function compareCodeUnits (a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

/** A deep copy of `value` with every object's members inserted in sorted order, or NOT_PLAIN. */
function sortedCopy (value: unknown, depth: number): unknown {
  switch (typeof value) {
    case 'string': return isWellFormed(value) ? value : NOT_PLAIN
    // -0 is written "0": the copy would differ from what a reader parses, so it takes the generic path.
    case 'number': return Number.isFinite(value) && !Object.is(value, -0) ? value : NOT_PLAIN
    case 'boolean': return value
    case 'object': break
    default: return NOT_PLAIN
  }
  if (value === null) return null
  if (depth >= MAX_DEPTH) return NOT_PLAIN
  if (Array.isArray(value)) {
    if (Object.getPrototypeOf(value) !== Array.prototype) return NOT_PLAIN
    const items = value as unknown[]
    const out = new Array<unknown>(items.length)
    for (let i = 0; i < items.length; i++) {
      const item = sortedCopy(items[i], depth + 1)
      if (item === NOT_PLAIN) return NOT_PLAIN
      out[i] = item
    }
    return out
  }
  const proto: unknown = Object.getPrototypeOf(value)
  if ((proto !== Object.prototype && proto !== null) || 'toJSON' in value) return NOT_PLAIN
  const object = value as Record<string, unknown>
  const keys = Object.keys(object)
  sortKeys(keys)
  const out: Record<string, unknown> = {}
  for (const key of keys) {
    if (startsWithDigit(key) || key === '__proto__' || !isWellFormed(key)) return NOT_PLAIN
    const member = sortedCopy(object[key], depth + 1)
    if (member === NOT_PLAIN) return NOT_PLAIN
    out[key] = member
  }
  return out
}

/**
 * A deep copy of plain JSON data with every object's members inserted in sorted order (what JSON.parse
 * of its canonical text returns; JSON.stringify of it is that text), or undefined when `value` is not
 * certainly plain. For a caller that embeds the copy in a larger value before serialising it once.
 * Never throws (a getter or proxy trap that does is left to the generic path, which reports it).
 */
export function sortedPlainCopy<T> (value: T): T | undefined {
  let copy: unknown
  try {
    copy = sortedCopy(value, 0)
  } catch {
    return undefined
  }
  return copy === NOT_PLAIN ? undefined : copy as T
}

/**
 * The canonical JSON text of plain JSON data and a deep copy of it with the same members in the same
 * order (what JSON.parse of the text returns), or undefined when `value` is not certainly plain. Never
 * throws (a getter or proxy trap that does is left to the generic path, which reports it).
 */
export function canonicalCopy<T> (value: T): { text: string, copy: T } | undefined {
  const copy = sortedPlainCopy(value)
  return copy === undefined ? undefined : { text: JSON.stringify(copy), copy }
}
