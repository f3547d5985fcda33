import type { AuditContext } from './audit-context.js'
import type { FindingKind } from './governance-lines.js'

/**
 * The blockstore half of `isnad ledger verify` (docs/threat-model.md, "Damage to the data directory"): `evidence/blocks/` holds the content
 * of cid anchors (anchors-v1 §3). It is not derived from the ledger, so a reindex cannot rebuild it;
 * what the ledger does say is which cid anchors this node verified last (their last
 * `memory.anchor_checked` event), and so which blocks it must still hold. The check itself reads
 * LevelDB and is the node's (`src/node/audit/block-check.ts`); this file turns its issues into findings.
 */

/** A cid anchor whose last check in the node scope said `verified`: every block of its DAG was here. */
export interface VerifiedCidAnchor {
  /** The anchor record's id. */
  anchor: string
  /** Its root CID. */
  reference: string
}

export type BlockFindingKind = 'block_corrupt' | 'block_missing' | 'blockstore_corrupt'

/** Findings about the blockstore alone: the ledger is intact; `repair_blocks` addresses them. */
export const BLOCK_KINDS: ReadonlySet<FindingKind> = new Set<FindingKind>(['block_corrupt', 'block_missing', 'blockstore_corrupt'])

export interface BlockIssue {
  kind: BlockFindingKind
  /** The block's CID (block_corrupt, block_missing); absent for the store as a whole. */
  cid?: string
  /** The anchors whose DAG holds that block (checked again by repair). */
  anchors: string[]
  message: string
}

/** What the check read, so `verify` can say how much of a large store it looked at. */
export interface BlockScan {
  /** Blocks in the store (counted without reading them). */
  blocks: number
  /** Blocks re-hashed against their CID, and their bytes. */
  checked: number
  bytes: number
  /** True when the store was larger than the check's budget: a uniform sample was re-hashed (keys are hashes). */
  sampled: boolean
  /** Verified cid anchors whose DAG was walked for missing blocks. */
  anchors: number
}

export interface BlockCheckResult {
  issues: BlockIssue[]
  scan: BlockScan
}

/** Checks the blockstore, given the cid anchors the ledger says were verified last. */
export type BlockCheck = (anchors: readonly VerifiedCidAnchor[]) => Promise<BlockCheckResult>

/** The file a block finding names: the block under the store's directory, or the store. */
export function blockFindingFile (cid: string | undefined): string {
  return cid === undefined ? 'evidence/blocks' : `evidence/blocks/${cid}`
}

/** The CID a block finding's file names (undefined for the store as a whole). */
export function cidOfBlockFile (file: string): string | undefined {
  return file.startsWith('evidence/blocks/') ? file.slice('evidence/blocks/'.length) : undefined
}

export async function checkBlocks (ctx: AuditContext, blockCheck: BlockCheck, anchors: readonly VerifiedCidAnchor[]): Promise<BlockScan | undefined> {
  try {
    const { issues, scan } = await blockCheck(anchors)
    for (const issue of issues) ctx.sink.add({ kind: issue.kind, file: blockFindingFile(issue.cid), message: issue.message, refs: issue.anchors })
    return scan
  } catch (err) {
    // STORE_LOCKED (a running daemon holds the store) is the caller's to report, as for the index
    if (err instanceof Error && 'code' in err && err.code === 'STORE_LOCKED') throw err
    ctx.sink.add({ kind: 'blockstore_corrupt', file: 'evidence/blocks', message: `the blockstore could not be checked: ${err instanceof Error ? err.message : String(err)}`, refs: [] })
    return undefined
  }
}
