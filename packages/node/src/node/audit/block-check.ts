import { join } from 'node:path'
import { Level } from 'level'
import type { CID } from 'multiformats/cid'
import { blockKeyOf, blockLinks, blockMatches, cidOfBlockKey, isUnixfsBlockCid, MAX_DAG_BLOCKS, parseCid } from '../../anchor/index.js'
import { IsnadError } from '../../errors/index.js'
import { pathExists } from '../../fs/index.js'
import type { BlockCheckResult, BlockIssue, BlockScan, VerifiedCidAnchor } from '../../ledger/audit/index.js'
import { isLevelCorruption } from '../../record-index/index.js'
import { blockStorePath } from '../anchors/anchors.js'
import { nodePaths } from '../../home/index.js'

/**
 * The blockstore half of `isnad ledger verify` (docs/threat-model.md, "Damage to the data directory"): `.memory/evidence/blocks`, the content
 * of cid anchors, read as it is on disk.
 * - Every block is re-hashed against its CID, up to BLOCK_CHECK_MAX_BYTES: past that, the blocks
 *   read are a uniform sample (LevelDB returns them in key order, and a key is the block's hash), and
 *   the scan says it was sampled. A block that does not hash to its CID (a flipped byte, a truncated
 *   value) is `block_corrupt`.
 * - The DAG of every cid anchor whose last check in the ledger said `verified` is walked: a block
 *   of it that is gone is `block_missing` (this node held it when it verified the anchor), a damaged
 *   one `block_corrupt`, both naming the anchors concerned.
 * - A store LevelDB cannot open or read is `blockstore_corrupt`.
 * Read-only: it opens no store that does not exist; a running node holding the store makes it throw
 * STORE_LOCKED (the caller says it was not checked).
 */

/** @default 268_435_456 (256 MiB) — block bytes re-hashed by one check; past that, a sample. */
export const BLOCK_CHECK_MAX_BYTES = 256 * 1024 * 1024

export interface BlockCheckOptions {
  /** @default BLOCK_CHECK_MAX_BYTES */
  maxBytes?: number
}

const REPAIR = '`isnad ledger repair` sets damaged blocks aside and checks the anchors again (a daemon fetches good copies from peers)'

export async function checkBlockstore (home: string, anchors: readonly VerifiedCidAnchor[], options: BlockCheckOptions = {}): Promise<BlockCheckResult> {
  const location = blockStorePath(nodePaths(home))
  const scan: BlockScan = { blocks: 0, checked: 0, bytes: 0, sampled: false, anchors: anchors.length }
  if (!await pathExists(join(location, 'CURRENT'))) {
    return {
      scan,
      issues: anchors.map((a) => ({
        kind: 'block_missing',
        cid: a.reference,
        anchors: [a.anchor],
        message: `evidence/blocks does not exist, but anchor ${a.anchor} was verified with every block of ${a.reference} held here; ${REPAIR}`
      }))
    }
  }
  const db = new Level<string, Uint8Array>(location, { createIfMissing: false, valueEncoding: 'view' })
  try {
    await db.open()
  } catch (err) {
    if (isLocked(err)) throw new IsnadError('STORE_LOCKED', `${location} is in use by another isnad process (a running daemon?)`, { cause: err })
    return { scan, issues: [storeIssue(err, anchors)] }
  }
  try {
    return { scan, issues: await inspect(db, anchors, scan, options.maxBytes ?? BLOCK_CHECK_MAX_BYTES) }
  } catch (err) {
    return { scan, issues: [storeIssue(err, anchors)] }
  } finally {
    await db.close()
  }
}

type BlockDb = Level<string, Uint8Array>

async function inspect (db: BlockDb, anchors: readonly VerifiedCidAnchor[], scan: BlockScan, maxBytes: number): Promise<BlockIssue[]> {
  for await (const _key of db.keys()) scan.blocks++
  // key → the damaged block's CID (the walk replaces the raw one by the CID an anchor links to) and anchors
  const corrupt = new Map<string, { cid: CID, anchors: Set<string> }>()
  for await (const [key, bytes] of db.iterator()) {
    if (scan.bytes >= maxBytes) {
      scan.sampled = true
      break
    }
    scan.checked++
    scan.bytes += bytes.length
    const cid = cidOfBlockKey(key)
    if (!blockMatches(cid, bytes)) corrupt.set(key, { cid, anchors: new Set() })
  }
  const missing = new Map<string, { cid: CID, anchors: Set<string> }>()
  for (const { anchor, reference } of anchors) {
    let root: CID
    try {
      root = parseCid(reference)
    } catch {
      continue // the cid checker calls such an anchor unverifiable; it was never verified with blocks
    }
    const seen = new Set<string>([blockKeyOf(root)])
    let level: CID[] = [root]
    while (level.length > 0 && seen.size <= MAX_DAG_BLOCKS) {
      const next: CID[] = []
      for (const cid of level) {
        const key = blockKeyOf(cid)
        const bytes = await db.get(key)
        if (bytes === undefined) {
          const entry = missing.get(key) ?? { cid, anchors: new Set<string>() }
          entry.anchors.add(anchor)
          missing.set(key, entry)
          continue
        }
        if (!blockMatches(cid, bytes)) {
          const entry = corrupt.get(key) ?? { cid, anchors: new Set<string>() }
          entry.anchors.add(anchor)
          corrupt.set(key, { ...entry, cid })
          continue
        }
        let links: CID[]
        try {
          links = blockLinks(cid, bytes)
        } catch {
          continue // hashes right but does not decode: the anchor's own fault, the cid checker's `mismatch`
        }
        for (const link of links) {
          const linkKey = blockKeyOf(link)
          if (!isUnixfsBlockCid(link) || seen.has(linkKey)) continue
          seen.add(linkKey)
          next.push(link)
        }
      }
      level = next
    }
  }
  const issues: BlockIssue[] = []
  for (const { cid, anchors: of } of corrupt.values()) {
    issues.push({
      kind: 'block_corrupt',
      cid: cid.toString(),
      anchors: [...of].sort(),
      message: `block ${cid.toString()} does not hash to its CID (damaged on this disk)${of.size === 0 ? '' : `; it belongs to anchor${of.size === 1 ? '' : 's'} ${[...of].sort().join(', ')}`}. ` +
        `It is never served nor counted; ${REPAIR}`
    })
  }
  for (const { cid, anchors: of } of missing.values()) {
    issues.push({
      kind: 'block_missing',
      cid: cid.toString(),
      anchors: [...of].sort(),
      message: `block ${cid.toString()} is gone, but anchor${of.size === 1 ? '' : 's'} ${[...of].sort().join(', ')} ${of.size === 1 ? 'was' : 'were'} verified with it held here; ${REPAIR}`
    })
  }
  return issues
}

function storeIssue (err: unknown, anchors: readonly VerifiedCidAnchor[]): BlockIssue {
  const what = err instanceof Error ? err.message : String(err)
  return {
    kind: 'blockstore_corrupt',
    anchors: anchors.map((a) => a.anchor).sort(),
    message: `evidence/blocks ${isLevelCorruption(err) ? 'is damaged' : 'cannot be read'} (${what}); \`isnad ledger repair\` moves it aside, salvages every block that still hashes to its CID and checks the verified anchors again`
  }
}

/** classic-level reports a held lock as LEVEL_DATABASE_NOT_OPEN caused by LEVEL_LOCKED. */
function isLocked (err: unknown): boolean {
  return (err as { cause?: { code?: unknown } } | null)?.cause?.code === 'LEVEL_LOCKED'
}
