import { IsnadError } from '../errors/index.js'
import { HASH_BYTES, NODE_CACHE_MIN_LEVEL, NODE_CACHE_SIZE } from './constants.js'
import { DEFAULT_HASHER, EMPTY_ROOT, type MerkleHasher } from './hash.js'
import { leafDataIn, storedPositions } from './leaf-index.js'
import { SIZE_KEY, columnKey, completedLevels, decodeUint64, encodeLeafIndexes, encodeUint64, leafHashKey, leafIndexKey } from './log-keys.js'
import { NodeReader, getMany } from './node-cache.js'
import { IDENTITY_LEAF_CODEC, type LeafCodec, type MerkleNodeStore, type NodePut } from './node-store.js'
import { consistencyRanges, inclusionRanges } from './subtree-ranges.js'
import { assertTreeSize, foldRight, half, isOdd, perfectNodesOf, type LeafRange, type PerfectNode } from './tree-math.js'
import type { ConsistencyProof, InclusionProof } from './types.js'

export interface MerkleLogInit {
  store: MerkleNodeStore
  /** @default NODE_CACHE_MIN_LEVEL (4): subtrees of at least 2^level leaves are cached in memory. */
  cacheMinLevel?: number
  /** @default NODE_CACHE_SIZE (65536) cached hashes; 0 turns the cache off. */
  cacheSize?: number
  /** @default DEFAULT_HASHER (@noble/hashes): how leaf and node hashes are computed, never what they are. */
  hasher?: MerkleHasher
  /** @default IDENTITY_LEAF_CODEC — how each leaf's data is kept in its column (node-store.ts LeafCodec). */
  leafCodec?: LeafCodec
  /**
   * @default false — the store is empty and this log will be its only writer (a rebuild): the
   * position of every leaf appended is also kept in memory, so an append reads nothing from the
   * store to tell new leaves from known ones. Opening a non-empty store this way is refused.
   */
  fresh?: boolean
}

/** Where a leaf is, and whether this append put it there (false: it was already in the log). */
export interface AppendResult {
  index: number
  added: boolean
}

/**
 * An append-only RFC 6962 log over a MerkleNodeStore (transparency-v1 §3). Appending stores the hash
 * of every perfect subtree as it completes, in the column of the leaf that completes it (one column
 * and one index write per leaf), so roots, inclusion and consistency proofs for any size ≤ n read
 * O(log n) stored hashes (one getMany), never the leaves. In memory it keeps only the size and the frontier: the perfect
 * subtrees of [0, size), largest first, one per set bit of the size.
 */
export class MerkleLog {
  private tail: Promise<unknown> = Promise.resolve()
  /** When the log was opened fresh: leaf hash (leafHashKey) → position of every leaf, and each index key's list. */
  private readonly positions: Map<string, number> | undefined
  private readonly lists: Map<string, number[]> | undefined

  private constructor (
    private readonly store: MerkleNodeStore, private readonly nodes: NodeReader, private readonly hasher: MerkleHasher, private readonly codec: LeafCodec,
    private treeSize: number, private frontier: Uint8Array[], fresh: boolean
  ) {
    this.positions = fresh ? new Map() : undefined
    this.lists = fresh ? new Map() : undefined
  }

  /** Opens the log held by `store` (an empty store is an empty log), reading O(log n) hashes. */
  static async open ({ store, cacheMinLevel = NODE_CACHE_MIN_LEVEL, cacheSize = NODE_CACHE_SIZE, hasher = DEFAULT_HASHER, leafCodec = IDENTITY_LEAF_CODEC, fresh = false }: MerkleLogInit): Promise<MerkleLog> {
    const stored = await store.get(SIZE_KEY)
    const size = stored === undefined ? 0 : decodeUint64(stored)
    if (size === undefined) throw new IsnadError('LOG_CORRUPT', 'the Merkle log size entry is not an 8-byte integer')
    if (fresh && size !== 0) throw new IsnadError('USAGE', `a Merkle log opened fresh must be empty; this one has ${size} leaves`)
    const nodes = new NodeReader(store, cacheMinLevel, cacheSize, hasher, leafCodec)
    const frontier = size === 0 ? [] : await nodes.read(perfectNodesOf({ start: 0, size }))
    return new MerkleLog(store, nodes, hasher, leafCodec, size, frontier, fresh)
  }

  /** Leaves committed so far: the size of the newest tree. */
  get size (): number {
    return this.treeSize
  }

  /**
   * Appends each leaf not already in the log, in order, in one atomic batch (transparency-v1 R1, R2);
   * a leaf already present, or repeated in `leaves`, keeps its first index. Appends run one at a time.
   */
  async append (leaves: readonly Uint8Array[]): Promise<AppendResult[]> {
    const run = this.tail.then(async () => await this.appendNow(leaves))
    this.tail = run.catch(() => undefined)
    return await run
  }

  private async appendNow (leaves: readonly Uint8Array[]): Promise<AppendResult[]> {
    const hashes = leaves.map((leaf) => this.hasher.leaf(leaf))
    const keys = hashes.map(leafIndexKey)
    const ids = hashes.map(leafHashKey)
    const { known, lists } = await this.knownPositions(keys, ids)
    const fresh = new Map<string, number>()
    const written = new Map<string, number[]>()
    const frontier = [...this.frontier]
    let size = this.treeSize
    const puts: NodePut[] = []
    const completed: CompletedNode[] = []
    const results = hashes.map((hash, i): AppendResult => {
      const id = ids[i] as string
      const index = known[i] ?? fresh.get(id)
      if (index !== undefined) return { index, added: false }
      fresh.set(id, size)
      const key = keys[i] as string
      const list = written.get(key) ?? [...(lists.get(key) ?? [])]
      list.push(size)
      written.set(key, list)
      puts.push({ key: columnKey(size), value: appendToFrontier(frontier, this.codec.pack(leaves[i] as Uint8Array), hash, size, this.hasher, this.nodes, completed) })
      return { index: size++, added: true }
    })
    if (size === this.treeSize) return results
    for (const [key, list] of written) puts.push({ key, value: encodeLeafIndexes(list) })
    puts.push({ key: SIZE_KEY, value: encodeUint64(size) })
    await this.store.batch(puts)
    if (this.positions !== undefined) for (const [id, index] of fresh) this.positions.set(id, index)
    if (this.lists !== undefined) for (const [key, list] of written) this.lists.set(key, list)
    for (const { node, hash } of completed) this.nodes.remember(node, hash)
    this.frontier = frontier
    this.treeSize = size
    return results
  }

  /**
   * The position of each leaf already in the log (by its whole hash, `ids`), and the stored list of
   * each index key: the candidates a key names are told apart by reading their columns.
   */
  private async knownPositions (keys: readonly string[], ids: readonly string[]): Promise<{ known: Array<number | undefined>, lists: Map<string, number[]> }> {
    const positions = this.positions
    const freshLists = this.lists
    if (positions !== undefined && freshLists !== undefined) {
      const lists = new Map<string, number[]>()
      for (const key of keys) { const list = freshLists.get(key); if (list !== undefined) lists.set(key, list) }
      return { known: ids.map((id) => positions.get(id)), lists }
    }
    return await storedPositions(this.store, this.hasher, this.codec, keys, ids)
  }

  /**
   * The data of the leaves at [start, start + limit) that the log holds, in log order (fewer at its
   * end): what was appended, read from the leaves' columns in one getMany.
   */
  async leavesFrom (start: number, limit: number): Promise<Uint8Array[]> {
    assertTreeSize(start, 'start')
    const end = Math.min(this.treeSize, start + Math.max(0, Math.floor(limit)))
    if (end <= start) return []
    const keys = Array.from({ length: end - start }, (_, i) => columnKey(start + i))
    const columns = await getMany(this.store, keys)
    return columns.map((column, i) => Uint8Array.from(leafDataIn(column, start + i, this.codec)))
  }

  /** The index of `leafData` in the log, or undefined when it was never appended. */
  async indexOf (leafData: Uint8Array): Promise<number | undefined> {
    const hash = this.hasher.leaf(leafData)
    const { known } = await storedPositions(this.store, this.hasher, this.codec, [leafIndexKey(hash)], [leafHashKey(hash)])
    return known[0]
  }

  /** MTH(D[0:size]) for any size ≤ this.size (RFC 6962 §2.1): the frontier for the current size. */
  async root (size: number = this.treeSize): Promise<Uint8Array> {
    this.assertSize(size, 'tree size')
    if (size === 0) return Uint8Array.from(EMPTY_ROOT)
    if (size === this.treeSize) return Uint8Array.from(foldRight(this.frontier, this.hasher.children))
    return (await this.rangeHashes([{ start: 0, size }]))[0] as Uint8Array
  }

  /** PATH(leafIndex, D[treeSize]) (RFC 6962 §2.1.1), equal to proveInclusion over all leaf hashes. */
  async proveInclusion (leafIndex: number, treeSize: number = this.treeSize): Promise<InclusionProof> {
    this.assertSize(treeSize, 'tree size')
    return { leafIndex, treeSize, path: await this.rangeHashes(inclusionRanges(leafIndex, treeSize)) }
  }

  /** The inclusion proof of a leaf by its data (a record by its CID bytes); undefined if not in the tree. */
  async proveInclusionOf (leafData: Uint8Array, treeSize: number = this.treeSize): Promise<{ leafHash: Uint8Array, proof: InclusionProof } | undefined> {
    this.assertSize(treeSize, 'tree size')
    const index = await this.indexOf(leafData)
    if (index === undefined || index >= treeSize) return undefined
    return { leafHash: this.hasher.leaf(leafData), proof: await this.proveInclusion(index, treeSize) }
  }

  /** PROOF(first, D[second]) (RFC 6962 §2.1.2) for first ≤ second ≤ this.size. */
  async proveConsistency (first: number, second: number = this.treeSize): Promise<ConsistencyProof> {
    this.assertSize(second, 'second tree size')
    return { first, second, path: await this.rangeHashes(consistencyRanges(first, second)) }
  }

  /** MTH of each range from its perfect subtrees, read in one getMany. */
  private async rangeHashes (ranges: readonly LeafRange[]): Promise<Uint8Array[]> {
    const parts = ranges.map(perfectNodesOf)
    const hashes = await this.nodes.read(parts.flat())
    let at = 0
    return parts.map((nodes) => {
      const slice = hashes.slice(at, at + nodes.length)
      at += nodes.length
      return foldRight(slice, this.hasher.children)
    })
  }

  private assertSize (size: number, what: string): void {
    assertTreeSize(size, what)
    if (size > this.treeSize) {
      throw new IsnadError('PROOF_MALFORMED', `${what} ${size} is larger than the log (${this.treeSize} leaves)`)
    }
  }
}

/** An interior node an append completed, for the cache. */
interface CompletedNode {
  node: PerfectNode
  hash: Uint8Array
}

/** Factory form of MerkleLog.open. */
export async function openMerkleLog (init: MerkleLogInit): Promise<MerkleLog> {
  return await MerkleLog.open(init)
}

/**
 * Adds leaf `index` to `frontier` (mutated) and returns its column (log-keys.ts): the leaf data as
 * kept (LeafCodec.pack), then
 * while the new node is a right child (odd index), its parent with the frontier's last entry as left
 * child. The interior nodes the cache keeps (`nodes.keeps`) are also pushed to `completed`.
 */
function appendToFrontier (frontier: Uint8Array[], leafData: Uint8Array, leafHash: Uint8Array, index: number, hasher: MerkleHasher, nodes: NodeReader, completed: CompletedNode[]): Uint8Array {
  // A left child (every other leaf) completes nothing: its column is its data.
  if (!isOdd(index)) {
    frontier.push(leafHash)
    return Uint8Array.from(leafData)
  }
  const levels = completedLevels(index)
  const column = new Uint8Array(leafData.length + levels * HASH_BYTES)
  column.set(leafData, 0)
  let node = leafHash
  let at = index
  for (let level = 1; level <= levels; level++) {
    node = hasher.children(frontier.pop() as Uint8Array, node)
    at = half(at)
    column.set(node, leafData.length + (level - 1) * HASH_BYTES)
    if (nodes.keeps(level)) completed.push({ node: { level, index: at }, hash: node })
  }
  frontier.push(node)
  return column
}
