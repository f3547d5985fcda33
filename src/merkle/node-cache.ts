import { IsnadError } from '../errors/index.js'
import { isHash } from './hash.js'
import { nodeKey } from './log-keys.js'
import type { MerkleNodeStore } from './node-store.js'
import type { PerfectNode } from './tree-math.js'

/**
 * Reads perfect-subtree hashes through an in-memory cache of the upper levels (NODE_CACHE_MIN_LEVEL
 * and above). A stored node never changes (transparency-v1 R2), so a cached hash is never stale.
 */
export class NodeReader {
  private readonly cache = new Map<string, Uint8Array>()

  constructor (private readonly store: MerkleNodeStore, private readonly minLevel: number, private readonly maxEntries: number) {}

  /** The hashes of `nodes`, in order: cached ones from memory, the rest in one getMany. */
  async read (nodes: readonly PerfectNode[]): Promise<Uint8Array[]> {
    const keys = nodes.map(nodeKey)
    // Cached hashes are handed out as copies: a caller writing to a proof cannot change the cache.
    const out: Array<Uint8Array | undefined> = keys.map((key) => {
      const cached = this.cache.get(key)
      return cached === undefined ? undefined : Uint8Array.from(cached)
    })
    const missing = keys.flatMap((key, i) => out[i] === undefined ? [i] : [])
    if (missing.length === 0) return out as Uint8Array[]
    const values = await getMany(this.store, missing.map((i) => keys[i] as string))
    missing.forEach((i, k) => {
      const value = values[k]
      if (!isHash(value)) throw new IsnadError('LOG_CORRUPT', `Merkle log node ${keys[i] as string} is missing or not 32 bytes`)
      out[i] = Uint8Array.from(value) // a plain Uint8Array, whatever subclass the store returns
      this.remember(nodes[i] as PerfectNode, value, keys[i] as string)
    })
    return out as Uint8Array[]
  }

  /** Keeps a node's hash when it is high enough (appends call this for the nodes they complete). */
  remember (node: PerfectNode, hash: Uint8Array, key = nodeKey(node)): void {
    if (node.level < this.minLevel || this.maxEntries <= 0) return
    if (this.cache.size >= this.maxEntries) this.cache.clear()
    this.cache.set(key, Uint8Array.from(hash))
  }
}

export async function getMany (store: MerkleNodeStore, keys: string[]): Promise<Array<Uint8Array | undefined>> {
  if (keys.length === 0) return []
  if (store.getMany !== undefined) return await store.getMany(keys)
  return await Promise.all(keys.map(async (key) => await store.get(key)))
}
