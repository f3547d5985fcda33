import { IsnadError } from '../errors/index.js'
import { HASH_BYTES } from './constants.js'
import type { MerkleHasher } from './hash.js'
import { columnKey, completedLevels, decodeLeafIndexes, leafHashKey } from './log-keys.js'
import { getMany } from './node-cache.js'
import type { LeafCodec, MerkleNodeStore } from './node-store.js'

/*
 * Leaf data → position in a stored log (log-keys.ts): an index key holds the positions of the
 * leaves whose hash starts with its 8 bytes, and the leaf at each is told apart by hashing the
 * data in its column, so the answer is exact whatever the key shares.
 */

/**
 * The position of each leaf already in the log (by its whole hash: `ids`, leafHashKey), and the
 * stored list of each index key (`keys`, leafIndexKey), which an append extends.
 */
export async function storedPositions (store: MerkleNodeStore, hasher: MerkleHasher, codec: LeafCodec, keys: readonly string[], ids: readonly string[]): Promise<{ known: Array<number | undefined>, lists: Map<string, number[]> }> {
  const unique = [...new Set(keys)]
  const stored = await getMany(store, unique)
  const lists = new Map<string, number[]>()
  unique.forEach((key, i) => { const value = stored[i]; if (value !== undefined) lists.set(key, decodeIndexes(value, key)) })
  if (lists.size === 0) return { known: keys.map(() => undefined), lists }
  const hashAt = await leafHashesAt(store, hasher, codec, [...new Set([...lists.values()].flat())])
  return { known: keys.map((key, i) => lists.get(key)?.find((index) => hashAt.get(index) === ids[i])), lists }
}

/** The whole leaf hash (leafHashKey) of each leaf at `indexes`, from the data in its column. */
async function leafHashesAt (store: MerkleNodeStore, hasher: MerkleHasher, codec: LeafCodec, indexes: readonly number[]): Promise<Map<number, string>> {
  const columns = await getMany(store, indexes.map(columnKey))
  return new Map(indexes.map((index, i) => [index, leafHashKey(hasher.leaf(leafDataIn(columns[i], index, codec)))]))
}

/** The leaf data in a leaf's column: what precedes the hashes the leaf completes, unpacked. */
export function leafDataIn (column: Uint8Array | undefined, index: number, codec: LeafCodec): Uint8Array {
  const hashes = completedLevels(index) * HASH_BYTES
  if (!(column instanceof Uint8Array) || column.length < hashes) throw new IsnadError('LOG_CORRUPT', `Merkle log column of leaf ${index} is missing or shorter than its hashes`)
  return codec.unpack(column.subarray(0, column.length - hashes))
}

function decodeIndexes (stored: Uint8Array, key: string): number[] {
  const indexes = decodeLeafIndexes(stored)
  if (indexes === undefined) throw new IsnadError('LOG_CORRUPT', `Merkle log entry ${[...key].map((c) => c.charCodeAt(0).toString(16).padStart(2, '0')).join('')} is not a list of leaf indexes`)
  return indexes
}
