import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { buildPack, openEventLedger, writePackFile } from '../../../src/ledger/index.js'
import { LocalNode, reindex } from '../../../src/node/index.js'
import { nodePaths } from '../../../src/home/index.js'
import { JournalState } from '../../../src/node/journal/journal-state.js'
import { encodeCanonical } from '../../../src/record/index.js'
import { recordsOfEvent } from '../../../src/node/journal/record-events.js'
import { auditHome } from './audit-home.js'
import { createAgent, createAttestation, createMemory } from '../../fixtures/records.js'

/*
 * A node home written by the build of 40f8ecc, the ledger layout before ledger packs
 * (test/fixtures/home-40f8ecc: its `.memory/` without the derived index; make-fixture.mjs says how it
 * was made): 7 memories (one superseding another), 3 attestations, a witness request and a signed
 * checkpoint. Opened by today's code, every record comes back through the ingest pipeline's recovery,
 * queries answer, and `ledger verify` (with the index check) calls it healthy. This is the fixture a
 * migration of the layout is to be tested on.
 */

const carol = createAgent(72) // seed 32 × 73
const FIXTURE = join(import.meta.dirname, '../../fixtures/home-40f8ecc/memory')

describe('a home of the layout before ledger packs (fixture written by 40f8ecc)', () => {
  let home: string
  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'isnad-layout-fixture-'))
    await cp(FIXTURE, nodePaths(home).data, { recursive: true })
  })
  afterEach(async () => { await rm(home, { recursive: true, force: true }) })

  it('opens, recovers every record through the pipeline, answers queries, and verifies healthy', async () => {
    const node = await LocalNode.open({ home })
    try {
      expect(await node.store.count()).toEqual({ memory: 7, attestation: 3, anchor: 0, witness_request: 1 })
      expect(node.journal.merkle.size).toBe(11)
      const tagged = await node.query({ tags: ['fixture'] })
      expect(tagged.items).toHaveLength(7)
      const confirmed = tagged.items.find((item) => item.summary === 'fixture memory 0')
      if (confirmed === undefined) throw new Error('fixture memory 0 is missing')
      const view = await node.show(confirmed.id)
      expect(view.witnesses).toHaveLength(2)
      // The request addressed to carol (seed 73 × 32, make-fixture.mjs) waits in her inbox.
      expect((await node.inbox([carol.did])).map((item) => item.to)).toEqual([[carol.did]])
    } finally {
      await node.close()
    }
    const report = await auditHome(home)
    expect(report.findings.map((f) => `${f.kind}: ${f.message}`)).toEqual([])
    expect(report.status).toBe('healthy')
  })

  /*
   * The migration (docs/ledger-packs.md): none is needed. The per-record events of
   * the old layout are read as they are, forever, beside the `memory.packed` events new batches
   * get, by every reader (recovery, reindex, ledger verify); the Merkle log runs on across both.
   */
  it('keeps its per-record events and journals new batches as packs after them; verify, reindex and the Merkle log agree', async () => {
    const alice = createAgent(80)
    const bob = createAgent(81)
    const memories = Array.from({ length: 50 }, (_, i) => createMemory(alice, { tags: ['after'], summary: `after the upgrade ${i}`, body: 'x'.repeat(12_000) }))
    const node = await LocalNode.open({ home })
    try {
      await node.ingest(memories.map((m) => m.signed), 'sync') // 600 kB: a pack file (above PACK_INLINE_MAX_BYTES)
      await node.ingest([createAttestation(bob, memories[0]!.id).signed], 'gossip') // a pack inside its event
      await node.journal.checkpoint()
    } finally {
      await node.close()
    }
    const ledger = await openEventLedger({ dataDir: nodePaths(home).data, scope: 'default' })
    const types: string[] = []
    const ids: string[] = []
    const reducedForms = new Set<string>()
    for await (const event of ledger.readEvents()) {
      types.push(event.type)
      if (event.type === 'memory.reduced') reducedForms.add('reductions' in event.payload ? 'per round' : 'per object')
      for (const record of await recordsOfEvent(event, nodePaths(home).data)) ids.push(record.id)
    }
    await ledger.close()
    expect(types).toContain('memory.captured')
    // The views' record in both forms, side by side (docs/views.md): the old home's per-object events
    // and v1 reducer lines, then a round's event and its round line (v3); verify below checks both.
    expect(reducedForms).toEqual(new Set(['per object', 'per round']))
    const reducerLines = (await readFile(join(nodePaths(home).data, 'coordination', 'reducers.jsonl'), 'utf8')).trim().split('\n')
    expect(new Set(reducerLines.map((l) => (JSON.parse(l) as { schema_version: string }).schema_version))).toEqual(new Set(['isnad-reduction-v1', 'isnad-reduction-v3']))
    // Attachments too: the fixture's full lines (isnad-attach-v1) stay, new evidence gets compact ones.
    expect(await attachForms(home)).toEqual(new Set(['isnad-attach-v1', 'isnad-attach-v2']))
    expect(types.filter((t) => t === 'memory.packed')).toHaveLength(2)
    expect(ids).toHaveLength(11 + 51)
    expect(await readdir(join(nodePaths(home).data, 'packs', 'default'))).toHaveLength(1)
    const logBefore = await leaves(home)
    expect(logBefore).toEqual(ids)

    const healthy = await auditHome(home)
    expect(healthy.findings.map((f) => `${f.kind}: ${f.message}`)).toEqual([])
    expect(healthy.logs[0]).toMatchObject({ size: 62 })

    await rm(nodePaths(home).index, { recursive: true, force: true })
    expect(await reindex(home)).toMatchObject({ records: 62, memories: 57 })
    expect(await leaves(home)).toEqual(logBefore)
    expect((await auditHome(home)).status).toBe('healthy')

    // A pack file lost: `ledger verify` names the event whose pack is gone (its leaves still counted).
    const [pack] = await readdir(join(nodePaths(home).data, 'packs', 'default'))
    await rm(join(nodePaths(home).data, 'packs', 'default', pack as string))
    const lost = await auditHome(home)
    expect(lost.findings.filter((f) => f.kind === 'pack_invalid').map((f) => f.message)).toEqual([expect.stringMatching(/^event evt_\S+: LEDGER_CORRUPT: pack \S+ is missing/)])
    expect(lost.logs[0]).toMatchObject({ size: 62 })
    expect(lost.status).toBe('corrupt')
  })

  it('ignores a pack no event names (a crash between the pack file and its event) and removes an interrupted pack write', async () => {
    const orphan = buildPack([encodeCanonical(createMemory(createAgent(82)).signed)])
    await writePackFile(nodePaths(home).data, 'default', orphan)
    const leftover = join(nodePaths(home).data, 'packs', 'default', `.${orphan.cid}.0123456789ab.tmp`)
    await writeFile(leftover, orphan.car.subarray(0, 10))
    const node = await LocalNode.open({ home })
    await node.close()
    expect(await readdir(join(nodePaths(home).data, 'packs', 'default'))).toEqual([`${orphan.cid}.car`])
    const report = await auditHome(home)
    expect(report.findings.map((f) => `${f.kind}: ${f.message}`)).toEqual([])
    expect(report.status).toBe('healthy')
  })
})

/** The schema versions of the lines under views/attach/, every scope and month. */
async function attachForms (home: string): Promise<Set<string>> {
  const forms = new Set<string>()
  const root = join(nodePaths(home).data, 'views', 'attach')
  for (const scope of await readdir(root)) {
    for (const month of await readdir(join(root, scope))) {
      for (const line of (await readFile(join(root, scope, month), 'utf8')).trim().split('\n')) {
        forms.add((JSON.parse(line) as { schema_version: string }).schema_version)
      }
    }
  }
  return forms
}

/** The Merkle log's leaves, in order, as the index holds them. */
async function leaves (home: string): Promise<string[]> {
  const state = await JournalState.open(join(nodePaths(home).index, 'journal'))
  try {
    return (await state.recordsSince(0, 10_000)).ids
  } finally {
    await state.close()
  }
}
