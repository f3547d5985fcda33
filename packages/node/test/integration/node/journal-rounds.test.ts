import { mkdtemp, readFile, readdir, rm, writeFile, mkdir } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openEventLedger } from '../../../src/ledger/index.js'
import { LocalNode, initHome, type Signer } from '../../../src/node/index.js'
import { nodePaths } from '../../../src/home/index.js'
import { createAgent, createAttestation, createMemory } from '../../fixtures/records.js'

const alice = createAgent(30)
const witnesses = [31, 32, 33, 34, 35].map(createAgent)
const signer = (a: { did: string, secretKey: Uint8Array }): Signer => ({ did: a.did, secretKey: a.secretKey })

async function viewLines (home: string, kind: string): Promise<Array<Record<string, unknown>>> {
  const shard = join(nodePaths(home).data, 'views', kind, 'default')
  const lines: Array<Record<string, unknown>> = []
  for (const file of await readdir(shard)) {
    lines.push(...(await readFile(join(shard, file), 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>))
  }
  return lines
}

describe('the journal\'s view rounds', () => {
  let home: string
  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'isnad-journal-rounds-'))
    await initHome(home)
  })
  afterEach(async () => { await rm(home, { recursive: true, force: true }) })

  it('stores made concurrently each return with their views written, and the newest object counts every attestation', async () => {
    const node = await LocalNode.open({ home })
    const memory = await node.remember({ type: 'decision', summary: 'rounds', tags: ['key:rounds'] }, signer(alice))
    const attested = await Promise.all(witnesses.map(async (w) => {
      const attestation = await node.attest({ memory: memory.id, verdict: 'confirm' }, signer(w))
      // This call's views are written when it returns: the newest object counts its attestation.
      const refs = (await viewLines(home, 'decisions')).at(-1)?.event_refs as string[]
      expect(refs.length).toBeGreaterThan(1)
      return attestation
    }))
    await node.close()
    const newest = (await viewLines(home, 'decisions')).at(-1)
    expect(newest?.event_refs).toHaveLength(1 + attested.length)
    const attachment = (await viewLines(home, 'attach')).at(-1)
    expect(attachment?.id).toBe(newest?.evidence_ref)
    expect(Object.keys(attachment?.attestations as Record<string, string>).sort()).toEqual(attested.map((a) => a.attestation).sort())
  })

  it('keeps indexed_lc below records whose views are not written, even when a listener journals meanwhile; reopening replays them', async () => {
    // The decisions shard cannot be created: every view write of a decision fails.
    const blocked = join(nodePaths(home).data, 'views', 'decisions', 'default')
    await mkdir(join(blocked, '..'), { recursive: true })
    await writeFile(blocked, 'not a directory')
    const node = await LocalNode.open({ home })
    const published: Array<Promise<void>> = []
    node.pipeline.onStored((records) => {
      // As the daemon's publisher does: the listener hears of records before their views are written.
      published.push(node.journal.recordPublished(records.map(({ id }) => ({ id, topic: 'test', peers: 0 }))))
    })
    await expect(node.remember({ type: 'decision', summary: 'blocked view', tags: [] }, signer(alice))).rejects.toThrow()
    await Promise.all(published)
    expect(published).toHaveLength(1)
    let capturedLc = 0
    for await (const event of node.journal.events.readEvents()) if (event.type === 'memory.packed') capturedLc = event.lc
    expect(capturedLc).toBeGreaterThan(0)
    expect(await node.journal.state.indexedLc()).toBeLessThan(capturedLc)
    await node.close()

    await rm(blocked)
    const reopened = await LocalNode.open({ home })
    await reopened.close()
    expect((await viewLines(home, 'decisions')).map((l) => l.summary)).toEqual(['blocked view'])
    const ledger = await openEventLedger({ dataDir: nodePaths(home).data, scope: 'default' })
    const types: string[] = []
    for await (const event of ledger.readEvents(capturedLc)) types.push(event.type)
    await ledger.close()
    expect(types).toContain('memory.reconciled')
    expect(types).toContain('memory.reduced')
  })

  it('reduces a memory once per round however many sync pages bring its attestations, and names the round\'s reductions in one event', async () => {
    const node = await LocalNode.open({ home })
    const memories = [0, 1, 2].map((n) => createMemory(alice, { type: 'decision', summary: `paged ${n}`, tags: [`key:paged-${n}`] }))
    // As the disk bench and a sync of a foreign log do: the memories, then each witness's attestations in a page of their own.
    const pages = [memories, ...witnesses.slice(0, 3).map((w) => memories.map((m) => createAttestation(w, m.id)))]
    for (const page of pages) await node.ingest(page.map((r) => r.signed), 'sync')
    let lastPacked = 0
    for await (const event of node.journal.events.readEvents()) if (event.type === 'memory.packed') lastPacked = event.lc
    // Views nobody waited for: the batches stay below indexed_lc until their round is written.
    await node.journal.views.settled()
    expect(await node.journal.state.indexedLc()).toBeGreaterThanOrEqual(lastPacked)
    await node.close()

    const reducers = (await readFile(join(nodePaths(home).data, 'coordination', 'reducers.jsonl'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>)
    expect(reducers, 'one reducer line for the round').toHaveLength(1)
    expect(reducers[0]?.schema_version).toBe('isnad-reduction-v3')
    const named = Object.values(reducers[0]?.reductions as Record<string, Record<string, string>>).flatMap((objects) => Object.values(objects))
    expect(named, 'one reduction per memory').toHaveLength(memories.length)
    const newest = await viewLines(home, 'decisions')
    expect(newest.map((l) => (l.event_refs as string[]).length)).toEqual([4, 4, 4])
    const ledger = await openEventLedger({ dataDir: nodePaths(home).data, scope: 'default' })
    const reduced: Array<{ reductions: unknown, causes: number }> = []
    for await (const event of ledger.readEvents()) if (event.type === 'memory.reduced') reduced.push({ reductions: event.payload.reductions, causes: event.causal_refs.length })
    await ledger.close()
    expect(reduced).toEqual([{ reductions: named, causes: pages.length }])
  })
})
