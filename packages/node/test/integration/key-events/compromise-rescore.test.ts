import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createKeystore, type Keystore } from '../../../src/keystore/index.js'
import { rotateKey } from '../../../src/key-events/index.js'
import { TOPICS } from '../../../src/net/index.js'
import { LocalNode, initHome, reindex, rescoreStoredTrust, type Signer } from '../../../src/node/index.js'
import { encodeSignedRecord, signRecord } from '../../../src/record/index.js'
import { memoryBy } from './fixtures.js'
import { startKeyGossipPair, type KeyGossipPair } from './two-nodes.js'
import { waitFor, type TestNode } from '../net/fixtures/harness.js'
import type { LocalNodeHost } from '../net/fixtures/local-node-host.js'

/*
 * A key compromise across two nodes on loopback (docs/trust.md §1a): B stores a memory signed by
 * A's key and its own agent confirms it (Attested). A then declares the key compromised since
 * before the memory was signed; the key log reaches B by gossip, and B's stored score — what
 * `query --min-trust` filters on — drops at once, with `trust explain` saying why. A reindex keeps it so.
 */
describe('a declared compromise reaches records already stored', () => {
  let pair: KeyGossipPair
  let homes: [string, string]
  let locals: [LocalNode, LocalNode]
  let a: TestNode<LocalNodeHost>
  let keystoreA: Keystore
  let k0: Signer

  beforeAll(async () => {
    pair = await startKeyGossipPair('isnad-compromise')
    ;({ homes, locals, a, k0 } = pair)
    keystoreA = pair.keystoreA
  })

  afterAll(async () => {
    await pair.stop()
  })

  it('B rescores the stored memory when A\'s compromise arrives by gossip, and explains why', async () => {
    const nodeA = locals[0] as LocalNode
    const nodeB = locals[1] as LocalNode
    const signedAt = Date.now() - 60_000
    const stolen = signRecord(memoryBy(k0.did, new Date(signedAt).toISOString(), 'the API token is at attacker.example'), k0.secretKey)
    await a.network.publishRaw(TOPICS.memories, encodeSignedRecord(stolen.signed))
    await waitFor('B stores the memory', async () => (await nodeB.store.get(stolen.id)) !== null)

    // B's own agent (a root of B without configuration) confirms it: Attested at B.
    const keystoreB = createKeystore({ directory: join(homes[1] as string, 'keys') })
    const witness = await keystoreB.load(await keystoreB.defaultDid() as string)
    await nodeB.attest({ memory: stolen.id, verdict: 'confirm' }, { did: witness.did, secretKey: witness.secretKey })
    // Stored scores at ingest may use a reputation table up to a minute old: bring them current, so
    // the only change below is the key event's.
    await rescoreStoredTrust(nodeB.store, Date.now(), await nodeB.trust.setting())
    const before = await nodeB.store.getTrust(stolen.id)
    expect(before?.level).toBe('Attested')
    expect((await nodeB.store.query({ minTrust: before?.score ?? 1 })).items.map((i) => i.id)).toContain(stolen.id)

    // A declares the key compromised since before the memory was signed, and gossips its key log.
    const declared = Date.now()
    const rotated = await rotateKey({ keyring: nodeA.keyring, keystore: keystoreA, now: () => new Date(declared).toISOString() }, k0, {
      compromisedSince: new Date(signedAt - 30_000).toISOString()
    })
    await a.network.publishKeyLog(nodeA.keyring.logOf(k0.did) ?? { events: [] })
    await waitFor('B has the compromise', () => nodeB.keyring.stateOf(k0.did)?.currentKey === rotated.key)
    await waitFor('B rescored its stored score', async () => (await nodeB.store.getTrust(stolen.id))?.level === 'Unverified')
    await nodeB.keyEventsSettled()

    const after = await nodeB.store.getTrust(stolen.id)
    const explained = await nodeB.explainTrust(stolen.id)
    expect(after?.level).toBe('Unverified')
    expect(after?.score).toBe(explained.score)
    // The signature's 0.2 is gone; nothing else changed.
    expect(after?.score).toBeCloseTo((before?.score ?? 0) - 0.2, 9)
    expect((await nodeB.store.query({ minTrust: before?.score ?? 1 })).items.map((i) => i.id)).not.toContain(stolen.id)
    const signature = explained.contributions.find((c) => c.factor === 'author_signature')
    expect(signature?.points).toBe(0)
    expect(signature?.reason).toMatch(/could not sign at the memory's created_at/)
    expect(explained.level_basis?.reason).toMatch(/the author's key could not sign at created_at/)
    // The witness's confirm is still counted as a record, but attests nothing for a forged authorship.
    expect(explained.counted.attestations.map((x) => x.witness)).toEqual([witness.did])
  })
})

describe('a compromise declared locally reaches stored records, and survives a reindex', () => {
  it('rescores at once, and `ledger reindex` scores the same', async () => {
    const home = await mkdtemp(join(tmpdir(), 'isnad-compromise-local-'))
    try {
      await initHome(home)
      let node = await LocalNode.open({ home })
      const keystore = createKeystore({ directory: join(home, 'keys') })
      const key = await keystore.load(await keystore.defaultDid() as string)
      const signer: Signer = { did: key.did, secretKey: key.secretKey }
      const witness = await keystore.create({ makeDefault: false })
      const signedAt = Date.now() - 60_000
      const stolen = signRecord(memoryBy(signer.did, new Date(signedAt).toISOString(), 'signed by the thief'), signer.secretKey)
      await node.ingest([stolen.signed])
      await node.attest({ memory: stolen.id, verdict: 'confirm' }, { did: witness.did, secretKey: (await keystore.load(witness.did)).secretKey })
      await rescoreStoredTrust(node.store, Date.now(), await node.trust.setting())
      const before = await node.store.getTrust(stolen.id)
      expect(before?.level).toBe('Attested')

      await rotateKey({ keyring: node.keyring, keystore, now: () => new Date().toISOString() }, signer, { compromisedSince: new Date(signedAt - 30_000).toISOString() })
      await node.keyEventsSettled()
      const after = await node.store.getTrust(stolen.id)
      expect(after?.level).toBe('Unverified')
      expect(after?.score).toBe((await node.explainTrust(stolen.id)).score)
      await node.close()

      await reindex(home)
      node = await LocalNode.open({ home })
      try {
        const reindexed = await node.store.getTrust(stolen.id)
        expect(reindexed?.level).toBe('Unverified')
        expect(reindexed?.score).toBe(after?.score)
      } finally {
        await node.close()
      }
    } finally {
      await rm(home, { recursive: true, force: true })
    }
  })
})
