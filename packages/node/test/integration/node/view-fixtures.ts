import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { afterEach, beforeEach } from 'vitest'
import type { ViewReducer } from '../../../src/node/journal/object-view-reducer.js'
import { createLevelRecordStore, indexLocationOf, type RecordStore } from '../../../src/record-index/index.js'

/** Fixtures of the ViewReducer suites: a temporary home with a LevelDB record store, and what was written there. */

export interface StoreHome {
  home: string
  store: RecordStore
}

/** For each test of the calling describe: a new temporary home with an open record store, closed and removed after it. */
export function useStoreHome (label: string): StoreHome {
  const current = {} as StoreHome
  beforeEach(async () => {
    current.home = await mkdtemp(join(tmpdir(), `isnad-${label}-`))
    current.store = createLevelRecordStore({ location: indexLocationOf(current.home) })
    await current.store.open()
  })
  afterEach(async () => {
    await current.store.close()
    await rm(current.home, { recursive: true, force: true })
  })
  return current
}

/** The recovery context of a ViewReducer in `dataDir`, its clock stopped at `now`. */
export function recoveryOf (dataDir: string, now: number): ConstructorParameters<typeof ViewReducer>[3] {
  return { dataDir, now: () => new Date(now).toISOString(), recordFinding: async () => {}, recordedFindingIds: async () => new Set() }
}

/**
 * The files below views/ and coordination/ of `dataDir`, views first, each folder in path order:
 * `file` relative to `dataDir` with `/` separators, `text` the whole file.
 */
export async function viewFiles (dataDir: string): Promise<Array<{ file: string, text: string }>> {
  const out: Array<{ file: string, text: string }> = []
  for (const folder of ['views', 'coordination']) {
    const entries = await readdir(join(dataDir, folder), { recursive: true, withFileTypes: true })
    const paths = entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name)).sort((a, b) => a.localeCompare(b))
    for (const path of paths) out.push({ file: relative(dataDir, path).replaceAll('\\', '/'), text: await readFile(path, 'utf8') })
  }
  return out
}
