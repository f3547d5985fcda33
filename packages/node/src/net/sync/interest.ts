import { z } from 'zod'
import { didKey, followTag, type IsnadRecord, type MemoryRecord } from '../../schema/index.js'
import { isShardCount, shardOf, type HomeShards } from '../../shard/index.js'

/*
 * What a node asks a peer to sync: its interests (protocols/sync-v1.md, "Interests"). Its home
 * shards under its count, the authors it follows beyond them, and the tags it follows. A memory
 * matches when its author's shard under that count is one of the shards, its author is one of the
 * authors, or one of its tags is one of the tags; an attestation, anchor or witness request matches
 * with the memory it points at. Pure: the caller looks up the memory a record points at.
 */

/** @default 64 — home shards one request names (a node holds max-shards of them, default 8). */
export const MAX_INTEREST_SHARDS = 64
/** @default 1024 — authors, and tags, one request names: as many as a node follows (MAX_FOLLOWS). */
export const MAX_INTEREST_NAMES = 1024

const unique = <T extends z.ZodType<string | number>>(item: T, max: number, what: string) =>
  z.array(item).max(max).refine((items) => new Set(items).size === items.length, { message: `${what} must be unique` })

/** The interests of one sync request, as they travel (sync-v1 §2). */
export const SyncInterestsSchema = z.strictObject({
  /** Home shards: the shard count the requester publishes under and its shards under it. */
  shards: z.strictObject({
    count: z.number().int().refine(isShardCount, 'must be a shard count: a power of two from 1 to 4096'),
    indexes: unique(z.number().int().min(0), MAX_INTEREST_SHARDS, 'shard indexes')
  }).refine((s) => s.indexes.every((i) => i < s.count), { message: 'a shard index is below the count', path: ['indexes'] }),
  authors: unique(didKey, MAX_INTEREST_NAMES, 'authors'),
  tags: unique(followTag, MAX_INTEREST_NAMES, 'tags')
})
export type SyncInterests = z.infer<typeof SyncInterestsSchema>

/** What matching needs of a memory: its author and its tags. */
export interface MemoryFacts {
  author: string
  tags: readonly string[]
}

/** The facts of a memory record. */
export function memoryFacts (record: MemoryRecord): MemoryFacts {
  return { author: record.author.agent_id, tags: record.content.tags }
}

/** Whether a memory with these facts is among `interests`. */
export function memoryMatches (interests: SyncInterests, memory: MemoryFacts): boolean {
  const { count, indexes } = interests.shards
  if (indexes.includes(shardOf(memory.author, count))) return true
  if (interests.authors.includes(memory.author)) return true
  return memory.tags.some((tag) => interests.tags.includes(tag))
}

/** Whether the interests' shards are every shard of their count (count 1: the whole network is one shard). */
export function coversEveryShard (interests: SyncInterests): boolean {
  return interests.shards.indexes.length === interests.shards.count
}

/**
 * Whether `record` is among `interests`: a memory by its own facts, any other record by the facts
 * of the memory it points at (`memoryOf`: null when the serving node does not hold that memory,
 * and then the record matches only interests that cover every shard: nothing says whose it is).
 */
export function recordMatches (interests: SyncInterests, record: IsnadRecord, memoryOf: MemoryFacts | null): boolean {
  if (record.kind === 'memory') return memoryMatches(interests, memoryFacts(record))
  return memoryOf === null ? coversEveryShard(interests) : memoryMatches(interests, memoryOf)
}

/**
 * A node's interests: its home shards under its count, the followed authors its shards left out
 * (HomeShards.left: within its shards, an author is already matched by shard), and its followed
 * tags, and the authors whose evidence its reputation needs (docs/trust.md §3a); each list cut at what
 * one request may name, the follows first.
 */
export function interestsOf (home: HomeShards, tags: readonly string[], evidenceAuthors: readonly string[] = []): SyncInterests {
  return {
    shards: { count: home.count, indexes: home.shards.slice(0, MAX_INTEREST_SHARDS) },
    authors: [...new Set([...home.left, ...evidenceAuthors])].slice(0, MAX_INTEREST_NAMES),
    tags: [...new Set(tags)].slice(0, MAX_INTEREST_NAMES)
  }
}

/** One interest alone: the key its cursor is saved under, and how it joins a group's interests. */
interface Entry {
  key: string
  addTo: (group: SyncInterests) => void
}

/** Each interest alone, keyed `shard:<count>:<index>`, `author:<did>` or `tag:<tag>`. */
function entriesOf (interests: SyncInterests): Entry[] {
  const { count, indexes } = interests.shards
  return [
    ...indexes.map((index) => ({ key: `shard:${count}:${index}`, addTo: (g: SyncInterests) => { g.shards.indexes.push(index) } })),
    ...interests.authors.map((did) => ({ key: `author:${did}`, addTo: (g: SyncInterests) => { g.authors.push(did) } })),
    ...interests.tags.map((tag) => ({ key: `tag:${tag}`, addTo: (g: SyncInterests) => { g.tags.push(tag) } }))
  ]
}

/** The keys the interests' cursors are saved under, beside the peer's id (sync-v1 §4). */
export function interestKeys (interests: SyncInterests): string[] {
  return entriesOf(interests).map((entry) => entry.key)
}

/** Interests that resume from one cursor in a peer's log, and the keys their cursors are saved under. */
export interface InterestGroup {
  cursor: number
  interests: SyncInterests
  keys: string[]
}

/**
 * `interests` grouped by the cursor each reached in a peer's log (`cursorOf` its saved cursor, or
 * null for an interest never synced with that peer: it starts from 0), lowest cursor first. A new
 * follow thus starts from the beginning of the peer's log while the others resume where they were.
 */
export function groupByCursor (interests: SyncInterests, cursorOf: (key: string) => number | null): InterestGroup[] {
  const groups = new Map<number, InterestGroup>()
  for (const entry of entriesOf(interests)) {
    const cursor = cursorOf(entry.key) ?? 0
    let group = groups.get(cursor)
    if (group === undefined) {
      group = { cursor, interests: { shards: { count: interests.shards.count, indexes: [] }, authors: [], tags: [] }, keys: [] }
      groups.set(cursor, group)
    }
    entry.addTo(group.interests)
    group.keys.push(entry.key)
  }
  return [...groups.values()].sort((a, b) => a.cursor - b.cursor)
}
