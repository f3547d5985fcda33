import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { openEventLedger } from '../../../src/ledger/index.js'
import { LocalNode, initHome } from '../../../src/node/index.js'
import { nodePaths } from '../../../src/home/index.js'
import { JournalState } from '../../../src/node/journal/journal-state.js'
import { recordEventOf } from '../../../src/node/journal/record-events.js'
import { ViewReducer } from '../../../src/node/journal/object-view-reducer.js'
import type { StoredRecord } from '../../../src/record-index/index.js'
import { createAgent, createAttestation, createMemory, createWitnessRequest } from '../../fixtures/records.js'

/*
 * The journal writes the LevelDB entries of one store call together: the records' idempotency keys
 * with their Merkle leaf positions and witness requests (one batch after the Merkle append), and the
 * `memory.reduced` events' keys with the next indexed_lc. These tests pin what that must not change:
 * every event's key is in the index once the node is closed (or replayed after a crash), duplicates
 * are refused across restarts, and a bulk page gives the same views as the same records one by one.
 * A witness request, which no view depends on, starts no view reduction.
 */

const alice = createAgent(70)
const witnesses = [71, 72, 73].map(createAgent)
const CLOCK = Date.parse('2026-02-06T12:00:00Z')

async function ledgerEvents (home: string): Promise<Array<{ type: string, key: string, id: string, lc: number }>> {
  const ledger = await openEventLedger({ dataDir: nodePaths(home).data, scope: 'default' })
  try {
    const events = []
    for await (const e of ledger.readEvents()) events.push({ type: e.type, key: e.idempotency_key, id: e.event_id, lc: e.lc })
    return events
  } finally {
    await ledger.close()
  }
}

/** The journal's LevelDB: which of `keys` it answers, and its indexed_lc. */
async function journalIndex (home: string, keys: string[]): Promise<{ found: ReadonlyMap<string, unknown>, indexedLc: number, leaves: number, requests: number }> {
  const state = await JournalState.open(join(nodePaths(home).index, 'journal'))
  try {
    let requests = 0
    for await (const _request of state.witnessRequests()) requests++
    return { found: await state.idempotency().lookup(keys), indexedLc: await state.indexedLc(), leaves: (await state.recordsSince(0, 1000)).ids.length, requests }
  } finally {
    await state.close()
  }
}

/** Every line of views/ (objects and attachments), by file relative to `views/`. */
async function viewFiles (home: string): Promise<Map<string, string[]>> {
  const root = join(nodePaths(home).data, 'views')
  const files = new Map<string, string[]>()
  for (const entry of await readdir(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue
    const path = join(entry.parentPath, entry.name)
    files.set(relative(root, path), (await readFile(path, 'utf8')).trim().split('\n'))
  }
  return files
}

/** The newest line of every id in every view file: the state a reader of the views sees. */
function newestById (files: Map<string, string[]>): Map<string, string> {
  const newest = new Map<string, string>()
  for (const [file, lines] of files) for (const line of lines) newest.set(`${file}:${(JSON.parse(line) as { id: string }).id}`, line)
  return newest
}

describe('the journal\'s batched index writes', () => {
  let home: string
  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'isnad-journal-batched-'))
    await initHome(home)
  })
  afterEach(async () => { await rm(home, { recursive: true, force: true }) })

  it('leaves every event\'s idempotency key in the index, with the leaves and witness requests, once the node closes', async () => {
    const node = await LocalNode.open({ home })
    const memory = createMemory(alice, { tags: ['batched'] })
    await node.ingest([memory.signed, createWitnessRequest(alice, memory.id, witnesses).signed])
    for (const w of witnesses) await node.ingest([createAttestation(w, memory.id).signed])
    await node.close()

    const events = await ledgerEvents(home)
    expect(events.filter((e) => e.type === 'memory.reduced').length).toBeGreaterThan(0)
    const { found, indexedLc, leaves, requests } = await journalIndex(home, events.map((e) => e.key))
    for (const e of events) expect(found.get(e.key), `${e.type} ${e.key}`).toBe(e.id)
    expect(indexedLc).toBe(Math.max(...events.map((e) => e.lc)))
    expect(leaves).toBe(5)
    expect(requests).toBe(1)
  })

  it('replays events made durable just before a crash (no keys, leaves or index yet) and records their keys: nothing is journaled twice', async () => {
    const memory = createMemory(alice)
    const attestation = createAttestation(witnesses[0]!, memory.id)
    // The state a crash leaves between the durable append and the batched LevelDB write.
    const ledger = await openEventLedger({ dataDir: nodePaths(home).data, scope: 'default' })
    const durable = await ledger.append([recordEventOf(memory, 'sync'), recordEventOf(attestation, 'sync')])
    await ledger.close()
    const keys = durable.map((r) => (r.event as { idempotency_key: string }).idempotency_key)
    expect((await journalIndex(home, keys)).found.size).toBe(0)

    const node = await LocalNode.open({ home })
    expect(node.journal.merkle.size).toBe(2)
    await node.close()
    expect((await journalIndex(home, keys)).found.size).toBe(2)

    // The same records again, after another restart: no second event for either, nor a second reduction.
    const again = await LocalNode.open({ home })
    await again.ingest([memory.signed, attestation.signed])
    await again.close()
    const events = await ledgerEvents(home)
    const counts = new Map<string, number>()
    for (const e of events) counts.set(e.key, (counts.get(e.key) ?? 0) + 1)
    expect([...counts].filter(([, n]) => n > 1)).toEqual([])
    expect(events.filter((e) => e.type === 'memory.captured' || e.type === 'memory.attested')).toHaveLength(2)
  })

  it('answers keys deferred to the next indexed_lc write before it is made, and writes them with it', async () => {
    const location = join(nodePaths(home).index, 'journal')
    const state = await JournalState.open(location)
    const index = state.idempotency()
    state.deferKeys([{ idempotency_key: 'memory.reduced:red_a', event_id: 'evt_a' }])
    expect(await index.lookup(['memory.reduced:red_a', 'other'])).toEqual(new Map([['memory.reduced:red_a', 'evt_a']]))
    await state.setIndexedLc(7)
    await state.close()

    const reopened = await JournalState.open(location)
    try {
      expect(await reopened.idempotency().lookup(['memory.reduced:red_a'])).toEqual(new Map([['memory.reduced:red_a', 'evt_a']]))
      expect(await reopened.indexedLc()).toBe(7)
    } finally {
      await reopened.close()
    }
  })

  it('reduces nothing again for a witness request (no view depends on it): no view line, no memory.reduced event', async () => {
    const node = await LocalNode.open({ home, clock: () => CLOCK })
    const memory = createMemory(alice)
    await node.ingest([memory.signed])
    const before = await viewFiles(home)
    const linesBefore = node.journal.events.stats().lines
    const reduce = vi.spyOn(ViewReducer.prototype, 'reduce')
    try {
      await node.ingest([createWitnessRequest(alice, memory.id, witnesses).signed])
      expect(reduce).not.toHaveBeenCalled()
    } finally {
      reduce.mockRestore()
    }
    // One line: the request's own event; the stats count every ledger line this run wrote.
    expect(node.journal.events.stats().lines - linesBefore).toBe(1)
    await node.close()
    expect(await viewFiles(home)).toEqual(before)
    expect((await ledgerEvents(home)).filter((e) => e.type === 'memory.reduced')).toHaveLength(1)
  })

  it('writes the same views for a sync page stored at once as for its records stored one by one', async () => {
    const records: StoredRecord[] = []
    for (let m = 0; m < 12; m++) {
      const memory = createMemory(alice, { type: m % 3 === 0 ? 'decision' : 'fact', tags: [`m${m}`] })
      records.push(memory)
      for (const w of witnesses.slice(0, 1 + (m % 3))) records.push(createAttestation(w, memory.id, m % 5 === 0 ? 'dispute' : 'confirm'))
    }
    const bulkHome = join(home, 'bulk')
    const singleHome = join(home, 'single')
    await initHome(bulkHome)
    await initHome(singleHome)

    const bulk = await LocalNode.open({ home: bulkHome, clock: () => CLOCK })
    await bulk.ingest(records.map((r) => r.signed), 'sync')
    await bulk.close()
    const single = await LocalNode.open({ home: singleHome, clock: () => CLOCK })
    for (const record of records) await single.ingest([record.signed], 'sync')
    await single.close()

    const bulkViews = newestById(await viewFiles(bulkHome))
    const singleViews = newestById(await viewFiles(singleHome))
    expect(bulkViews.size).toBe(12 + 12) // an object and an attachment per memory
    expect(bulkViews).toEqual(singleViews)
  })
})
