import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { gatherEvidence, scoreEvidence, type ScoredEvidence } from '../../../src/node/trust/memory-evidence.js'
import { ViewReducer } from '../../../src/node/journal/object-view-reducer.js'
import type { StoredRecord } from '../../../src/record-index/index.js'
import { salienceOf } from '../../../src/ledger/object-views/index.js'
import { createAgent, createAnchor, createAttestation, createMemory } from '../../fixtures/records.js'
import { recoveryOf, useStoreHome, viewFiles } from './view-fixtures.js'

/*
 * What ViewReducer writes for a sequence of store calls, byte for byte: view lines, reducer lines
 * and `memory.reduced` events are on disk and in the ledger, so a faster reducer must write the
 * same. The pages cover what the reducer reads from the store: a correction stored before what it
 * corrects, a correction by another author, anchors, evidence that arrived before its memory, and
 * evidence given by ingest (scored) as well as read from the store. The golden digest changes only
 * when what a view line says changes by design (last: the attachments' trust score held within its
 * level's band, docs/trust.md "One scale"; the object lines' digest unchanged).
 */

const alice = createAgent(80)
const bob = createAgent(81)
const carol = createAgent(82)
const NOW = Date.parse('2026-02-06T12:00:00Z')

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

describe('ViewReducer: what a sequence of store calls writes', () => {
  const env = useStoreHome('view-reducer')

  it('writes the golden lines and events, with successors, corrections and scored evidence', async () => {
    const { home, store } = env
    const reducer = new ViewReducer(home, 'default', {}, recoveryOf(home, NOW))
    const events: unknown[] = []
    for (const { records, scored } of PAGES) {
      await store.putMany(records)
      const evidence = new Map<string, ScoredEvidence>()
      for (const id of scored) {
        const memory = await store.getMemory(id)
        if (memory === null) continue
        const gathered = await gatherEvidence(store, memory)
        evidence.set(id, { ...gathered, trust: scoreEvidence(gathered, NOW, {}), turn: 1 })
      }
      events.push(await reducer.reduce(store, ViewReducer.touchedBy(records), NOW, evidence))
    }
    await reducer.close()
    // Each file as its path, a newline, then its text.
    const files = (await viewFiles(home)).map(({ file, text }) => `${file}\n${text}`)
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
    // The object lines alone: the compact reducer lines, round events and attachments changed only
    // coordination/reducers.jsonl, the events and views/attach/.
    const objectFiles = files.filter((f) => f.startsWith('views/') && !f.startsWith('views/attach/'))
    expect(createHash('sha256').update(JSON.stringify(objectFiles)).digest('hex')).toBe(OBJECT_LINES_DIGEST)
    // One memory.reduced event per round (here per page), naming every reduction of the round.
    expect(events.map((round) => (round as Array<{ payload: { reductions: string[] } }>).map((e) => e.payload.reductions.length))).toEqual([[2], [2], [4], [2]])
    // The round lines (one per round with a new state) name exactly the new states the events name.
    const reducerFile = files.find((f) => f.startsWith('coordination/reducers.jsonl')) ?? ''
    const rounds = reducerFile.split('\n').slice(1, -1).map((line) => JSON.parse(line) as { reductions: Record<string, Record<string, string>> })
    const recorded = rounds.flatMap((r) => Object.values(r.reductions).flatMap((objects) => Object.values(objects)))
    const named = (events as Array<Array<{ payload: { reductions: string[] } }>>).flatMap((round) => round.flatMap((e) => e.payload.reductions))
    expect(new Set(recorded)).toEqual(new Set(named))
    expect(rounds.length).toBeLessThanOrEqual(PAGES.length)
    const digest = createHash('sha256').update(JSON.stringify({ files, events })).digest('hex')
    expect(digest).toBe(GOLDEN_DIGEST)
  })

  it('scores under the trust setting it is given (the node\'s, as ingest stores it): salience = confidence × (0.5 + 0.5 × score)', async () => {
    const { home, store } = env
    const memory = createMemory(alice, { type: 'fact', summary: 'scored under the node setting' })
    const records = [memory, createAttestation(bob, memory.id), createAttestation(carol, memory.id)]
    await store.putMany(records)
    const setting = { policy: 'isnad-reputation' as const, reputation: (did: string) => (did === alice.did ? 1 : 0.1) }
    const evidence = await gatherEvidence(store, memory)
    const reducer = new ViewReducer(home, 'default', {}, recoveryOf(home, NOW))
    await reducer.reduce(store, [memory.id], NOW, new Map(), setting)
    await reducer.close()
    const facts = (await viewFiles(home)).filter(({ file }) => file.startsWith('views/facts/'))
    const object = facts.flatMap(({ text }) => text.trim().split('\n')).map((line) => JSON.parse(line) as { source: string, salience: number })
      .find((o) => o.source === memory.id)
    const { score } = scoreEvidence(evidence, NOW, setting)
    expect(score, 'the setting changes the score').not.toBe(scoreEvidence(evidence, NOW, {}).score)
    expect(object?.salience).toBe(salienceOf(memory.signed.record.context.confidence, score))
  })
})

describe('ViewReducer takes the trust ingest stored', () => {
  const env = useStoreHome('view-reducer-stored-trust')

  it('carries a scored memory\'s stored trust as it is, without scoring it again under the setting it is given', async () => {
    const { home, store } = env
    const memory = createMemory(alice, { type: 'fact', summary: 'scored by ingest before the table moved' })
    const records = [memory, createAttestation(bob, memory.id), createAttestation(carol, memory.id)]
    await store.putMany(records)
    const evidence = await gatherEvidence(store, memory)
    // What ingest stored (under the table of its batch) and what the setting of the round would give now differ.
    const stored = scoreEvidence(evidence, NOW, { policy: 'isnad-reputation', reputation: () => 0.1 })
    const now = { policy: 'isnad-reputation' as const, reputation: () => 1 }
    expect(scoreEvidence(evidence, NOW, now).score).not.toBe(stored.score)
    const reducer = new ViewReducer(home, 'default', {}, recoveryOf(home, NOW))
    await reducer.reduce(store, [memory.id], NOW, new Map([[memory.id, { ...evidence, trust: stored, turn: 7 }]]), now)
    await reducer.close()
    const files = await viewFiles(home)
    const object = files.filter(({ file }) => file.startsWith('views/facts/')).flatMap(({ text }) => text.trim().split('\n'))
      .map((line) => JSON.parse(line) as { source: string, salience: number }).find((o) => o.source === memory.id)
    expect(object?.salience).toBe(salienceOf(memory.signed.record.context.confidence, stored.score))
    const attachments = files.filter(({ file }) => file.startsWith('views/attach/')).flatMap(({ text }) => text.trim().split('\n'))
      .map((line) => JSON.parse(line) as { trust?: { score: number, level: string } })
    expect(attachments).toHaveLength(1)
    expect(attachments[0]?.trust).toMatchObject({ score: stored.score, level: stored.level })
  })
})

const GOLDEN_DIGEST = 'dd44a7a9e0cec0f3089f5658f6e92dfbec8acf04fc1765b0170a81b51f658b50'
const OBJECT_LINES_DIGEST = 'c51341df7ae1ef27529d2e14da5946491c9478ce86310896676fb85e2b45b8c3'
