import { IsnadError } from '../../errors/index.js'
import type { ContentType, TrustEntry } from '../../schema/index.js'
import type { IndexedMemory } from '../indexed-memory.js'
import { utf8Key } from './binary-keys.js'
import { authorScope, tagScope, typeScope } from './key-layout.js'

/*
 * The value of a memory's entry in the `memories` sublevel (key-layout.ts): what a query filters on and
 * the memory's indexed trust, together, so scoring a memory reads one entry and writes one entry.
 *
 *   <score> NUL <level> NUL <policy> NUL <computed_at> NUL <created_at> NUL <type> NUL <author> (NUL <tag>)*
 *
 * where type, author and each tag are the numbers of their scopes (scope-names.ts) in base 36,
 * since layout 7 (a did:key of 56 characters is one or two), and level and policy the numbers of
 * the names `L NUL <level>` and `P NUL <policy>` in the same dictionary (`Attested`, `isnad-v0.1`:
 * one character each);
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

/** `numberOf`: the number of a scope (ScopeNames.assign), for the memory's type, author and tags. */
export function encodeMemoryEntry (memory: IndexedMemory, trust: TrustEntry | undefined, numberOf: (scope: string) => number): string {
  const head = trust === undefined
    ? SEP.repeat(TRUST_FIELDS)
    : String(trust.score) + SEP + numberOf(levelName(trust.level)).toString(36) + SEP + numberOf(policyName(trust.policy)).toString(36) + SEP + compactTime(trust.computed_at) + SEP
  const scopes = [typeScope(memory.type), authorScope(memory.author), ...memory.tags.map(tagScope)]
  return head + [compactTime(memory.created_at, memory.createdMillis), ...scopes.map((scope) => numberOf(scope).toString(36))].join(SEP)
}

/** `nameOf`: the scope a number names (ScopeNames.nameOf); a number it does not know is a damaged entry. */
export function decodeMemoryEntry (id: string, value: string, nameOf: (n: number) => string | undefined): MemoryEntry {
  let at = 0
  const fields: string[] = []
  for (let i = 0; i < TRUST_FIELDS; i++) {
    const end = value.indexOf(SEP, at)
    if (end < 0) throw damaged(id)
    fields.push(value.slice(at, end))
    at = end + 1
  }
  const [score, level, policy, computedAt] = fields as [string, string, string, string]
  const [created, ...numbers] = value.slice(at).split(SEP)
  if (created === undefined || numbers.length < 2) throw damaged(id)
  const [type, author, ...tags] = numbers.map((n) => {
    const scope = nameOf(parseInt(n, 36))
    if (scope === undefined) throw damaged(id)
    return textOfScope(scope)
  }) as [string, string, ...string[]]
  const createdAt = expandTime(created)
  const memory: IndexedMemory = { type: type as ContentType, author, created_at: createdAt, createdMillis: Date.parse(createdAt), tags }
  if (score === '') return { memory, trust: undefined }
  const name = (n: string): string => {
    const named = nameOf(parseInt(n, 36))
    if (named === undefined) throw damaged(id)
    return textOfScope(named)
  }
  return { memory, trust: { score: Number(score), level: name(level), policy: name(policy), computed_at: expandTime(computedAt) } }
}

/** The dictionary's name of a trust level (scope-names.ts: beside the scopes, never a query's scope). */
function levelName (level: string): string {
  return 'L' + SEP + utf8Key(level)
}

function policyName (policy: string): string {
  return 'P' + SEP + utf8Key(policy)
}

/** What a scope names (`t NUL <tag>` → the tag), back from its key's UTF-8 bytes. */
function textOfScope (scope: string): string {
  const text = scope.slice(2)
  // eslint-disable-next-line no-control-regex
  return /^[\x00-\x7f]*$/.test(text) ? text : Buffer.from(text, 'latin1').toString('utf8')
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
