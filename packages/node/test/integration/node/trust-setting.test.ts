import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createKeystore, type Keystore } from '../../../src/keystore/index.js'
import { delegateKey, revokeKey, type LifecycleContext } from '../../../src/key-events/index.js'
import { readPolicy } from '../../../src/ledger/meta/index.js'
import { LocalNode, initHome, reindex, rescoreStoredTrust, type Signer } from '../../../src/node/index.js'
import { changeTrustRoot, setTrustPolicy } from '../../../src/node/index.js'
import { createAgent, createAttestation, createMemory } from '../../fixtures/records.js'

/*
 * The node's trust setting end to end, on a real home (LevelDB, ledger, keyring): the score stored
 * in the index at ingest (what `query --min-trust` filters and orders by) follows `trust_policy`,
 * a policy change and a reindex rescore what is stored, `isnad init` run again keeps the setting, and witnesses
 * count per identity of the node's keyring.
 */
describe('the node\'s trust setting', () => {
  let home: string
  let now = Date.parse('2026-03-01T00:00:00Z')
  const clock = (): number => now
  let keystore: Keystore
  const signer = async (did: string): Promise<Signer> => {
    const key = await keystore.load(did)
    return { did: key.did, secretKey: key.secretKey }
  }

  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'isnad-trust-setting-'))
    await initHome(home)
    keystore = createKeystore({ directory: join(home, 'keys') })
    now = Date.parse('2026-03-01T00:00:00Z')
  })
  afterEach(async () => { await rm(home, { recursive: true, force: true }) })

  const dataDir = (): string => join(home, '.memory')

  it('sets isnad-draw, which counts witnesses readable from the attestation alone (its former name isnad-spot-check too)', async () => {
    expect(await setTrustPolicy(dataDir(), 'isnad-spot-check')).toBe('isnad-draw')
    expect((await readPolicy(dataDir())).trust_policy).toBe('isnad-draw')
    await expect(setTrustPolicy(dataDir(), 'isnad-none')).rejects.toMatchObject({ code: 'USAGE' })
  })

  it('stores the score of the set policy, rescores on a policy change, and init keeps the setting', async () => {
    const root = createAgent(61)
    const stranger = createAgent(62)
    await changeTrustRoot(dataDir(), 'added', root.did, now)
    await setTrustPolicy(dataDir(), 'isnad-reputation')
    let node = await LocalNode.open({ home, clock })
    let memory: string
    try {
      // A memory by an agent no trust path reaches (the node's own agents are roots too: docs/trust.md §2).
      const stored = createMemory(createAgent(63), { summary: 'the canary takes 9 minutes', created_at: new Date(now).toISOString() })
      await node.ingest([stored.signed])
      memory = stored.id
      now += 60_000
      // A confirm by a key no trust path reaches: worth 0.2 in isnad-v0.1, nothing in isnad-reputation.
      await node.ingest([createAttestation(stranger, memory, 'confirm', new Date(now).toISOString()).signed])
      const shown = await node.explainTrust(memory)
      expect(shown.policy).toBe('isnad-reputation')
      expect(await node.store.getTrust(memory)).toMatchObject({ policy: 'isnad-reputation', score: shown.score })
      const listed = await node.query({ limit: 10, minTrust: shown.score })
      expect(listed.items.map((i) => [i.id, i.trust])).toEqual([[memory, shown.score]])
      expect((await node.query({ limit: 10, minTrust: shown.score + 0.1 })).items).toEqual([])
    } finally {
      await node.close()
    }

    await setTrustPolicy(dataDir(), 'isnad-v0.1')
    node = await LocalNode.open({ home, clock })
    try {
      const before = await node.store.getTrust(memory)
      expect(await rescoreStoredTrust(node.store, now, await node.trust.setting())).toBe(1)
      const explained = await node.explainTrust(memory)
      expect(explained.policy).toBe('isnad-v0.1')
      expect(explained.score).toBeCloseTo((before?.score ?? 0) + 0.2, 10)
      expect(await node.store.getTrust(memory)).toMatchObject({ policy: 'isnad-v0.1', score: explained.score })
      // Run again, it finds nothing to change.
      expect(await rescoreStoredTrust(node.store, now, await node.trust.setting())).toBe(0)
    } finally {
      await node.close()
    }

    // A reindex rebuilds the index from the ledger and scores it under the setting, not the default.
    await setTrustPolicy(dataDir(), 'isnad-reputation')
    await reindex(home, clock)
    node = await LocalNode.open({ home, clock, mode: 'read' })
    try {
      expect(await node.store.getTrust(memory)).toMatchObject({ policy: 'isnad-reputation', score: (await node.explainTrust(memory)).score })
    } finally {
      await node.close()
    }

    await initHome(home)
    expect((await readPolicy(dataDir())).trust_policy).toBe('isnad-reputation')
  })

  it('two device keys of one identity are one witness; the author\'s device key none; a compromised key\'s later attestation is refused', async () => {
    const node = await LocalNode.open({ home, clock })
    try {
      const context = (): LifecycleContext => ({ keyring: node.keyring, keystore, now: () => new Date(now).toISOString() })
      const author = await signer(await keystore.defaultDid() as string)
      const witness = await signer((await keystore.create({ makeDefault: false })).did)
      const laptop = await signer((await delegateKey(context(), witness, { label: 'laptop' })).key)
      const phone = await signer((await delegateKey(context(), witness, { label: 'phone' })).key)
      const authorPhone = await signer((await delegateKey(context(), author, { label: 'phone' })).key)
      const other = await signer((await keystore.create({ makeDefault: false })).did)
      const device = await signer((await delegateKey(context(), other, { label: 'device' })).key)
      now += 1000
      const memory = (await node.remember({ type: 'fact', summary: 'deploys freeze on fridays' }, author)).id
      now += 1000
      await node.attest({ memory, verdict: 'confirm' }, laptop)
      now += 1000
      await node.attest({ memory, verdict: 'confirm' }, phone)
      await node.attest({ memory, verdict: 'confirm' }, authorPhone)
      now += 60_000
      const stolen = (await node.attest({ memory, verdict: 'confirm' }, device)).attestation
      let trust = await node.explainTrust(memory)
      expect(trust.factors.witness_count).toBe(2) // the identity `witness` and `other`
      expect(trust.refused.attestations.map((r) => r.code).sort()).toEqual(['SELF_ATTESTATION', 'SUPERSEDED_BY_NEWER'])
      expect((await node.store.getTrust(memory))?.score).toBe(trust.score)

      // The revocation arrives after the attestation was stored: compromised since before it.
      now += 1000
      await revokeKey(context(), other, { key: device.did, compromisedSince: new Date(now - 30_000).toISOString(), reason: 'leaked' })
      trust = await node.explainTrust(memory)
      expect(trust.factors.witness_count).toBe(1)
      expect(trust.refused.attestations.find((r) => r.id === stolen)).toMatchObject({ code: 'KEY_NOT_VALID' })
    } finally {
      await node.close()
    }
  })
})
