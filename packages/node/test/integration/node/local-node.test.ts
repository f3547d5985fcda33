import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { IsnadError, nobleVerifier, nodeCryptoVerifier, verifyDocument, type TrustResult } from '../../../src/index.js'
import { LocalNode, initHome } from '../../../src/node/index.js'
import { createMemoryRecordStore } from '../../../src/record-index/index.js'
import { createAgent, createAnchor, createAttestation, createMemory } from '../../fixtures/records.js'

const NOW = Date.parse('2026-02-06T00:00:00Z')
const alice = createAgent(10)
const bob = createAgent(11)
const carol = createAgent(12)

const stores = [
  { name: 'LevelDB', store: () => undefined },
  { name: 'in-memory', store: () => createMemoryRecordStore() }
]

describe.each(stores)('LocalNode on the $name store', ({ store }) => {
  let home: string
  let node: LocalNode
  let tick: number

  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'isnad-node-'))
    await initHome(home)
    tick = NOW
    const custom = store()
    node = await LocalNode.open({ home, clock: () => (tick += 1000), ...(custom === undefined ? {} : { store: custom }) })
    // These tests are about ingest, lineage, views and paging: scored under the schema's algorithm,
    // which needs no reputation (a new node's default, isnad-reputation, is tested in trust-setting).
    await node.trust.setPolicy('isnad-v0.1')
  })

  afterEach(async () => {
    await node.close()
    await rm(home, { recursive: true, force: true })
  })

  it('keeps evidence that arrives before its memory and scores it when the memory comes', async () => {
    const memory = createMemory(alice)
    await node.ingest([createAttestation(bob, memory.id).signed])
    expect((await node.store.count()).attestation).toBe(1)
    expect(await node.store.getTrust(memory.id)).toBeNull()
    const result = await node.ingest([memory.signed])
    expect(result.rescored).toEqual([memory.id])
    // 0.2 signature + 0.2 confirm + 0.2 × 0: alice is unknown to the node's roots (its own agents).
    expect(await node.store.getTrust(memory.id)).toMatchObject({ score: 0.4, level: 'Attested' })
  })

  it('refuses a whole batch when one record is bad, naming its position, and stores nothing', async () => {
    const memory = createMemory(alice)
    const attestation = createAttestation(bob, memory.id)
    const forged = { ...attestation.signed, record: { ...attestation.signed.record, attestation: 'dispute' } }
    const error = await node.ingest([memory.signed, forged]).catch((err: unknown) => err)
    expect(error).toBeInstanceOf(IsnadError)
    expect((error as IsnadError).code).toBe('SIGNATURE_INVALID')
    expect((error as IsnadError).details).toMatchObject({ index: 1 })
    expect(await node.store.count()).toEqual({ memory: 0, attestation: 0, anchor: 0, witness_request: 0 })
  })

  it('follows lineage: superseded_by is the author\'s newest correction, chain_depth counts hops', async () => {
    const signer = { did: alice.did, secretKey: alice.secretKey }
    const first = await node.remember({ type: 'fact', summary: 'the API is at v1' }, signer)
    const second = await node.remember({ type: 'correction', summary: 'the API is at v2', supersedes: first.id }, signer)
    await node.remember({ type: 'correction', summary: 'no, v3', supersedes: first.id }, { did: carol.did, secretKey: carol.secretKey })
    const third = await node.remember({ type: 'correction', summary: 'the API is at v2.1', supersedes: second.id }, signer)
    expect((await node.show(first.id)).lineage).toMatchObject({ superseded_by: second.id, chain_depth: 0 })
    expect((await node.show(second.id)).lineage).toMatchObject({ supersedes: first.id, superseded_by: third.id, chain_depth: 1 })
    expect((await node.show(third.id)).lineage).toMatchObject({ superseded_by: null, chain_depth: 2 })
  })

  it('prints views that verify offline with both verifiers and recompute to the same trust', async () => {
    const memory = createMemory(alice, { tags: ['x'] })
    await node.ingest([memory.signed, createAttestation(bob, memory.id).signed, createAttestation(carol, memory.id, 'partial').signed])
    const view = await node.show(memory.id)
    for (const verifier of [nodeCryptoVerifier, nobleVerifier]) {
      const report = verifyDocument(JSON.parse(JSON.stringify(view)), { verifier, now: NOW })
      expect(report.valid, verifier.name).toBe(true)
      expect(report.records).toHaveLength(3)
      // Offline there are no roots: the schema's algorithm with its default reputation 0.5 gives
      // 0.2 + 0.2 + 0.1 = 0.5; the node, whose roots (its own agents) do not reach alice, gives 0.4.
      expect(report.trust?.score, verifier.name).toBe(0.5)
      expect((view.trust as TrustResult).score).toBe(0.4)
    }
  })

  it('checks anchors at read time and does not count one that is not verified (anchors-v1 §5)', async () => {
    const memory = createMemory(alice)
    // Bob's key is not in this home, so his url anchor is checked under the public-only address
    // policy: a loopback URL is refused without any request (anchors-v1 §9), hence unverifiable.
    const anchor = createAnchor(bob, memory.id, 'http://127.0.0.1:9/evidence')
    await node.ingest([memory.signed, anchor.signed])
    const view = await node.show(memory.id)
    expect(view.anchors.map((a) => a.verification.state)).toEqual(['unverifiable'])
    expect(view.anchors[0]?.verification.reason).toMatch(/^ADDRESS_REFUSED:/)
    const trust = view.trust as TrustResult
    expect(trust.factors.anchor_count).toBe(0)
    expect(trust.refused.anchors.map((a) => a.code)).toEqual(['ANCHOR_NOT_VERIFIED'])
  })

  it('queries with the indexed trust and pages without gaps', async () => {
    const memories = Array.from({ length: 7 }, (_, i) => createMemory(alice, { tags: ['paged'], created_at: `2026-02-05T1${i}:00:00Z` }))
    await node.ingest(memories.map((m) => m.signed))
    await node.ingest([createAttestation(bob, memories[3]!.id).signed])
    const seen: string[] = []
    let cursor: string | undefined
    do {
      const page = await node.query({ tags: ['paged'], limit: 3, ...(cursor === undefined ? {} : { cursor }) })
      seen.push(...page.items.map((i) => i.id))
      cursor = page.next
    } while (cursor !== undefined)
    expect(seen[0]).toBe(memories[3]!.id)
    expect(new Set(seen).size).toBe(7)
  })
})
