import { IsnadError } from '../errors/index.js'
import { TRUST_SCALE } from './constants.js'

/*
 * The one total order of query results (types.ts QueryPage): trust desc, created_at desc, id asc.
 * Both stores express a memory's place in it as a "position" string whose plain lexicographic order
 * is that order, so LevelDB can walk it as a key suffix and the in-memory store can sort by it, and
 * the two agree on every cursor.
 */

const SCORE_DIGITS = String(TRUST_SCALE).length
/** The latest instant a record-v1 timestamp can name (year 9999), so `MAX - ms` is never negative. */
export const MAX_MILLIS = Date.parse('9999-12-31T23:59:59.999Z')
/** Year 0000 is a valid record-v1 year and parses to a negative ms value; the width covers it. */
const MIN_MILLIS = Date.parse('0000-01-01T00:00:00.000Z')
const CREATED_DIGITS = String(MAX_MILLIS - MIN_MILLIS).length
const SEP = '\x00'
const POSITION_PATTERN = new RegExp(`^\\d{${SCORE_DIGITS}}\\x00\\d{${CREATED_DIGITS}}\\x00[^\\x00]{1,128}$`)

/** A score in [0, 1] as integer units of 1/TRUST_SCALE: the 4 decimals a TrustEntry is rounded to. */
export function scoreUnitsOf (score: number): number {
  return Math.round(score * TRUST_SCALE)
}

export function scoreOfUnits (units: number): number {
  return units / TRUST_SCALE
}

/**
 * The smallest score unit that satisfies `score ≥ minTrust`, computed with the same division the
 * results report, so a bound like 0.28 (0.28 × 10000 = 2800.0000000000005 in floating point) still
 * includes a score of exactly 0.28. Above 1 nothing matches: TRUST_SCALE + 1.
 */
export function minUnitsFor (minTrust: number): number {
  if (minTrust > 1) return TRUST_SCALE + 1
  let units = Math.max(0, Math.floor(minTrust * TRUST_SCALE) - 1)
  while (units <= TRUST_SCALE && scoreOfUnits(units) < minTrust) units++
  return units
}

/** Higher scores first: the inverted units, zero-padded to a fixed width. */
export function invertedScore (units: number): string {
  return String(TRUST_SCALE - units).padStart(SCORE_DIGITS, '0')
}

/** Newer first: the inverted epoch milliseconds, zero-padded to a fixed width. */
export function invertedCreated (millis: number): string {
  return String(MAX_MILLIS - millis).padStart(CREATED_DIGITS, '0')
}

export function positionOf (units: number, createdMillis: number, id: string): string {
  return invertedScore(units) + SEP + invertedCreated(createdMillis) + SEP + id
}

/** Reads the score units back from a position. */
export function unitsOfPosition (position: string): number {
  return TRUST_SCALE - Number(position.slice(0, SCORE_DIGITS))
}

/** Reads the score back from a position: the hit reports what the index ordered by. */
export function scoreOfPosition (position: string): number {
  return scoreOfUnits(TRUST_SCALE - Number(position.slice(0, SCORE_DIGITS)))
}

/** Reads the creation instant (epoch ms) back from a position: time bounds need no index value. */
export function createdOfPosition (position: string): number {
  const at = SCORE_DIGITS + SEP.length
  return MAX_MILLIS - Number(position.slice(at, at + CREATED_DIGITS))
}

export function idOfPosition (position: string): string {
  return position.slice(position.lastIndexOf(SEP) + 1)
}

/** The position string that sorts after every position with at least `units`. */
export function positionBoundBelow (units: number): string {
  return invertedScore(units) + '\x01'
}

/**
 * Cursors are the position of the last item returned, base64url so they travel in URLs and JSON.
 * They are opaque to callers and independent of which index served the page.
 */
export function encodeCursor (position: string): string {
  return Buffer.from(position, 'utf8').toString('base64url')
}

export function decodeCursor (cursor: string): string {
  const position = Buffer.from(cursor, 'base64url').toString('utf8')
  if (!POSITION_PATTERN.test(position) || encodeCursor(position) !== cursor) {
    throw new IsnadError('USAGE', 'the query cursor is not one this store returned', { details: { cursor } })
  }
  return position
}
