import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Keystore } from '../../../src/keystore/index.js'
import { rotateKey } from '../../../src/key-events/index.js'
import { TOPICS } from '../../../src/net/index.js'
import type { LocalNode, Signer } from '../../../src/node/index.js'
import { encodeSignedRecord, signRecord } from '../../../src/record/index.js'
import { memoryBy } from './fixtures.js'
import { startKeyGossipPair, type KeyGossipPair } from './two-nodes.js'
import { waitFor, type TestNode } from '../net/fixtures/harness.js'
import type { LocalNodeHost } from '../net/fixtures/local-node-host.js'

/** Two LocalNodes on loopback: A rotates its key, B learns it by gossip (gossip-v1 §9). */
describe('key logs on the network (record-v1 §13, gossip-v1 §9)', () => {
  let pair: KeyGossipPair
  let locals: [LocalNode, LocalNode]
  let a: TestNode<LocalNodeHost>
  let b: TestNode<LocalNodeHost>
  let keystore: Keystore
  let k0: Signer

  beforeAll(async () => {
    pair = await startKeyGossipPair('isnad-keygossip')
    ;({ locals, a, b, k0 } = pair)
    keystore = pair.keystoreA
  })

  afterAll(async () => {
    await pair.stop()
  })

  it('B learns A\'s rotation, then ignores what the old key signs after it, without penalising A', async () => {
    const nodeA = locals[0] as LocalNode
    const nodeB = locals[1] as LocalNode
    const rotation = Date.now()
    const result = await rotateKey({ keyring: nodeA.keyring, keystore, now: () => new Date(rotation).toISOString() }, k0)
    await a.network.publishKeyLog(nodeA.keyring.logOf(k0.did) ?? { events: [] })
    await waitFor('B has the rotation', () => nodeB.keyring.stateOf(k0.did)?.currentKey === result.key)

    const before = signRecord(memoryBy(k0.did, new Date(rotation - 60_000).toISOString(), 'signed before the rotation'), k0.secretKey)
    const after = signRecord(memoryBy(k0.did, new Date(rotation + 1000).toISOString(), 'signed with the retired key'), k0.secretKey)
    await a.network.publishRaw(TOPICS.memories, encodeSignedRecord(after.signed))
    await a.network.publishRaw(TOPICS.memories, encodeSignedRecord(before.signed))
    await waitFor('B stores the memory signed before the rotation', async () => (await nodeB.store.get(before.id)) !== null)
    expect(await nodeB.store.get(after.id)).toBeNull()
    expect(b.network.stats.gossip.ignored).toBeGreaterThanOrEqual(1)
    expect(b.network.stats.gossip.rejected).toBe(0)
    expect(b.network.peerScore(a.network.peerId)).toBeGreaterThanOrEqual(0)
  })
})
