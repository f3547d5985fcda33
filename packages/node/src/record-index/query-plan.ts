import { IsnadError } from '../errors/index.js'
import { CONTENT_TYPES, isIsoTimestamp, type ContentType, type MemoryQuery } from '../schema/index.js'
import { DEFAULT_QUERY_LIMIT, MAX_QUERY_LIMIT } from './constants.js'
import type { IndexedMemory } from './indexed-memory.js'
import { decodeCursor, minUnitsFor } from './result-order.js'

/** A MemoryQuery checked and reduced to what a scan compares, shared by every store. */
export interface NormalizedQuery {
  tags: string[]
  /** Lowest acceptable score, in units of 1/TRUST_SCALE. */
  minUnits: number
  type?: ContentType
  author?: string
  sinceMillis?: number
  untilMillis?: number
  limit: number
  /** Position of the previous page's last item: results start strictly after it. */
  after?: string
}

function usage (message: string, details?: Record<string, unknown>): IsnadError {
  return new IsnadError('USAGE', message, details === undefined ? {} : { details })
}

function timeBound (name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined
  if (typeof value !== 'string' || !isIsoTimestamp(value)) {
    throw usage(`query ${name} must be a UTC ISO-8601 timestamp like 2026-02-05T16:00:00Z`, { [name]: value })
  }
  return Date.parse(value)
}

/** Validates a query (USAGE on any bad field) and applies the defaults of constants.ts. */
export function normalizeQuery (query: MemoryQuery): NormalizedQuery {
  const limit = query.limit ?? DEFAULT_QUERY_LIMIT
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_QUERY_LIMIT) {
    throw usage(`query limit must be an integer from 1 to ${MAX_QUERY_LIMIT}`, { limit })
  }
  const minTrust = query.minTrust ?? 0
  if (typeof minTrust !== 'number' || !(minTrust >= 0 && minTrust <= 1)) {
    throw usage('query minTrust must be a number from 0 to 1', { minTrust })
  }
  if (query.type !== undefined && !(CONTENT_TYPES as readonly string[]).includes(query.type)) {
    throw usage(`query type must be one of ${CONTENT_TYPES.join(', ')}`, { type: query.type })
  }
  const tags = query.tags ?? []
  if (!Array.isArray(tags) || tags.some((tag) => typeof tag !== 'string' || tag.length === 0)) {
    throw usage('query tags must be non-empty strings')
  }
  if (query.author !== undefined && (typeof query.author !== 'string' || query.author.length === 0)) {
    throw usage('query author must be a did:key')
  }
  const normalized: NormalizedQuery = { tags: [...new Set(tags)], minUnits: minUnitsFor(minTrust), limit }
  if (query.type !== undefined) normalized.type = query.type
  if (query.author !== undefined) normalized.author = query.author
  const sinceMillis = timeBound('since', query.since)
  const untilMillis = timeBound('until', query.until)
  if (sinceMillis !== undefined) normalized.sinceMillis = sinceMillis
  if (untilMillis !== undefined) normalized.untilMillis = untilMillis
  if (query.cursor !== undefined) normalized.after = decodeCursor(query.cursor)
  return normalized
}

/** Every predicate except the score, which the scan bounds by position. */
export function matchesQuery (memory: IndexedMemory, query: NormalizedQuery): boolean {
  if (query.type !== undefined && memory.type !== query.type) return false
  if (query.author !== undefined && memory.author !== query.author) return false
  if (query.sinceMillis !== undefined && memory.createdMillis < query.sinceMillis) return false
  if (query.untilMillis !== undefined && memory.createdMillis >= query.untilMillis) return false
  for (const tag of query.tags) {
    if (!memory.tags.includes(tag)) return false
  }
  return true
}
