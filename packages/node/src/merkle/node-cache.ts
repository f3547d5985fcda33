import { IsnadError } from '../errors/index.js'
import { HASH_BYTES } from './constants.js'
import type { MerkleHasher } from './hash.js'
import { completedLevels, nodeLocation, nodeName } from './log-keys.js'
import type { LeafCodec, MerkleNodeStore } from './node-store.js'
import type { PerfectNode } from './tree-math.js'

/**
 * Reads perfect-subtree hashes through an in-memory cache of the upper levels (NODE_CACHE_MIN_LEVEL
 * and above). A stored node never changes (transparency-v1 R2), so a cached hash is never stale.
 */
export class NodeReader {
  private readonly cache = new Map<string, Uint8Array>()

  constructor (private readonly store: MerkleNodeStore, private readonly minLevel: number, private readonly maxEntries: number, private readonly hasher: MerkleHasher, private readonly codec: LeafCodec) {}

  /** The hashes of `nodes`, in order: cached ones from memory, the rest from their columns in one getMany. */
  async read (nodes: readonly PerfectNode[]): Promise<Uint8Array[]> {
    // Cached hashes are handed out as copies: a caller writing to a proof cannot change the cache.
    const out: Array<Uint8Array | undefined> = nodes.map((node) => {
      const cached = this.cache.get(nodeName(node))
      return cached === undefined ? undefined : Uint8Array.from(cached)
    })
    const missing = nodes.flatMap((node, i) => out[i] === undefined ? [{ i, node, ...nodeLocation(node) }] : [])
    if (missing.length === 0) return out as Uint8Array[]
    const keys = [...new Set(missing.map((m) => m.key))]
    const values = await getMany(this.store, keys)
    const columns = new Map(keys.map((key, k) => [key, values[k]]))
    for (const { i, node, key, leaf, level } of missing) {
      const column = columns.get(key)
      const hashes = completedLevels(leaf)
      if (!(column instanceof Uint8Array) || column.length < hashes * HASH_BYTES) {
        throw new IsnadError('LOG_CORRUPT', `Merkle log node ${nodeName(node)} is missing from the column of leaf ${leaf}, or the column is shorter than its ${hashes} hashes`)
      }
      const dataEnd = column.length - hashes * HASH_BYTES
      // A plain Uint8Array of its own, whatever subclass or shared buffer the store returns.
      const hash = level === 0
        ? Uint8Array.from(this.hasher.leaf(this.codec.unpack(column.subarray(0, dataEnd))))
        : Uint8Array.from(column.subarray(dataEnd + (level - 1) * HASH_BYTES, dataEnd + level * HASH_BYTES))
      out[i] = hash
      this.remember(node, hash)
    }
    return out as Uint8Array[]
  }

  /** Whether remember keeps nodes of this level: appends only collect those. */
  keeps (level: number): boolean {
    return level >= this.minLevel && this.maxEntries > 0
  }

  /** Keeps a node's hash when it is high enough (appends call this for the nodes they complete). */
  remember (node: PerfectNode, hash: Uint8Array): void {
    if (!this.keeps(node.level)) return
    if (this.cache.size >= this.maxEntries) this.cache.clear()
    this.cache.set(nodeName(node), Uint8Array.from(hash))
  }
}

export async function getMany (store: MerkleNodeStore, keys: string[]): Promise<Array<Uint8Array | undefined>> {
  if (keys.length === 0) return []
  if (store.getMany !== undefined) return await store.getMany(keys)
  return await Promise.all(keys.map(async (key) => await store.get(key)))
}
