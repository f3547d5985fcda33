import { mkdir, open, rename } from 'node:fs/promises'
import { dirname, join, relative } from 'node:path'
import { Level } from 'level'
import { blockKeyOf, blockMatches, cidOfBlockKey, createLevelBlockStore, parseCid } from '../../anchor/index.js'
import { pathExists, syncDirectory } from '../../fs/index.js'
import type { RepairAction } from '../../ledger/audit/index.js'
import type { AnchorRecord } from '../../schema/index.js'
import type { StoredRecord } from '../../record-index/index.js'
import { blockStorePath } from '../anchors/anchors.js'
import { LocalNode } from '../local-node.js'
import { nodePaths } from '../../home/index.js'

/**
 * `isnad ledger repair` for the blockstore (docs/threat-model.md, "Damage to the data directory"), after the reindex. What the node does
 * about damaged anchored content, in order:
 * 1. A store LevelDB reports damaged is moved whole to `archive/quarantine/evidence-blocks` (kept
 *    byte for byte), and every block that can still be read from it and hashes to its CID is copied
 *    into a new store. The rest are lost from this node.
 * 2. A block that does not hash to its CID is set aside: its bytes go to
 *    `archive/quarantine/blocks/<cid>.bin`, then it leaves the store (at execution it must still be
 *    there and still be wrong, so running a plan twice removes nothing good).
 * 3. The anchors concerned are checked again, and the checks journaled (memory.anchor_checked): a
 *    node with peers fetches good copies and the anchor is verified again; without (the CLI), or
 *    when no peer holds the block, it is `unreachable`, so its trust no longer counts it, until a
 *    later check (its state's TTL, `isnad anchor check`, a daemon) finds the block.
 * Nothing in the ledger changes: blocks are content, not history.
 */

type BlockAction = Extract<RepairAction, { kind: 'repair_blocks' }>

export async function repairBlocks (home: string, action: BlockAction, shardCount?: number): Promise<string> {
  const paths = nodePaths(home)
  const location = blockStorePath(paths)
  const quarantine = join(paths.data, 'archive', 'quarantine')
  const done: string[] = []
  if (action.salvage) done.push(await salvage(location, quarantine, paths.data))
  if (action.set_aside.length > 0) done.push(await setAsideBlocks(location, join(quarantine, 'blocks'), paths.data, action.set_aside))
  if (action.recheck.length > 0) done.push(await recheck(home, action.recheck, shardCount))
  return done.join('; ')
}

async function setAsideBlocks (location: string, dir: string, dataDir: string, cids: readonly string[]): Promise<string> {
  const db = new Level<string, Uint8Array>(location, { createIfMissing: false, valueEncoding: 'view' })
  await db.open()
  const moved: string[] = []
  const skipped: string[] = []
  try {
    for (const text of cids) {
      const cid = parseCid(text)
      const key = blockKeyOf(cid)
      const bytes = await db.get(key)
      if (bytes === undefined || blockMatches(cid, bytes)) {
        skipped.push(`${text} (${bytes === undefined ? 'gone already' : 'intact now'})`)
        continue
      }
      const file = await writeAside(dir, `${text}.bin`, bytes)
      await db.del(key)
      moved.push(`${text} → ${relative(dataDir, file)}`)
    }
  } finally {
    await db.close()
  }
  return `set aside ${moved.length} damaged block${moved.length === 1 ? '' : 's'}${moved.length === 0 ? '' : ` (${moved.join(', ')})`}` +
    `${skipped.length === 0 ? '' : `; left ${skipped.join(', ')}`}`
}

/** The damaged store moved aside whole; every block still readable and intact copied into a new one. */
async function salvage (location: string, quarantine: string, dataDir: string): Promise<string> {
  if (!await pathExists(location)) return 'evidence/blocks is gone already'
  await mkdir(quarantine, { recursive: true })
  const aside = await freeName(join(quarantine, 'evidence-blocks'))
  await rename(location, aside)
  await syncDirectory(dirname(location))
  await syncDirectory(quarantine)
  let kept = 0
  let wrong = 0
  let stopped = ''
  const fresh = createLevelBlockStore(location)
  await fresh.open()
  try {
    const old = new Level<string, Uint8Array>(aside, { createIfMissing: false, valueEncoding: 'view' })
    try {
      await old.open()
      for await (const [key, bytes] of old.iterator()) {
        const cid = cidOfBlockKey(key)
        if (!blockMatches(cid, bytes)) {
          wrong++
          continue
        }
        await fresh.put(cid, bytes)
        kept++
      }
    } catch (err) {
      stopped = `; reading it stopped there (${err instanceof Error ? err.message : String(err)}), the blocks after that point are lost from this node`
    } finally {
      await old.close().catch(() => {})
    }
  } finally {
    await fresh.close()
  }
  return `evidence/blocks was damaged: moved to ${relative(dataDir, aside)}; ${kept} block${kept === 1 ? '' : 's'} salvaged into a new store` +
    `${wrong === 0 ? '' : `, ${wrong} that did not hash to their CID left there`}${stopped}`
}

async function recheck (home: string, ids: readonly string[], shardCount: number | undefined): Promise<string> {
  const node = await LocalNode.open({ home, shardCount }) // scored as the daemon scores (its set shard count)
  try {
    const anchors: Array<StoredRecord<AnchorRecord>> = []
    const absent: string[] = []
    for (const id of ids) {
      const stored = await node.store.get(id)
      if (stored?.signed.record.kind === 'anchor') anchors.push(stored as StoredRecord<AnchorRecord>)
      else absent.push(id)
    }
    const checks = await node.anchors.checkNow(anchors)
    return `checked ${checks.length} anchor${checks.length === 1 ? '' : 's'} again: ${checks.map((c) => `${c.id} ${c.state}`).join(', ')}` +
      `${absent.length === 0 ? '' : `; not in the index: ${absent.join(', ')}`}`
  } finally {
    await node.close()
  }
}

/** `<base>`, else `<base>.1`, `<base>.2`… : nothing set aside is ever overwritten. */
async function freeName (base: string): Promise<string> {
  for (let n = 0; ; n++) {
    const candidate = n === 0 ? base : `${base}.${n}`
    if (!await pathExists(candidate)) return candidate
  }
}

async function writeAside (dir: string, name: string, bytes: Uint8Array): Promise<string> {
  await mkdir(dir, { recursive: true })
  const file = await freeName(join(dir, name))
  const handle = await open(file, 'wx', 0o600)
  try {
    await handle.writeFile(bytes)
    await handle.sync()
  } finally {
    await handle.close()
  }
  await syncDirectory(dir)
  return file
}
