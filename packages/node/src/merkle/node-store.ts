/*
 * Where the persistent log keeps its hashes: any key-value store with single reads and atomic
 * batches of puts. The log never deletes or overwrites a key with different bytes, so a store only
 * has to make each batch all-or-nothing (a crash leaves the log at its size before or after).
 */

/** One write of a batch. Keys are ASCII (log-keys.ts); values are bytes. */
export interface NodePut {
  key: string
  value: Uint8Array
}

export interface MerkleNodeStore {
  get: (key: string) => Promise<Uint8Array | undefined>
  /** Optional: many reads in one call (LevelDB's getMany); otherwise the log issues parallel gets. */
  getMany?: (keys: string[]) => Promise<Array<Uint8Array | undefined>>
  /** Writes every put or none (a crash must not leave half a batch). */
  batch: (puts: readonly NodePut[]) => Promise<void>
}

/** A store in memory: for tests, simulations and proofs over a log rebuilt on the fly. */
export function createMemoryNodeStore (): MerkleNodeStore & { readonly entries: number } {
  const map = new Map<string, Uint8Array>()
  return {
    get entries () { return map.size },
    async get (key) {
      const value = map.get(key)
      return value === undefined ? undefined : Uint8Array.from(value)
    },
    async getMany (keys) {
      return keys.map((key) => {
        const value = map.get(key)
        return value === undefined ? undefined : Uint8Array.from(value)
      })
    },
    async batch (puts) {
      for (const { key, value } of puts) map.set(key, Uint8Array.from(value))
    }
  }
}

/**
 * The part of an abstract-level database or sublevel the log uses, with string keys and byte values:
 * `db.sublevel<string, Uint8Array>('merkle', { valueEncoding: 'view' })` of a `level` v10 database
 * fits as it is (test/integration/merkle checks it).
 */
export interface LevelNodeDb {
  get: (key: string) => Promise<Uint8Array | undefined>
  getMany: (keys: string[]) => Promise<Array<Uint8Array | undefined>>
  batch: (operations: Array<{ type: 'put', key: string, value: Uint8Array }>) => Promise<void>
}

/** A MerkleNodeStore over an abstract-level sublevel (LevelDB in the node: `.memory/index/`). */
export function createLevelNodeStore (db: LevelNodeDb): MerkleNodeStore {
  return {
    get: async (key) => await db.get(key),
    getMany: async (keys) => await db.getMany(keys),
    batch: async (puts) => {
      if (puts.length === 0) return
      await db.batch(puts.map(({ key, value }) => ({ type: 'put' as const, key, value })))
    }
  }
}

/**
 * How a log keeps each leaf's data in its column (log-keys.ts): `pack` when it is appended,
 * `unpack` when it is read back (to hash it for a proof, to serve it). The default keeps it as it
 * is; the node's journal keeps a record CID (`01 71 12 20` ‖ digest) as its 32-byte digest.
 * `unpack(pack(data))` must give `data` back for every leaf the log is given.
 */
export interface LeafCodec {
  pack: (leafData: Uint8Array) => Uint8Array
  unpack: (stored: Uint8Array) => Uint8Array
}

export const IDENTITY_LEAF_CODEC: LeafCodec = { pack: (data) => data, unpack: (stored) => stored }
