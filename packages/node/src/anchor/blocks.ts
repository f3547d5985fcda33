import { createHash } from 'node:crypto'
import * as dagPb from '@ipld/dag-pb'
import { LevelBlockstore } from 'blockstore-level'
import type { WritableStorage } from 'ipfs-unixfs-importer'
import { CID } from 'multiformats/cid'
import { base32upper } from 'multiformats/bases/base32'
import * as Digest from 'multiformats/hashes/digest'
import { IsnadError } from '../errors/index.js'
import { BLOCKSTORE_WRITE_BUFFER_BYTES, DAG_PB_CODE, MAX_BLOCK_BYTES, RAW_CODE, SHA2_256_CODE } from './constants.js'

/**
 * The blocks of anchored content (anchors-v1 §3): what the node imported itself and what it fetched
 * from peers. Every block in it was re-hashed against its CID before it was written; its users
 * re-hash what they read (the cid checker, the fetch server, `ledger verify`), since disks and other
 * processes are not trusted either: `get` returns the bytes as stored.
 */
export interface BlockStore {
  /** The block's bytes, or null when this node does not hold it. */
  get: (cid: CID) => Promise<Uint8Array | null>
  has: (cid: CID) => Promise<boolean>
  /** Stores a block after checking it hashes to `cid` (CID_MISMATCH otherwise). */
  put: (cid: CID, bytes: Uint8Array) => Promise<void>
  /** Where the UnixFS importer writes: blocks it has just hashed itself, so not hashed again. */
  importTarget: WritableStorage
  /** Every stored block, in key order (the multihash): the CID is rebuilt as raw, which is enough to check the hash. */
  entries: () => AsyncIterable<{ cid: CID, bytes: Uint8Array }>
  /** Removes a block (repair sets a damaged one aside first). */
  delete: (cid: CID) => Promise<void>
  open: () => Promise<void>
  close: () => Promise<void>
}

/** Parses a CID string; CID_INVALID when it is not one. */
export function parseCid (text: string): CID {
  try {
    return CID.parse(text)
  } catch (cause) {
    throw new IsnadError('CID_INVALID', `${text} is not a CID`, { cause })
  }
}

/** Whether a CID can name a block of a UnixFS file as this node builds and checks them (anchors-v1 U1). */
export function isUnixfsBlockCid (cid: CID): boolean {
  return cid.multihash.code === SHA2_256_CODE && (cid.code === RAW_CODE || cid.code === DAG_PB_CODE)
}

/** The lower-case hex sha2-256 digest a CID names. */
export function digestHex (cid: CID): string {
  return Buffer.from(cid.multihash.digest).toString('hex')
}

/**
 * True when `bytes` hash to `cid` (sha2-256 only: anything else is not a block this node serves or
 * accepts). helia does the same for every block it gets from the network.
 */
export function blockMatches (cid: CID, bytes: Uint8Array): boolean {
  if (cid.multihash.code !== SHA2_256_CODE || bytes.length > MAX_BLOCK_BYTES) return false
  const digest = createHash('sha256').update(bytes).digest()
  return Buffer.compare(digest, cid.multihash.digest) === 0
}

export function assertBlockMatches (cid: CID, bytes: Uint8Array): void {
  if (!blockMatches(cid, bytes)) {
    throw new IsnadError('CID_MISMATCH', `block of ${bytes.length} bytes does not hash to ${cid.toString()}`, { details: { cid: cid.toString() } })
  }
}

/** The CIDs a block links to: none for a raw block, the links of a dag-pb node. DECODE_FAILED when it is not dag-pb. */
export function blockLinks (cid: CID, bytes: Uint8Array): CID[] {
  if (cid.code === RAW_CODE) return []
  try {
    return dagPb.decode(bytes).Links.map((link) => link.Hash)
  } catch (cause) {
    throw new IsnadError('DECODE_FAILED', `block ${cid.toString()} is not a dag-pb node`, { cause })
  }
}

/**
 * blockstore-level's key of a block: `/` and its multihash in base32upper. The CID's codec is not
 * kept; `ledger verify` and `repair` read the LevelDB by these keys (src/node/audit/block-check.ts).
 */
export function blockKeyOf (cid: CID): string {
  return `/${base32upper.encoder.encode(cid.multihash.bytes)}`
}

/** The CID a blockstore-level key names, as raw (enough to re-hash the block: only the multihash counts). */
export function cidOfBlockKey (key: string): CID {
  return CID.createV1(RAW_CODE, Digest.decode(base32upper.decoder.decode(key.slice(1))))
}

/** A BlockStore in LevelDB (blockstore-level), e.g. `.memory/evidence/blocks`. */
export function createLevelBlockStore (location: string): BlockStore {
  const blockstore = new LevelBlockstore(location, { writeBufferSize: BLOCKSTORE_WRITE_BUFFER_BYTES })
  const get = async (cid: CID): Promise<Uint8Array | null> => {
    if (!await blockstore.has(cid)) return null
    const chunks: Uint8Array[] = []
    for await (const chunk of blockstore.get(cid)) chunks.push(chunk)
    return chunks.length === 1 && chunks[0] !== undefined ? chunks[0] : Buffer.concat(chunks)
  }
  return {
    importTarget: blockstore,
    get,
    has: async (cid) => await blockstore.has(cid),
    put: async (cid, bytes) => {
      assertBlockMatches(cid, bytes)
      await blockstore.put(cid, bytes)
    },
    entries: async function * () {
      for await (const pair of blockstore.getAll()) yield { cid: pair.cid, bytes: await bytesOf(pair.bytes) }
    },
    delete: async (cid) => { await blockstore.delete(cid) },
    open: async () => { await blockstore.open() },
    close: async () => { await blockstore.close() }
  }
}

/** A BlockStore in memory (tests, benchmarks, short-lived tools); the same checks as the LevelDB one. */
export function createMemoryBlockStore (): BlockStore & { readonly size: number } {
  const blocks = new Map<string, Uint8Array>()
  const key = (cid: CID): string => digestHex(cid)
  return {
    get size () { return blocks.size },
    get: async (cid) => blocks.get(key(cid)) ?? null,
    has: async (cid) => blocks.has(key(cid)),
    put: async (cid, bytes) => {
      assertBlockMatches(cid, bytes)
      blocks.set(key(cid), bytes)
    },
    importTarget: {
      put: async (cid, bytes) => {
        // Kept by reference, as the importer made it (a copy halves import speed): content handed to
        // the importer must not be changed afterwards. LevelDB copies by itself.
        if (bytes instanceof Uint8Array) blocks.set(key(cid), bytes)
        else {
          const chunks: Uint8Array[] = []
          for await (const chunk of bytes) chunks.push(chunk)
          blocks.set(key(cid), Buffer.concat(chunks))
        }
        return cid
      }
    },
    entries: async function * () {
      for (const [hex, bytes] of blocks) yield { cid: CID.createV1(RAW_CODE, Digest.create(SHA2_256_CODE, Buffer.from(hex, 'hex'))), bytes }
    },
    delete: async (cid) => { blocks.delete(key(cid)) },
    open: async () => {},
    close: async () => {}
  }
}

/** blockstore-level hands a stored value over as it is; its type also allows a stream of chunks. */
async function bytesOf (value: Uint8Array | Iterable<Uint8Array> | AsyncIterable<Uint8Array>): Promise<Uint8Array> {
  if (value instanceof Uint8Array) return value
  const chunks: Uint8Array[] = []
  for await (const chunk of value) chunks.push(chunk)
  return Buffer.concat(chunks)
}
