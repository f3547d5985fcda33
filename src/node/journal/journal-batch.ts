import type { Level } from 'level'
import type { LevelNodeDb, MerkleNodeStore } from '../../merkle/index.js'

/** What a journal sublevel contributes to a root write: its key prefix (`!name!`, abstract-level's default). */
export interface PrefixedSublevel {
  readonly prefix: string
}

/** Puts on the journal LevelDB's sublevels, in one atomic write. */
export interface JournalBatch {
  put: (sublevel: PrefixedSublevel, key: string, value: string | Uint8Array) => void
}

const BYTES = { valueEncoding: 'view' } as const

/**
 * Commits the puts `fill` makes as one LevelDB batch through the root database's chained batch,
 * with each sublevel's own prefix: the same keys and values on disk as a sublevel's array batch, at
 * about half the cost on the main thread (measured 1.7–2.0 against 3.1–3.5 µs per Merkle leaf, two
 * puts), since the array form clones, resolves and prefixes every operation for its sublevel. Every
 * store call writes a Merkle batch and a journal batch. Nothing is written when `fill` throws.
 */
export async function writeJournalBatch (db: Level<string, string>, fill: (batch: JournalBatch) => void): Promise<void> {
  const chained = db.batch()
  try {
    fill({
      put: (sublevel, key, value) => {
        if (typeof value === 'string') chained.put(sublevel.prefix + key, value)
        else chained.put<string, Uint8Array>(sublevel.prefix + key, value, BYTES)
      }
    })
  } catch (err) {
    await chained.close()
    throw err
  }
  if (chained.length === 0) await chained.close()
  else await chained.write()
}

/** The Merkle log's node store over the journal's `merkle` sublevel: reads through it, writes through the root. */
export function journalNodeStore (db: Level<string, string>, nodes: LevelNodeDb & PrefixedSublevel): MerkleNodeStore {
  return {
    get: async (key) => await nodes.get(key),
    getMany: async (keys) => await nodes.getMany(keys),
    batch: async (puts) => {
      await writeJournalBatch(db, (batch) => {
        for (const { key, value } of puts) batch.put(nodes, key, value)
      })
    }
  }
}
