import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Level } from 'level'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { nodeCryptoVerifier, verifyDocument } from '../../../src/index.js'
import { openEventLedger, writePackFile } from '../../../src/ledger/index.js'
import { LocalNode, initHome, proveRecord, reindex, setTrustPolicy, type Signer } from '../../../src/node/index.js'
import { nodePaths } from '../../../src/home/index.js'
import { JournalState } from '../../../src/node/journal/journal-state.js'
import { batchEventsOf, recordEventId, recordEventOf } from '../../../src/node/journal/record-events.js'
import { auditHome } from './audit-home.js'
import { createAgent, createAttestation, createMemory } from '../../fixtures/records.js'
import { createLevelRecordStore } from '../../../src/record-index/index.js'

const alice = createAgent(20)
const bob = createAgent(21)
const carol = createAgent(22)
const signer = (a: { did: string, secretKey: Uint8Array }): Signer => ({ did: a.did, secretKey: a.secretKey })

async function eventTypes (home: string): Promise<string[]> {
  const ledger = await openEventLedger({ dataDir: nodePaths(home).data, scope: 'default' })
  try {
    const types: string[] = []
    for await (const event of ledger.readEvents()) types.push(event.type)
    return types
  } finally {
    await ledger.close()
  }
}

/** The node's records in log order, read in pages the way a syncing peer reads them. */
async function logOrder (home: string): Promise<string[]> {
  const state = await JournalState.open(join(nodePaths(home).index, 'journal'))
  try {
    const ids: string[] = []
    let cursor = 0
    for (;;) {
      const page = await state.recordsSince(cursor, 7)
      if (page.ids.length === 0) return ids
      ids.push(...page.ids)
      cursor = page.next
    }
  } finally {
    await state.close()
  }
}

async function queries (home: string): Promise<unknown> {
  const node = await LocalNode.open({ home, mode: 'read' })
  try {
    const shapes = [{}, { tags: ['t1'] }, { tags: ['t2'], minTrust: 0.5 }, { author: alice.did }, { type: 'decision' as const }, { limit: 3 }]
    return await Promise.all(shapes.map(async (q) => (await node.query(q)).items.map((i) => [i.id, i.trust, i.level])))
  } finally {
    await node.close()
  }
}

describe('the journal', () => {
  let home: string
  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'isnad-journal-'))
    await initHome(home)
  })
  afterEach(async () => { await rm(home, { recursive: true, force: true }) })

  it('journals every change as an event before it is indexed, and reduces views an agent can grep', async () => {
    const node = await LocalNode.open({ home })
    const memory = await node.remember({ type: 'decision', summary: 'use LevelDB for the index', tags: ['key:index-store'] }, signer(alice))
    await node.attest({ memory: memory.id, verdict: 'confirm' }, signer(bob))
    await node.close()
    expect(await eventTypes(home)).toEqual([
      // one memory.packed per batch (docs/ledger-packs.md): here the memory, then the attestation
      'memory.instance.started', 'memory.packed', 'memory.reduced', 'memory.packed', 'memory.reduced',
      'memory.checkpointed', 'memory.instance.stopped'
    ])
    const shard = join(nodePaths(home).data, 'views/decisions/default')
    const lines = (await readFile(join(shard, (await readdir(shard))[0]!), 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>)
    expect(lines.at(-1)).toMatchObject({ type: 'decision', summary: 'use LevelDB for the index', decision_key: 'index-store', source: memory.id, status: 'active' })
  })

  it('replays events the ledger holds beyond the index (a crash after the durable append)', async () => {
    const memory = createMemory(alice, { tags: ['t1'] })
    const attestation = createAttestation(bob, memory.id)
    const ledger = await openEventLedger({ dataDir: nodePaths(home).data, scope: 'default' })
    await ledger.append([recordEventOf(memory, 'local'), recordEventOf(attestation, 'local')])
    await ledger.close()

    const node = await LocalNode.open({ home })
    // Scored as the node scores (the default isnad-reputation: alice and bob are strangers to this
    // node's roots, 0.2), the same score `explain` gives.
    expect(await node.store.getTrust(memory.id)).toMatchObject({ score: (await node.explainTrust(memory.id)).score })
    expect(node.journal.merkle.size).toBe(2)
    await node.close()
    expect(await eventTypes(home)).toContain('memory.reconciled')
  })

  it('replays packs the ledger names beyond the index (a crash after the journal step), inline and in a file', async () => {
    // What the journal step leaves when the process dies right after it: the packs and their events durable, nothing indexed.
    const big = Array.from({ length: 45 }, (_, i) => createMemory(alice, { tags: ['paged'], body: `${i} ${'p'.repeat(12_000)}` }))
    const small = [createAttestation(bob, big[0]!.id), createAttestation(carol, big[1]!.id)]
    const ledger = await openEventLedger({ dataDir: nodePaths(home).data, scope: 'default' })
    for (const batch of [big, small]) {
      const { inputs, files } = batchEventsOf(batch, 'sync')
      for (const pack of files) await writePackFile(nodePaths(home).data, 'default', pack)
      await ledger.append(inputs)
    }
    await ledger.close()
    expect(await readdir(join(nodePaths(home).data, 'packs', 'default'))).toHaveLength(1) // the big batch; the small one is inline

    const node = await LocalNode.open({ home })
    expect(await node.store.count()).toMatchObject({ memory: 45, attestation: 2 })
    expect(node.journal.merkle.size).toBe(47)
    expect((await node.explainTrust(big[0]!.id)).factors.confirm_count).toBe(1)
    await node.close()
    expect(await logOrder(home)).toEqual([...big, ...small].map((r) => r.id))
    expect(await eventTypes(home)).toContain('memory.reconciled')
    const report = await auditHome(home)
    expect(report.findings.map((f) => `${f.kind}: ${f.message}`)).toEqual([])
  })

  it('recovers through the ingest pipeline: records beyond the index are scored under the node\'s own trust setting', async () => {
    // The node's policy is isnad-reputation (_meta/policy.json); recovery once scored with the defaults.
    await setTrustPolicy(nodePaths(home).data, 'isnad-reputation')
    const memory = createMemory(alice, { tags: ['t1'] })
    const attestation = createAttestation(bob, memory.id)
    const ledger = await openEventLedger({ dataDir: nodePaths(home).data, scope: 'default' })
    await ledger.append([recordEventOf(memory, 'gossip'), recordEventOf(attestation, 'gossip')])
    await ledger.close()

    const node = await LocalNode.open({ home })
    expect(await node.store.getTrust(memory.id)).toMatchObject({ policy: 'isnad-reputation' })
    const { score } = await node.explainTrust(memory.id)
    expect((await node.store.getTrust(memory.id))?.score).toBe(score)
    await node.close()
  })

  it('reduces views from the evidence ingest scored exactly as from the store (evidence in id order)', async () => {
    const memory = createMemory(alice, { type: 'decision', tags: ['key:order'] })
    // Three attestations, ingested newest id first, one batch each: arrival order is not id order.
    const attestations = [bob, carol, createAgent(23)].map((w) => createAttestation(w, memory.id)).sort((a, b) => (a.id < b.id ? 1 : -1))
    const node = await LocalNode.open({ home })
    await node.ingest([memory.signed])
    for (const attestation of attestations) await node.ingest([attestation.signed])
    await node.close()
    const shard = join(nodePaths(home).data, 'views/decisions/default')
    const lines = (await readFile(join(shard, (await readdir(shard))[0]!), 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>)
    const byId = [...attestations].sort((a, b) => (a.id < b.id ? -1 : 1))
    expect(lines.at(-1)?.event_refs).toEqual([memory, ...byId].map((r) => recordEventId('default', r)))
  })

  it('stores a logical event once, also across restarts and re-imports', async () => {
    const memory = createMemory(alice)
    for (let i = 0; i < 2; i++) {
      const node = await LocalNode.open({ home })
      await node.ingest([memory.signed, memory.signed])
      await node.close()
    }
    expect((await eventTypes(home)).filter((t) => t === 'memory.packed')).toHaveLength(1)
  })

  it('reindex rebuilds the index from the ledgers alone and queries answer exactly as before', async () => {
    const node = await LocalNode.open({ home })
    const memories = Array.from({ length: 30 }, (_, i) => createMemory(i % 2 === 0 ? alice : carol, {
      tags: [`t${i % 3}`], type: i % 4 === 0 ? 'decision' : 'fact', created_at: `2026-02-0${1 + (i % 5)}T10:00:${String(i).padStart(2, '0')}Z`
    }))
    await node.ingest(memories.map((m) => m.signed))
    await node.ingest(memories.filter((_, i) => i % 3 === 0).map((m) => createAttestation(bob, m.id, 'confirm').signed))
    await node.ingest([createAttestation(bob, memories[1]!.id, 'dispute').signed])
    await node.close()
    const before = await queries(home)
    const proofBefore = await proveRecord(home, memories[7]!.id)
    const logBefore = await logOrder(home)
    expect(logBefore.slice(0, 30)).toEqual(memories.map((m) => m.id))

    await rm(join(nodePaths(home).index), { recursive: true, force: true })
    const result = await reindex(home)
    expect(result).toMatchObject({ records: 41, memories: 30 })
    expect(await queries(home)).toEqual(before)
    expect(await logOrder(home)).toEqual(logBefore)
    const proofAfter = await proveRecord(home, memories[7]!.id)
    expect(proofAfter.proof).toEqual(proofBefore.proof)
    expect(verifyDocument(proofAfter, { verifier: nodeCryptoVerifier, now: Date.now() }).valid).toBe(true)
    expect(await eventTypes(home)).toContain('memory.reconciled')
  })

  it('rebuilds an index of an older layout from the ledgers when the node opens (the store alone refuses it)', async () => {
    const node = await LocalNode.open({ home })
    const memory = await node.remember({ type: 'fact', summary: 'layouts change', tags: ['t1'] }, signer(alice))
    await node.attest({ memory: memory.id, verdict: 'confirm' }, signer(bob))
    await node.close()
    const before = await queries(home)
    // What the layout before versions left: no format key (and a `trust` sublevel of its own).
    const raw = new Level<string, string>(join(nodePaths(home).index, 'records'))
    await raw.del('!meta!format')
    await raw.put(`!trust!${memory.id}`, '{"score":0.5}')
    await raw.close()
    const outdated = createLevelRecordStore({ location: join(nodePaths(home).index, 'records') })
    await expect(outdated.open()).rejects.toMatchObject({ code: 'INDEX_OUTDATED' })
    const reconciledBefore = (await eventTypes(home)).filter((t) => t === 'memory.reconciled').length
    expect(await queries(home)).toEqual(before) // opening the node rebuilt the index
    expect((await eventTypes(home)).filter((t) => t === 'memory.reconciled')).toHaveLength(reconciledBefore + 1)
  })

  it('puts witness requests in the inbox of the addressed (or, when open, any other) local agent until answered', async () => {
    let now = Date.parse('2026-03-01T00:00:00Z')
    const node = await LocalNode.open({ home, clock: () => now })
    try {
      const memory = await node.remember({ type: 'fact', summary: 'the sky is blue' }, signer(alice))
      const addressed = await node.requestWitnesses({ memory: memory.id, to: [bob.did] }, signer(alice))
      const open = await node.requestWitnesses({ memory: memory.id }, signer(alice))
      const expired = await node.requestWitnesses({ memory: memory.id, to: [carol.did], expiresAt: '2026-03-01T01:00:00Z' }, signer(alice))
      now += 2 * 3600_000
      const agents = [alice.did, bob.did, carol.did]
      const inbox = await node.inbox(agents)
      expect(inbox.map((i) => [i.request, i.to])).toEqual([[addressed.id, [bob.did]], [open.id, []]])
      expect(inbox.map((i) => i.request)).not.toContain(expired.id)
      expect(inbox[0]).toMatchObject({ memory: memory.id, requester: alice.did, type: 'fact', summary: 'the sky is blue' })
      await node.attest({ memory: memory.id, verdict: 'confirm' }, signer(bob))
      // Bob answered: the addressed request leaves; the open one still waits for carol.
      expect((await node.inbox(agents)).map((i) => i.request)).toEqual([open.id])
      await node.attest({ memory: memory.id, verdict: 'dispute' }, signer(carol))
      expect(await node.inbox(agents)).toEqual([])
    } finally {
      await node.close()
    }
  })

  it('refuses a second writer while one holds the data directory', async () => {
    const node = await LocalNode.open({ home })
    try {
      const error = await LocalNode.open({ home }).catch((err: unknown) => err)
      expect(error).toMatchObject({ code: expect.stringMatching(/^(STORE_LOCKED|LEDGER_LOCKED)$/) })
    } finally {
      await node.close()
    }
  })
})
