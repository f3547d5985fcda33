import { Level } from 'level'
import { z } from 'zod'
import { IsnadError } from '../errors/index.js'
import { isoTimestamp, type Follow } from '../schema/index.js'

/*
 * What the node follows besides its own agents (protocols/gossip-v1.md §11.4): authors,
 * whose shard the node subscribes to (within max-shards), and tags, whose topics it subscribes to
 * (gossip-v1 §11.9). An author beyond max-shards is served by sync by interest (protocols/sync-v1.md §9)
 * only; a tag's records by both. Kept in a LevelDB of its own (home/home-paths.ts
 * followsPath), one key per follow, so a follow survives restarts and reindex.
 */

/** @default 1024 — follows a node keeps: each is a sync interest asked of every peer. */
export const MAX_FOLLOWS = 1024

/** One interest: an author by did, or a tag. */
export type Interest = { did: string } | { tag: string }

const SINCE = z.strictObject({ since: isoTimestamp })

function keyOf (interest: Interest): string {
  return 'did' in interest ? `author\0${interest.did}` : `tag\0${interest.tag}`
}

function describe (interest: Interest): string {
  return 'did' in interest ? `author ${interest.did}` : `tag ${interest.tag}`
}

/** The node's follows in their LevelDB. Changes are serialised by LevelDB itself (one put or del each). */
export class FollowStore {
  private constructor (private readonly db: Level<string, string>) {}

  static async open (location: string): Promise<FollowStore> {
    const db = new Level<string, string>(location, { valueEncoding: 'utf8' })
    try {
      await db.open()
    } catch (err) {
      const cause = (err as { cause?: { code?: string } }).cause
      if (cause?.code === 'LEVEL_LOCKED') throw new IsnadError('STORE_LOCKED', `the follows at ${location} are held by another process (a running daemon?)`)
      throw err
    }
    return new FollowStore(db)
  }

  /** Every follow: authors first, then tags, each in key order. */
  async list (): Promise<Follow[]> {
    const follows: Follow[] = []
    for await (const [key, value] of this.db.iterator()) {
      const [kind, name] = key.split('\0') as [string, string]
      const parsed = SINCE.safeParse(JSON.parse(value))
      if (!parsed.success) throw new IsnadError('INDEX_CORRUPT', `the follow ${JSON.stringify(key)} has an unreadable value`)
      follows.push(kind === 'author' ? { did: name, since: parsed.data.since } : { tag: name, since: parsed.data.since })
    }
    return follows
  }

  /** Follows `interest` from `at`; ALREADY_EXISTS when it is followed, USAGE past MAX_FOLLOWS. */
  async add (interest: Interest, at: string): Promise<void> {
    const key = keyOf(interest)
    if (await this.db.get(key) !== undefined) throw new IsnadError('ALREADY_EXISTS', `already following ${describe(interest)}`)
    let count = 0
    for await (const _ of this.db.keys()) count++
    if (count >= MAX_FOLLOWS) throw new IsnadError('USAGE', `a node follows at most ${MAX_FOLLOWS} authors and tags; remove one first`)
    await this.db.put(key, JSON.stringify({ since: at }))
  }

  /** Stops following `interest`; NOT_FOUND when it was not followed. */
  async remove (interest: Interest): Promise<void> {
    const key = keyOf(interest)
    if (await this.db.get(key) === undefined) throw new IsnadError('NOT_FOUND', `not following ${describe(interest)}`)
    await this.db.del(key)
  }

  async close (): Promise<void> {
    await this.db.close()
  }
}

/** The followed authors among `follows`. */
export function followedAuthors (follows: readonly Follow[]): string[] {
  return follows.flatMap((f) => 'did' in f ? [f.did] : [])
}

/** The followed tags among `follows`. */
export function followedTags (follows: readonly Follow[]): string[] {
  return follows.flatMap((f) => 'tag' in f ? [f.tag] : [])
}
