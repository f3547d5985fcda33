import { createHash } from 'node:crypto'
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { gatherEvidence, type MemoryEvidence } from '../../../src/node/evidence.js'
import { ViewReducer } from '../../../src/node/journal/view-reducer.js'
import { createLevelRecordStore, indexLocationOf, type RecordStore, type StoredRecord } from '../../../src/store/index.js'
import { createAgent, createAnchor, createAttestation, createMemory } from '../../fixtures/records.js'

/*
 * What ViewReducer writes for a sequence of store calls, byte for byte: view lines, reducer lines
 * and `memory.reduced` events are on disk and in the ledger, so a faster reducer must write the
 * same. The pages cover what the reducer reads from the store: a correction stored before what it
 * corrects, a correction by another author, anchors, evidence that arrived before its memory, and
 * evidence given by ingest (scored) as well as read from the store. The golden digest was computed
 * with the code of session 4.
 */

const alice = createAgent(80)
const bob = createAgent(81)
const carol = createAgent(82)
const NOW = Date.parse('2026-02-06T12:00:00Z')
const recovery = (dataDir: string): ConstructorParameters<typeof ViewReducer>[3] => ({
  dataDir, now: () => new Date(NOW).toISOString(), recordFinding: async () => {}, recordedFindingIds: async () => new Set()
})

const decision = createMemory(alice, { type: 'decision', summary: 'Chose JSONL for views', tags: ['key:views', 'project:isnad'] })
const fact = createMemory(bob, { type: 'fact', summary: 'LevelDB iterators cost tens of microseconds', created_at: '2026-01-31T23:59:59Z' })
const correction = createMemory(alice, { type: 'correction', summary: 'Chose JSONL for views and ledgers', supersedes: decision.id })
const commitment = createMemory(carol, { type: 'commitment', summary: 'Ship the sync target', tags: ['due:2026-03-01'] })
const foreignCorrection = createMemory(carol, { type: 'correction', summary: 'Iterators cost less', supersedes: fact.id })

/** Store calls in order; `scored` memories get their evidence as ingest would pass it. */
const PAGES: Array<{ records: StoredRecord[], scored: string[] }> = [
  { records: [correction, createAttestation(carol, fact.id), commitment], scored: [commitment.id] },
  { records: [decision, fact, createAnchor(bob, decision.id), createAttestation(bob, decision.id)], scored: [decision.id] },
  { records: [foreignCorrection, createAttestation(alice, correction.id, 'dispute'), createAttestation(bob, commitment.id, 'partial')], scored: [] },
  { records: [createAttestation(carol, decision.id, 'dispute'), createAttestation(alice, fact.id)], scored: [decision.id, fact.id] }
]

async function viewFiles (dataDir: string): Promise<string[]> {
  const out: string[] = []
  for (const folder of ['views', 'coordination']) {
    const root = join(dataDir, folder)
    const entries = await readdir(root, { recursive: true, withFileTypes: true })
    for (const entry of entries.filter((e) => e.isFile()).sort((a, b) => join(a.parentPath, a.name).localeCompare(join(b.parentPath, b.name)))) {
      const path = join(entry.parentPath, entry.name)
      out.push(`${relative(dataDir, path)}\n${await readFile(path, 'utf8')}`)
    }
  }
  return out
}

describe('ViewReducer: what a sequence of store calls writes', () => {
  let home: string
  let store: RecordStore
  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'isnad-view-reducer-'))
    store = createLevelRecordStore({ location: indexLocationOf(home) })
    await store.open()
  })
  afterEach(async () => {
    await store.close()
    await rm(home, { recursive: true, force: true })
  })

  it('writes the golden lines and events, with successors, corrections and scored evidence', async () => {
    const reducer = new ViewReducer(home, 'default', {}, recovery(home))
    const events: unknown[] = []
    for (const { records, scored } of PAGES) {
      await store.putMany(records)
      const evidence = new Map<string, MemoryEvidence>()
      for (const id of scored) {
        const memory = await store.getMemory(id)
        if (memory !== null) evidence.set(id, await gatherEvidence(store, memory))
      }
      events.push(await reducer.reduce(store, ViewReducer.touchedBy(records), NOW, evidence))
    }
    await reducer.close()
    const files = await viewFiles(home)
    // The newest object of each memory and type: any successor (here one by the author, one by
    // another) supersedes, and a correction takes the type of what it corrects once that is stored
    // (stored first, it was reduced as a fact).
    const newest = new Map<string, { status: string, type: string }>()
    for (const file of files.filter((f) => f.startsWith('views/') && !f.startsWith('views/attach/'))) {
      for (const line of file.split('\n').slice(1, -1)) {
        const object = JSON.parse(line) as { source: string, status: string, type: string }
        newest.set(`${object.source} ${object.type}`, object)
      }
    }
    expect(newest.get(`${decision.id} decision`)).toMatchObject({ status: 'superseded' })
    expect(newest.get(`${fact.id} fact`)).toMatchObject({ status: 'superseded' })
    expect(newest.get(`${correction.id} decision`)).toMatchObject({ status: 'active' })
    expect(newest.get(`${correction.id} fact`)).toMatchObject({ status: 'active' })
    expect(newest.get(`${commitment.id} commitment`)).toMatchObject({ status: 'active' })
    const digest = createHash('sha256').update(JSON.stringify({ files, events })).digest('hex')
    expect(digest).toBe(GOLDEN_DIGEST)
  })
})

const GOLDEN_DIGEST = 'd1bbdc209a7986de1e81d451a0a075a49559dfd4d8e921ef284191eefb9ce11d'
