import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHttpOperations, type HttpOperations } from '../../../src/api-access/client.js'
import { readApiToken } from '../../../src/api-access/index.js'
import { startDaemon, type Daemon } from '../../../src/daemon/index.js'
import { initHome } from '../../../src/node/index.js'
import { nodePaths } from '../../../src/home/index.js'
import type { TrustLevel } from '../../../src/schema/index.js'
import { ensureBuilt } from '../../fixtures/build-dist.js'
import { eventually } from '../../fixtures/eventually.js'
import { checkedExplanation, expectTrustOrder } from '../cli/checked-explanation.js'

/*
 * The README's two-node flow (Alice remembers, Bob confirms from his own node, Alice explains) and
 * its three-node extension (Carol confirms too; every node explains), on real daemons over libp2p on
 * 127.0.0.1: every explanation each node prints (`isnad trust explain`, through the daemon's API) is
 * true of its fields, roots and reputations (test/fixtures/explanation-checker.ts), and each node's
 * query over HTTP keeps to the one scale, `minLevel` included.
 */

interface Peer { home: string, daemon: Daemon, ops: HttpOperations, agent: string, token: string }

const LOOPBACK = ['/ip4/127.0.0.1/tcp/0']

async function startPeer (name: string, bootstrap: string[]): Promise<Peer> {
  const home = await mkdtemp(join(tmpdir(), `isnad-scale-${name}-`))
  const { defaultKey } = await initHome(home)
  const daemon = await startDaemon({ home, listen: LOOPBACK, bootstrap, heartbeatMs: 60_000 })
  const token = await readApiToken(nodePaths(home).data)
  return { home, daemon, ops: createHttpOperations({ url: daemon.url, token }), agent: defaultKey.did, token }
}

async function queryOver (peer: Peer, params: string): Promise<Array<{ id: string, trust: number, level: TrustLevel }>> {
  const res = await fetch(`${peer.daemon.url}/v1/memories?${params}`, { headers: { authorization: `Bearer ${peer.token}` } })
  expect(res.status).toBe(200)
  return ((await res.json()) as { items: Array<{ id: string, trust: number, level: TrustLevel }> }).items
}

describe('the README flows on real nodes explain themselves truthfully', () => {
  const peers: Peer[] = []

  beforeAll(async () => {
    ensureBuilt()
    const alice = await startPeer('alice', [])
    peers.push(alice)
    for (const name of ['bob', 'carol']) peers.push(await startPeer(name, [alice.daemon.multiaddrs()[0]!]))
    await eventually('bob and carol connected to alice', async () => (await alice.ops.call('peers', {})).peers, (list) => list.length >= 2)
  }, 180_000)

  afterAll(async () => {
    for (const peer of peers) {
      await peer.daemon.stop()
      await rm(peer.home, { recursive: true, force: true })
    }
  })

  it('two nodes, then three: every explanation on every node is true of its fields', async () => {
    const [alice, bob, carol] = peers as [Peer, Peer, Peer]
    const memory = await alice.ops.call('remember', { type: 'observation', summary: 'gossip works', tags: ['flow'] })
    const lone = await alice.ops.call('remember', { type: 'observation', summary: 'nobody saw this', tags: ['flow'] })
    for (const peer of [bob, carol]) await eventually(`the memory at ${peer.agent}`, async () => await peer.ops.call('show', { id: memory.id }), (v) => v.id === memory.id)
    await checkedExplanation(alice.home, memory.id)

    // Two nodes: Bob confirms from his node; Alice's explanation arrives by gossip.
    await bob.ops.call('attest', { id: memory.id, verdict: 'confirm' })
    await eventually('alice counts bob', async () => await alice.ops.call('explainTrust', { id: memory.id }), (t) => t.factors.confirm_count === 1)
    const two = await checkedExplanation(alice.home, memory.id)
    expect(two.reputation.roots).toEqual([{ did: alice.agent, source: 'own-agent' }])
    await checkedExplanation(bob.home, memory.id)

    // Three nodes: Carol confirms as well; each node explains from its own roots.
    await carol.ops.call('attest', { id: memory.id, verdict: 'confirm' })
    for (const peer of [alice, bob, carol]) {
      await eventually(`${peer.agent} counts two confirms`, async () => await peer.ops.call('explainTrust', { id: memory.id }), (t) => t.factors.confirm_count === 2)
      const explained = await checkedExplanation(peer.home, memory.id)
      expect(explained.reputation.roots).toEqual([{ did: peer.agent, source: 'own-agent' }])
    }

    // Each node's order keeps levels together, and its level bound is its score bound.
    for (const peer of [alice, bob, carol]) {
      const items = await queryOver(peer, 'tags=flow')
      expect(items.map((i) => i.id).sort()).toEqual([memory.id, lone.id].sort())
      expectTrustOrder(items)
      const attested = await queryOver(peer, 'tags=flow&minLevel=Attested')
      expect(attested.every((i) => i.level !== 'Unverified')).toBe(true)
      expect((await queryOver(peer, 'tags=flow&minTrust=0.3')).map((i) => i.id)).toEqual(attested.map((i) => i.id))
    }
    expect((await queryOver(alice, 'tags=flow&minLevel=Attested')).map((i) => i.id)).toEqual([memory.id])
  }, 240_000)
})
