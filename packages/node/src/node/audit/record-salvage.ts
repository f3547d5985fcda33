import { mkdir, open } from 'node:fs/promises'
import { join, relative } from 'node:path'
import { pathExists, syncDirectory } from '../../fs/index.js'
import { BUNDLE_FORMAT, type Bundle } from '../../schema/index.js'
import { createLevelRecordStore } from '../../record-index/index.js'
import { JournalState } from '../journal/journal-state.js'
import { LocalNode } from '../local-node.js'
import { journalIndexPath, nodePaths, recordIndexPath } from '../../home/index.js'

/**
 * `isnad ledger repair` for records the ledger lost while the index still holds them (docs/threat-model.md, "Damage to the data directory": a
 * shard truncated in the middle, a set-aside event). A reindex rebuilds the index from the ledger
 * alone and would drop them, destroying the last copy on this node. So, before the reindex, every
 * record of the index's Merkle log that no ledger event carries is read from the index and written
 * as an import bundle to `archive/quarantine/salvaged/<ts>.json` (kept); after the reindex the bundle
 * is imported like any bundle: every record verified again, then appended to the ledger as new
 * events (source `import`), so the node answers them again. What the lost events themselves were
 * (their lc, time, anchor checks, checkpoints) stays lost, and verify keeps saying so.
 */

/** @default 1024 — ids read from the index's log per step. */
const LOG_PAGE = 1024

export interface SalvagedRecords {
  /** What was salvaged, for the repair's execution line. */
  detail: string
  /** Imports the bundle after the reindex; returns what it did. */
  restore: () => Promise<string>
}

export async function salvageLostRecords (home: string, ledgerIds: ReadonlySet<string>, now: () => number = Date.now, shardCount?: number): Promise<SalvagedRecords> {
  const paths = nodePaths(home)
  const nothing = (why: string): SalvagedRecords => ({ detail: why, restore: async () => 'nothing to import' })
  if (!await pathExists(join(journalIndexPath(paths), 'CURRENT')) || !await pathExists(join(recordIndexPath(paths), 'CURRENT'))) {
    return nothing('no index to salvage records from')
  }
  let state: JournalState
  try {
    state = await JournalState.open(journalIndexPath(paths))
  } catch (err) {
    return nothing(`the index cannot be read, nothing salvaged from it (${err instanceof Error ? err.message : String(err)})`)
  }
  const lost: string[] = []
  try {
    for (let cursor = 0; ;) {
      const { ids, next } = await state.recordsSince(cursor, LOG_PAGE)
      for (const id of ids) if (!ledgerIds.has(id)) lost.push(id)
      if (ids.length === 0 || next === cursor) break
      cursor = next
    }
  } finally {
    await state.close()
  }
  if (lost.length === 0) return nothing('the index holds no record the ledger lost')
  const store = createLevelRecordStore({ location: recordIndexPath(paths), dataDir: paths.data })
  const records: Bundle['records'] = []
  const salvaged: string[] = []
  const unreadable: string[] = []
  try {
    await store.open()
    for (const id of lost) {
      const stored = await store.get(id).catch(() => null)
      if (stored === null) unreadable.push(id)
      else {
        records.push(stored.signed as Bundle['records'][number])
        salvaged.push(id)
      }
    }
  } catch (err) {
    return nothing(`the index's records cannot be read, nothing salvaged (${err instanceof Error ? err.message : String(err)})`)
  } finally {
    await store.close().catch(() => {})
  }
  if (records.length === 0) return nothing(`${lost.length} records the ledger lost are not readable in the index: ${unreadable.join(', ')}`)
  const ts = new Date(now()).toISOString()
  const bundle: Bundle = { format: BUNDLE_FORMAT, exported_at: ts, records }
  const dir = join(paths.data, 'archive', 'quarantine', 'salvaged')
  await mkdir(dir, { recursive: true })
  const file = join(dir, `${ts.replace(/[:.]/g, '-')}.json`)
  const handle = await open(file, 'wx', 0o600)
  try {
    await handle.writeFile(`${JSON.stringify(bundle)}\n`)
    await handle.sync()
  } finally {
    await handle.close()
  }
  await syncDirectory(dir)
  const rel = relative(paths.data, file)
  return {
    detail: `the index held ${records.length} record${records.length === 1 ? '' : 's'} the ledger lost (${salvaged.join(', ')}); saved to ${rel} before the reindex` +
      `${unreadable.length === 0 ? '' : `; unreadable in the index: ${unreadable.join(', ')}`}`,
    restore: async () => {
      const node = await LocalNode.open({ home, shardCount }) // scored as the daemon scores (its set shard count)
      try {
        const result = await node.ingest(records, 'import')
        return `imported ${rel} after the reindex: ${result.stored.length} stored again${result.stored.length === 0 ? '' : ` (${result.stored.join(', ')})`}` +
          `${result.duplicates.length === 0 ? '' : `, ${result.duplicates.length} already there`}`
      } finally {
        await node.close()
      }
    }
  }
}
