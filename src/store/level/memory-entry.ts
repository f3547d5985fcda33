import { IsnadError } from '../../errors/index.js'
import type { ContentType } from '../../schema/index.js'
import type { IndexedMemory } from '../indexed-memory.js'
import type { TrustEntry } from '../types.js'

/*
 * The value of a memory's entry in the `memories` sublevel (keys.ts): what a query filters on and
 * the memory's indexed trust, together, so scoring a memory reads one entry and writes one entry.
 *
 *   <score> NUL <level> NUL <policy> NUL <computed_at> NUL <type> NUL <author> NUL <created_at> (NUL <tag>)*
 *
 * A memory never scored has four empty trust fields. Score is the decimal JavaScript number (a
 * TrustEntry score has at most 4 decimals, which a number prints exactly and parses back the same);
 * level and policy are names, none of which can hold NUL, and tags come last, so the list needs no
 * count (record-v1 R3: no control characters in a tag). Since layout 7 a timestamp that is what
 * `toISOString` prints for its instant (the usual case) is `~` and its epoch milliseconds in base 36
 * (9 characters where the ISO form takes 24); any other spelling (`…:00Z`) is kept as written, and
 * no ISO timestamp starts with `~`.
 */
const SEP = '\x00'
const TRUST_FIELDS = 4

export interface MemoryEntry {
  memory: IndexedMemory
  trust: TrustEntry | undefined
}

export function encodeMemoryEntry (memory: IndexedMemory, trust: TrustEntry | undefined): string {
  const head = trust === undefined
    ? SEP.repeat(TRUST_FIELDS)
    : String(trust.score) + SEP + trust.level + SEP + trust.policy + SEP + compactTime(trust.computed_at) + SEP
  return head + [memory.type, memory.author, compactTime(memory.created_at, memory.createdMillis), ...memory.tags].join(SEP)
}

export function decodeMemoryEntry (id: string, value: string): MemoryEntry {
  let at = 0
  const fields: string[] = []
  for (let i = 0; i < TRUST_FIELDS; i++) {
    const end = value.indexOf(SEP, at)
    if (end < 0) throw damaged(id)
    fields.push(value.slice(at, end))
    at = end + 1
  }
  const [score, level, policy, computedAt] = fields as [string, string, string, string]
  const [type, author, created, ...tags] = value.slice(at).split(SEP)
  if (created === undefined) throw damaged(id)
  const createdAt = expandTime(created)
  const memory: IndexedMemory = { type: type as ContentType, author: author as string, created_at: createdAt, createdMillis: Date.parse(createdAt), tags }
  if (score === '') return { memory, trust: undefined }
  return { memory, trust: { score: Number(score), level, policy, computed_at: expandTime(computedAt) } }
}

const COMPACT = '~'

/** A timestamp as stored: `~` + base-36 ms when its ISO form is exactly `text`, else `text`. */
export function compactTime (text: string, millis = Date.parse(text)): string {
  return Number.isFinite(millis) && new Date(millis).toISOString() === text ? COMPACT + millis.toString(36) : text
}

export function expandTime (stored: string): string {
  return stored.startsWith(COMPACT) ? new Date(parseInt(stored.slice(COMPACT.length), 36)).toISOString() : stored
}

function damaged (id: string): IsnadError {
  return new IsnadError('DECODE_FAILED', `the index entry of memory ${id} is damaged: the index must be rebuilt (isnad ledger reindex)`, { details: { id } })
}
