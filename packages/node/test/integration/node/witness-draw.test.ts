import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { proveDraw } from '../../../src/draw/index.js'
import { nobleVerifier, nodeCryptoVerifier, verifyDocument } from '../../../src/index.js'
import { createKeystore } from '../../../src/keystore/index.js'
import { readPolicy } from '../../../src/ledger/meta/index.js'
import { DrawnInbox, LocalNode, changeTrustRoot, initHome, reindex, setTrustPolicy } from '../../../src/node/index.js'
import { shardCountFor, shardOf } from '../../../src/shard/index.js'
import { encodeSignature, signRecord } from '../../../src/record/index.js'
import type { AttestationRecord, TrustResult } from '../../../src/schema/index.js'
import { createAgent, createAttestation, createMemory, type TestAgent } from '../../fixtures/records.js'

/*
 * The witness draw at a node, on a real home (LevelDB, ledger): under isnad-draw a drawn witness's
 * confirm makes a memory Attested in what `show` and `explain` give, with the note and the
 * explanation saying it was drawn; an attestation whose draw is not its witness's proof for the
 * memory is refused (DRAW_INVALID) and stores nothing. The policy is set with its former name too.
 */
describe('the witness draw at a node', () => {
  let home: string
  let now = Date.parse('2026-03-01T00:00:00Z')
  const clock = (): number => now

  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'isnad-witness-draw-'))
    await initHome(home)
    now = Date.parse('2026-03-01T00:00:00Z')
  })
  afterEach(async () => { await rm(home, { recursive: true, force: true }) })

  const dataDir = (): string => join(home, '.memory')
  const at = (ms: number): string => new Date(ms).toISOString()

  /** An attestation of `memory` by `witness` carrying its draw at `population`, signed. */
  function drawnAttestation (witness: TestAgent, memory: string, population: number, proofFor = memory): ReturnType<typeof createAttestation> {
    const record: AttestationRecord = {
      kind: 'attestation', version: 1, memory, witness: witness.did, attestation: 'confirm', witnessed_at: at(now),
      draw: { population, proof: encodeSignature(proveDraw(witness.secretKey, proofFor, population).proof) }
    }
    return signRecord(record, witness.secretKey)
  }

  it('sets isnad-draw, by its name or its former one, and reads a stored former name as it', async () => {
    expect(await setTrustPolicy(dataDir(), 'isnad-spot-check')).toBe('isnad-draw')
    expect((await readPolicy(dataDir())).trust_policy).toBe('isnad-draw')
    // A home written before the rename: its policy.json names isnad-spot-check.
    const file = join(dataDir(), '_meta', 'policy.json')
    const text = await readFile(file, 'utf8')
    await writeFile(file, text.replace('"isnad-draw"', '"isnad-spot-check"'))
    expect((await readPolicy(dataDir())).trust_policy).toBe('isnad-draw')
  })

  it('shows and explains a memory Attested by a drawn witness, and refuses a tampered draw with DRAW_INVALID', async () => {
    const root = createAgent(71)
    const author = createAgent(72)
    const witness = createAgent(73)
    await changeTrustRoot(dataDir(), 'added', root.did, now)
    await setTrustPolicy(dataDir(), 'isnad-draw')
    const node = await LocalNode.open({ home, clock })
    try {
      // The root confirms the witness's and the author's memories: both are reputable at this node.
      const byWitness = createMemory(witness, { summary: 'the witness once said this', created_at: at(now) })
      const byAuthor = createMemory(author, { summary: 'the author once said this', created_at: at(now) })
      await node.ingest([byWitness.signed, byAuthor.signed])
      now += 60_000
      await node.ingest([createAttestation(root, byWitness.id, 'confirm', at(now)).signed, createAttestation(root, byAuthor.id, 'confirm', at(now)).signed])
      const estimate = await node.trust.populationEstimate()
      // The graph's agents: the node's own agent (a root without configuration), the added root, the
      // witness and the author.
      expect(estimate).toBe(4)

      const memory = createMemory(author, { summary: 'the deploy took 9 minutes', created_at: at(now) })
      await node.ingest([memory.signed])
      now += 60_000
      // Population 3 < size 5: every witness is drawn; 3 × 2 ≥ 4, so this node accepts the claim.
      const drawn = drawnAttestation(witness, memory.id, 3)
      expect(proveDraw(witness.secretKey, memory.id, 3).drawn).toBe(true)

      // Tampered: the proof of another memory, signed correctly over the record that carries it.
      const tampered = drawnAttestation(witness, memory.id, 3, byWitness.id)
      await expect(node.ingest([tampered.signed])).rejects.toMatchObject({ code: 'DRAW_INVALID' })
      expect(await node.store.get(tampered.id)).toBeNull()

      await node.ingest([drawn.signed])
      const explained = await node.explainTrust(memory.id)
      expect(explained.policy).toBe('isnad-draw')
      expect(explained.level).toBe('Attested')
      expect(explained.counted.attestations.find((a) => a.id === drawn.id)?.note).toMatch(/witness drawn for this memory$/)
      expect(explained.witness_selection).toMatchObject({ population_estimate: 4, drawn: 1, asked: 0 })
      expect(explained.witness_selection?.reason).toMatch(/^1 drawn witness answered \(population estimate 4\)/)
      const shown = await node.show(memory.id)
      expect((shown.trust as TrustResult).level).toBe('Attested')
      // The view carries the draw (record-v1 §7): anyone verifies it offline from the view alone.
      expect(shown.witnesses.find((w) => w.id === drawn.id)?.draw).toEqual(drawn.signed.record.draw)
      for (const verifier of [nodeCryptoVerifier, nobleVerifier]) {
        const report = verifyDocument(JSON.parse(JSON.stringify(shown)), { verifier, now })
        expect(report.valid).toBe(true)
      }
      // What ingest stored (query --min-trust) is what explain gives.
      expect((await node.store.getTrust(memory.id))?.level).toBe('Attested')
    } finally {
      await node.close()
    }
  })

  it('adopts the population its reputable drawn witnesses state when its graph is smaller, and is then not drawn at its own small count', async () => {
    const root = createAgent(77)
    const author = createAgent(78)
    const witnesses = [createAgent(79), createAgent(80), createAgent(81)]
    await changeTrustRoot(dataDir(), 'added', root.did, now)
    await setTrustPolicy(dataDir(), 'isnad-draw')
    const keystore = createKeystore({ directory: join(home, 'keys') })
    const own = await keystore.load((await keystore.list())[0]?.did ?? '')
    let median = 0
    const node = await LocalNode.open({ home, clock })
    try {
      // The root confirms each witness's memory: all three are reputable at this node.
      const known = witnesses.map((w, i) => createMemory(w, { summary: `witness ${i} once said this`, created_at: at(now) }))
      await node.ingest(known.map((m) => m.signed))
      now += 60_000
      await node.ingest(known.map((m) => createAttestation(root, m.id, 'confirm', at(now)).signed))
      const small = await node.populationEstimate()
      // The node's own agent, the root and the three witnesses.
      expect(small).toBe(5)

      // A memory every witness is drawn for at a population well above the node's graph: each states
      // the largest population its draw allows (what a node that knows a larger network states).
      let memory = createMemory(author, { summary: 'the rollout reached every region', created_at: at(now) })
      const largest = (w: TestAgent, id: string): number => {
        const { fraction } = proveDraw(w.secretKey, id, 1)
        let population = Math.min(4294967295, Math.max(1, Math.floor(5 / fraction)))
        while (!proveDraw(w.secretKey, id, population).drawn) population--
        return population
      }
      for (let n = 0; witnesses.some((w) => largest(w, memory.id) < 10); n++) {
        memory = createMemory(author, { summary: `the rollout reached region ${n}`, created_at: at(now) })
      }
      const stated = witnesses.map((w) => largest(w, memory.id))
      median = [...stated].sort((a, b) => a - b)[1] as number
      await node.ingest([memory.signed])
      now += 60_000
      await node.ingest(witnesses.map((w, i) => drawnAttestation(w, memory.id, stated[i] as number).signed))
      expect(await node.populationEstimate()).toBe(median)
      // What scoring reads is the same estimate: the drawn answers count at it.
      const explained = await node.explainTrust(memory.id)
      expect(explained.witness_selection).toMatchObject({ population_estimate: median, drawn: 3 })
      expect((await node.store.getTrust(memory.id))?.level).toBe(explained.level)

      // A memory the node's own agent is drawn for at the small count (every agent is, at 5 ≤ size)
      // but not at the adopted one: its attestation carries no draw.
      let next = createMemory(author, { summary: 'a second rollout', created_at: at(now) })
      for (let n = 0; proveDraw(own.secretKey, next.id, median).drawn; n++) {
        next = createMemory(author, { summary: `a second rollout, attempt ${n}`, created_at: at(now) })
      }
      expect(proveDraw(own.secretKey, next.id, small).drawn).toBe(true)
      await node.ingest([next.signed])
      const attested = await node.attest({ memory: next.id, verdict: 'confirm' }, { did: own.did, secretKey: own.secretKey })
      expect((await node.store.get(attested.attestation))?.signed.record).not.toHaveProperty('draw')
      expect(await node.populationEstimate()).toBe(median)
    } finally {
      await node.close()
    }
    // A rebuild computes the same estimate from the ledger.
    await reindex(home, clock)
    const reopened = await LocalNode.open({ home, clock, mode: 'read' })
    try {
      expect(await reopened.populationEstimate()).toBe(median)
    } finally {
      await reopened.close()
    }
  })

  it('counts a witness this node asked privately, from the request it stored, and says so in the explanation', async () => {
    const root = createAgent(74)
    const author = createAgent(75)
    const asked = createAgent(76)
    let memoryId = ''
    await changeTrustRoot(dataDir(), 'added', root.did, now)
    await setTrustPolicy(dataDir(), 'isnad-draw')
    const node = await LocalNode.open({ home, clock })
    try {
      const byAsked = createMemory(asked, { summary: 'the asked witness once said this', created_at: at(now) })
      const byAuthor = createMemory(author, { summary: 'the author once said that', created_at: at(now) })
      await node.ingest([byAsked.signed, byAuthor.signed])
      now += 60_000
      await node.ingest([createAttestation(root, byAsked.id, 'confirm', at(now)).signed, createAttestation(root, byAuthor.id, 'confirm', at(now)).signed])
      const memory = createMemory(author, { summary: 'the canary ran for 9 minutes', created_at: at(now) })
      await node.ingest([memory.signed])
      node.trust.usePrivateChecks((id) => id === memory.id ? 'asked' : undefined)
      now += 60_000
      // The node's own agent asks the witness (its private check); the witness answers without a draw.
      const keystore = createKeystore({ directory: join(home, 'keys') })
      const own = await keystore.load((await keystore.list())[0]?.did ?? '')
      await node.requestWitnesses({ memory: memory.id, to: [asked.did] }, { did: own.did, secretKey: own.secretKey })
      now += 60_000
      const answer = createAttestation(asked, memory.id, 'confirm', at(now))
      await node.ingest([answer.signed])
      const explained = await node.explainTrust(memory.id)
      expect(explained.level).toBe('Attested')
      expect(explained.counted.attestations.find((a) => a.id === answer.id)?.note).toMatch(/witness asked by this node$/)
      expect(explained.witness_selection).toMatchObject({ drawn: 0, asked: 1, private_check: 'asked' })
      expect(explained.witness_selection?.reason).toMatch(/^no drawn witness answered \(population estimate \d+\); this node made a private check: 1 witness it asked answered$/)
      // Ingest stored the same level (it read the request it had stored).
      expect((await node.store.getTrust(memory.id))?.level).toBe('Attested')
      memoryId = memory.id
    } finally {
      await node.close()
    }
    // A reindex reads the requests from the ledger and stores the same level.
    await reindex(home, clock)
    const reopened = await LocalNode.open({ home, clock, mode: 'read' })
    try {
      expect((await reopened.store.getTrust(memoryId))?.level).toBe('Attested')
    } finally {
      await reopened.close()
    }
  })
  it('an agent not drawn at the daemon draws under the shard count of the daemon, not of its estimate', async () => {
    const count = 4
    const author = createAgent(81)
    let witness = createAgent(82)
    for (let n = 83; shardOf(witness.did, count) !== shardOf(author.did, count); n++) witness = createAgent(n)
    const node = await LocalNode.open({ home, clock })
    try {
      // A small graph: the estimate's own count is 1; the daemon runs with 4 (--shard-count).
      expect(shardCountFor(await node.trust.populationEstimate())).toBe(1)
      node.useDrawnInbox(new DrawnInbox(), () => count)
      const memory = createMemory(author, { summary: 'the cache holds a day', created_at: at(now) })
      await node.ingest([memory.signed])
      now += 60_000
      const { attestation: id } = await node.attest({ memory: memory.id, verdict: 'confirm' }, { did: witness.did, secretKey: witness.secretKey })
      const record = (await node.store.get(id))?.signed.record
      // Population max(1, ⌊N̂ / 4⌋) = 1 is below size 5: the witness is drawn, within 4 shards.
      expect(record?.kind === 'attestation' ? record.draw : undefined).toMatchObject({ shards: count, population: 1 })
    } finally {
      await node.close()
    }
  })
})
