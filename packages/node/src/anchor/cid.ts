import type { CID } from 'multiformats/cid'
import { IsnadError } from '../errors/index.js'
import { blockLinks, blockMatches, digestHex, isUnixfsBlockCid, parseCid, type BlockStore } from './blocks.js'
import { MAX_DAG_BLOCKS } from './constants.js'
import { splitHash, type AnchorChecker, type CheckOutcome } from './types.js'

/** Asks peers for blocks this node lacks and stores those that hash to their CIDs; absent ones stay absent. */
export type BlockFetcher = (cids: readonly CID[], signal: AbortSignal) => Promise<void>

export interface CidCheckerInit {
  blocks: BlockStore
  /** Absent: only local blocks are looked at (a node without a network). */
  fetchBlocks?: () => BlockFetcher | undefined
  /** @default MAX_DAG_BLOCKS */
  maxBlocks?: number
}

/** The hash a cid anchor carries: the CID's own sha2-256 digest (anchors-v1 U5). */
export function cidAnchorHash (cid: CID): string {
  return `sha2-256:${digestHex(cid)}`
}

/**
 * cid anchors (anchors-v1 V1): the whole DAG under the CID is here or fetched from peers, and every
 * block hashes to its CID. Walked level by level so a level's missing blocks are asked for in one go.
 */
export function createCidChecker (init: CidCheckerInit): AnchorChecker {
  const maxBlocks = init.maxBlocks ?? MAX_DAG_BLOCKS
  return async (anchor, signal): Promise<CheckOutcome> => {
    let root: CID
    try {
      root = parseCid(anchor.reference)
    } catch {
      return { state: 'unverifiable', reason: `${anchor.reference} is not a CID` }
    }
    if (!isUnixfsBlockCid(root)) {
      return { state: 'unverifiable', reason: `${anchor.reference} is not a raw or dag-pb block with sha2-256; only UnixFS content is checked` }
    }
    if (anchor.hash !== cidAnchorHash(root)) {
      const { algorithm } = splitHash(anchor.hash)
      return { state: 'mismatch', reason: `the anchor's hash (${algorithm}) is not the digest of ${anchor.reference}` }
    }
    let level: CID[] = [root]
    const seen = new Set<string>([root.toString()])
    let count = 0
    let bytes = 0
    while (level.length > 0) {
      const fetcher = init.fetchBlocks?.()
      if (fetcher !== undefined) {
        // A stored block that does not hash to its CID is damage on this node's disk, not a fault of
        // the anchor: it is asked from peers like a missing one (a good copy replaces it).
        const missing: CID[] = []
        for (const cid of level) if (!await holdsIntact(init.blocks, cid)) missing.push(cid)
        if (missing.length > 0) await fetcher(missing, signal)
      }
      const next: CID[] = []
      for (const cid of level) {
        if (signal.aborted) return { state: 'unreachable', reason: `the check of ${anchor.reference} ran out of time after ${count} blocks` }
        const block = await init.blocks.get(cid)
        if (block === null) {
          return { state: 'unreachable', reason: `block ${cid.toString()} of ${anchor.reference} is held neither by this node nor by the peers asked` }
        }
        if (!blockMatches(cid, block)) {
          return {
            state: 'unreachable',
            reason: `this node's copy of block ${cid.toString()} of ${anchor.reference} is damaged (it does not hash to its CID) and no peer asked sent a good one; ` +
              '`isnad ledger repair` sets it aside'
          }
        }
        count++
        bytes += block.length
        let links: CID[]
        try {
          links = blockLinks(cid, block)
        } catch (err) {
          if (!(err instanceof IsnadError)) throw err
          return { state: 'mismatch', reason: err.message }
        }
        for (const link of links) {
          if (!isUnixfsBlockCid(link)) return { state: 'unverifiable', reason: `block ${cid.toString()} links to ${link.toString()}, which is not a UnixFS block` }
          if (seen.has(link.toString())) continue
          seen.add(link.toString())
          next.push(link)
        }
        if (seen.size > maxBlocks) return { state: 'unverifiable', reason: `${anchor.reference} has more than ${maxBlocks} blocks, above this node's limit` }
      }
      level = next
    }
    return { state: 'verified', reason: `all ${count} block${count === 1 ? '' : 's'} (${bytes} bytes) of ${anchor.reference} are held and hash to their CIDs` }
  }
}

async function holdsIntact (blocks: BlockStore, cid: CID): Promise<boolean> {
  const block = await blocks.get(cid)
  return block !== null && blockMatches(cid, block)
}
