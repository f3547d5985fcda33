import { appendFile, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createAuthority, createMemoryVerifier, createRecordMemoryStore } from '../../../src/fdr/index.js'
import { nodeCryptoVerifier } from '../../../src/fast-crypto/index.js'
import { LocalNode, TRUST_ROOTS_FILE, initHome, selectOnNode } from '../../../src/node/index.js'
import { codeOfAsync } from '../../fixtures/error-code.js'
import { createAgent, createAttestation, createMemory } from '../../fixtures/records.js'

/*
 * The FDR layer on a real node (LevelDB, ledger, Merkle log in a temp dir): trust roots persisted in
 * the data directory, reputation-aware trust, select() with evidence an Authority accepts, a
 * memory.selected trace in the ledger for every selection (M-2), and a superseded memory giving way
 * to its successor.
 */

const NOW = Date.parse('2026-02-06T00:00:00Z')

const alice = createAgent(20) // the operator's trust root
const bob = createAgent(21) // endorsed by alice
const mallory = createAgent(22) // and her Sybils: no path from alice
const sybils = [createAgent(23), createAgent(24), createAgent(25), createAgent(26)]

describe('FDR layer on a node', () => {
  let home: string
  let node: LocalNode
  const reopen = async (): Promise<void> => {
    await node.close()
    node = await LocalNode.open({ home, clock: () => NOW })
  }

  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'isnad-fdr-'))
    await initHome(home)
    node = await LocalNode.open({ home, clock: () => NOW })
  })

  afterEach(async () => {
    await node.close()
    await rm(home, { recursive: true, force: true })
  })

  /** bob's memory confirmed by alice; mallory's confirmed by her four Sybils, which also confirm each other. */
  async function populate (): Promise<{ honest: string, sybil: string }> {
    const honest = createMemory(bob, { summary: 'deploys need a green canary', tags: ['ops'] })
    const sybil = createMemory(mallory, { summary: 'deploys never need a canary', tags: ['ops'] })
    const ring = sybils.map((s) => createMemory(s, { tags: ['ring'] }))
    await node.ingest([
      honest.signed, sybil.signed, ...ring.map((m) => m.signed),
      createAttestation(alice, honest.id).signed,
      ...sybils.map((s) => createAttestation(s, sybil.id).signed),
      ...sybils.map((s, i) => createAttestation(s, ring[(i + 1) % ring.length]!.id).signed)
    ])
    return { honest: honest.id, sybil: sybil.id }
  }

  it('keeps trust roots in the data directory and computes reputation from them', async () => {
    await populate()
    // No operator roots yet: the node's own agents are its only roots, not the unrooted 0.5.
    const ownRootsOnly = (await node.trust.describe(bob.did)).reputation
    await node.trust.reputation.addTrustRoot(alice.did)
    expect(await codeOfAsync(async () => await node.trust.reputation.addTrustRoot(alice.did))).toBe('ALREADY_EXISTS')
    await reopen()
    expect((await node.trust.reputation.trustRoots()).filter((r) => r.source === 'added').map((r) => r.did)).toEqual([alice.did])
    const bobRep = await node.trust.describe(bob.did)
    expect(bobRep.reputation).toBeGreaterThan(0)
    expect(bobRep.path).toEqual([alice.did, bob.did])
    for (const s of [mallory, ...sybils]) expect((await node.trust.describe(s.did)).reputation).toBe(0)
    // Records stored later update the graph without a reload.
    const late = createMemory(mallory, { tags: ['ops'] })
    await node.ingest([late.signed, createAttestation(bob, late.id).signed])
    expect((await node.trust.describe(mallory.did)).path).toEqual([alice.did, bob.did, mallory.did])
    await node.trust.reputation.removeTrustRoot(alice.did)
    expect(await codeOfAsync(async () => await node.trust.reputation.removeTrustRoot(alice.did))).toBe('NOT_FOUND')
    expect((await node.trust.describe(bob.did)).reputation).toBe(ownRootsOnly)
  })

  it('a corrupt roots file is refused, never read as fewer roots', async () => {
    await node.trust.reputation.addTrustRoot(alice.did)
    await appendFile(join(home, '.memory', TRUST_ROOTS_FILE), '{"kind":"removed","did":"' + alice.did + '","ts":"2026-02-06T00:00:00Z","hash":"sha256:' + '0'.repeat(64) + '"}\n')
    await reopen()
    expect(await codeOfAsync(async () => await node.trust.reputation.trustRoots())).toBe('LEDGER_CORRUPT')
  })

  it('scores under the node\'s policy setting: the Sybils\' confirms weigh nothing under isnad-reputation', async () => {
    const { honest, sybil } = await populate()
    await node.trust.reputation.addTrustRoot(alice.did)
    await node.trust.setPolicy('isnad-v0.1') // a new node's default is isnad-reputation
    await reopen()
    expect((await node.explainTrust(sybil)).score).toBe(0.5) // isnad-v0.1 counts heads: 0.2 + 0.3 + 0.2 × rep 0
    await node.trust.setPolicy('isnad-reputation')
    await reopen()
    const sybilTrust = await node.explainTrust(sybil)
    expect(sybilTrust.policy).toBe('isnad-reputation')
    expect(sybilTrust.factors.confirm_count).toBe(4)
    expect(sybilTrust.score).toBe(0.2) // the self-reported level: a valid signature, nothing else
    expect((await node.explainTrust(honest)).score).toBeGreaterThan(0.4)
    expect((await node.show(honest)).trust).toMatchObject({ policy: 'isnad-reputation' })
  })

  it('selects with reason, confidence and evidence an Authority accepts, and traces every selection in the ledger', async () => {
    const { honest, sybil } = await populate()
    await node.trust.reputation.addTrustRoot(alice.did)
    await node.trust.setPolicy('isnad-reputation')
    const lastLc = node.journal.events.lastLc
    const { selected, trace } = await selectOnNode(node, { selector: alice.did, tags: ['ops'], query: 'deploys canary' })
    expect(selected.map((s) => s.ref.worldId)).toEqual([honest, sybil])
    expect(selected[0]?.confidence).toBeGreaterThan(selected[1]!.confidence)
    for (const s of selected) {
      expect(s.verified).toBe(true)
      expect(s.evidence).toMatchObject({ method: 'isnad-ed25519', verifiedAt: NOW, verifiedBy: alice.did })
      expect(s.reason).toMatch(/evidence, not truth/)
    }
    const authority = createAuthority({ verifier: createMemoryVerifier({ signatures: nodeCryptoVerifier }) })
    expect(authority.check(JSON.parse(JSON.stringify(selected))).accepted).toBe(true)
    expect(authority.check(trace).accepted).toBe(true)

    const events = []
    for await (const event of node.journal.events.readEvents(lastLc + 1)) events.push(event)
    const traced = events.filter((e) => e.type === 'memory.selected')
    expect(traced).toHaveLength(1)
    expect(traced[0]).toMatchObject({ actor: alice.did, payload: { selector: alice.did, atWorldId: trace.atWorldId, selectedAt: NOW } })
    const entry = (traced[0]?.payload.selected as Array<{ evidence: { proof_sha256: string } }>)[0]
    expect(entry?.evidence.proof_sha256).toMatch(/^[0-9a-f]{64}$/)
    // A second, identical selection at the same instant is a second trace, not a duplicate.
    await selectOnNode(node, { selector: alice.did, tags: ['ops'], query: 'deploys canary' })
    const after = []
    for await (const event of node.journal.events.readEvents(lastLc + 1)) if (event.type === 'memory.selected') after.push(event)
    expect(after).toHaveLength(2)
  })

  it('a superseded memory gives way to its successor; merkle-inclusion evidence verifies offline', async () => {
    const first = createMemory(bob, { summary: 'the canary takes 5 minutes', tags: ['canary'] })
    const second = createMemory(bob, { summary: 'the canary takes 9 minutes', tags: ['canary'], supersedes: first.id, created_at: '2026-02-05T17:00:00Z' })
    const byOther = createMemory(mallory, { summary: 'the canary takes 1 minute', tags: ['canary'], supersedes: first.id, created_at: '2026-02-05T18:00:00Z' })
    await node.ingest([first.signed, second.signed, byOther.signed])
    const { selected } = await selectOnNode(node, { selector: bob.did, tags: ['canary'], method: 'merkle-inclusion' })
    const ids = selected.map((s) => s.ref.worldId)
    expect(ids).toContain(second.id) // the author's own correction stands in for the original
    expect(ids).not.toContain(first.id)
    expect(ids).toContain(byOther.id) // another author's "correction" is only a memory of its own
    const authority = createAuthority({ verifier: createMemoryVerifier({ signatures: nodeCryptoVerifier }), acceptedMethods: ['merkle-inclusion'] })
    expect(authority.check(JSON.parse(JSON.stringify(selected))).accepted).toBe(true)
  })

  it('the Store (M-5) returns a world with its evidence, and null for what it does not hold', async () => {
    const { honest } = await populate()
    const store = createRecordMemoryStore({ store: node.store, successorOf: async () => null })
    const world = await store.get(honest)
    expect([world?.id, world?.attestations.length, await store.exists(honest)]).toEqual([honest, 1, true])
    expect([await store.get('not-a-memory'), await store.exists('bafyreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy')]).toEqual([null, false])
  })

  it('refuses to select without a ledger to trace into', async () => {
    await node.close()
    node = await LocalNode.open({ home, clock: () => NOW, mode: 'read' })
    expect(await codeOfAsync(async () => await selectOnNode(node, { selector: alice.did }))).toBe('USAGE')
  })
})
