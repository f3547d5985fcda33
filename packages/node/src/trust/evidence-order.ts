import { IsnadError } from '../errors/index.js'
import { sortInPlace } from '../schema/index.js'

/**
 * Deterministic orderings, so that the result never depends on the order evidence arrives in.
 * Ids compare by UTF-16 code units; CID strings are ASCII base32, so this is byte order too.
 */
export function compareIds (a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

/** By time (ms) then id: "newest" is last. Timestamps compare as instants, never as strings
 * (`…00.500Z` sorts before `…00Z` as text). */
export function compareByTimeThenId (a: { at: number, id: string }, b: { at: number, id: string }): number {
  return a.at - b.at || compareIds(a.id, b.id)
}

/**
 * Sorts `items` in place by compareByTimeThenId, stably, and returns them: the same order as
 * `items.sort(compareByTimeThenId)`. A memory has a few attestations or anchors, and for those
 * an insertion sort allocates nothing, where Array.prototype.sort allocates a work copy even for
 * an array already in order.
 */
export function sortByTimeThenId<T extends { at: number, id: string }> (items: T[]): T[] {
  return sortInPlace(items, compareByTimeThenId)
}

/**
 * Refusals by id, then code, then reason: a total order even when the same record was passed twice
 * (one copy may be refused for its signature, the other as a duplicate).
 */
export function sortRefusals<T extends { id: string, code: string, reason: string }> (items: readonly T[]): T[] {
  return [...items].sort((a, b) => compareIds(a.id, b.id) || compareIds(a.code, b.code) || compareIds(a.reason, b.reason))
}

/**
 * Milliseconds of a record timestamp; records reach this module validated, so NaN is a caller bug.
 * The record is named by `kind` and `id` apart, so the message is only built when it is thrown.
 */
export function instantOf (timestamp: string, kind: string, id: string): number {
  const at = Date.parse(timestamp)
  if (Number.isNaN(at)) throw new IsnadError('TIMESTAMP_INVALID', `${kind} ${id} has an invalid timestamp ${timestamp}`)
  return at
}
