import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LocalNode, initHome } from '../../../src/node/index.js'
import { createAgent } from '../../fixtures/records.js'
import { connect, startNode, stopAll, waitFor, waitForMesh, type TestNode } from './fixtures/harness.js'
import { LocalNodeHost } from './fixtures/local-node-host.js'

/*
 * sync-v1 between two real nodes (LocalNode: LevelDB, ledger, Merkle log) over libp2p on loopback:
 * B starts after A stored memories and attestations, catches up from its cursor for A in pages,
 * and a second sync transfers nothing; then only what is new.
 */

const MEMORIES = 30
const PAGE = 8

async function openNode (home: string): Promise<LocalNodeHost> {
  await initHome(home)
  return new LocalNodeHost(await LocalNode.open({ home }))
}

async function rememberWithAttestation (host: LocalNodeHost, k: number): Promise<void> {
  const view = await host.node.remember({ type: 'fact', summary: `fact ${k}`, tags: ['sync'] }, createAgent(20))
  await host.node.attest({ memory: view.id, verdict: 'confirm' }, createAgent(21 + (k % 3)))
}

describe('a node that joins late catches up by sync (sync-v1)', () => {
  let dir: string
  const nodes: Array<TestNode<LocalNodeHost>> = []

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'isnad-net-sync-'))
  })

  afterAll(async () => {
    await stopAll(nodes)
    for (const n of nodes) await n.host.node.close()
    await rm(dir, { recursive: true, force: true })
  })

  it('syncs from the saved cursor, page by page; a second sync transfers nothing new', async () => {
    const hostA = await openNode(join(dir, 'a'))
    for (let k = 0; k < MEMORIES; k++) await rememberWithAttestation(hostA, k)
    const a = await startNode('A', hostA, { syncPageSize: PAGE })
    nodes.push(a)

    const b = await startNode('B', await openNode(join(dir, 'b')), { syncPageSize: PAGE })
    nodes.push(b)
    await connect(b, a, 'ws') // sync runs on connect (once identify says A speaks sync-v1)
    const total = 2 * MEMORIES
    const peerA = a.network.peerId.toString()
    await waitFor('B caught up with A', async () => await b.host.count() === total && b.host.cursors.get(peerA) === total)
    expect(b.network.stats.accepted.sync).toBe(total)
    expect(b.network.stats.verifications).toBe(total) // one verification per record on the network path
    const trust = await b.host.node.explainTrust((await b.host.node.query({})).items[0]!.id)
    // The attestations arrived with their memories (B's roots do not reach A's agents, so under the
    // default policy they weigh nothing here: counted, not weighted).
    expect(trust.factors.confirm_count).toBeGreaterThan(0)

    const again = await b.network.sync(a.network.peerId)
    expect(again).toMatchObject({ from: total, to: total, received: 0, accepted: 0, pages: 1 })

    for (let k = MEMORIES; k < MEMORIES + 3; k++) await rememberWithAttestation(hostA, k)
    const more = await b.network.sync(a.network.peerId)
    expect(more).toMatchObject({ from: total, to: total + 6, received: 6, accepted: 6 })
    expect(await b.host.count()).toBe(total + 6)
  })

  it('gossips A\'s signed checkpoint, which B keeps', async () => {
    const [a, b] = nodes as [TestNode<LocalNodeHost>, TestNode<LocalNodeHost>]
    await waitForMesh([[a, b]])
    const checkpoint = await a.host.node.journal.checkpoint()
    expect(checkpoint).not.toBeNull()
    await a.network.publishCheckpoint(checkpoint!)
    await waitFor('B keeps the checkpoint', () => b.host.checkpoints.length === 1)
    expect(b.host.checkpoints[0]!.signed).toEqual(checkpoint)
  })
})
