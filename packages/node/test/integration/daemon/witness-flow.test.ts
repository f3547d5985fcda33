import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHttpOperations, type HttpOperations } from '../../../src/api-access/client.js'
import { readApiToken } from '../../../src/api-access/index.js'
import { startDaemon, type Daemon } from '../../../src/daemon/index.js'
import { initHome } from '../../../src/node/index.js'
import { nodePaths } from '../../../src/home/index.js'
import type { TrustResult } from '../../../src/schema/index.js'
import { eventually } from '../../fixtures/eventually.js'

interface Peer {
  home: string
  daemon: Daemon
  ops: HttpOperations
  agent: string
}

const LOOPBACK = ['/ip4/127.0.0.1/tcp/0', '/ip4/127.0.0.1/tcp/0/ws']

async function startPeer (name: string, bootstrap: string[]): Promise<Peer> {
  const home = await mkdtemp(join(tmpdir(), `isnad-daemon-${name}-`))
  const { defaultKey } = await initHome(home)
  const daemon = await startDaemon({ home, listen: LOOPBACK, bootstrap, heartbeatMs: 60_000 })
  const ops = createHttpOperations({ url: daemon.url, token: await readApiToken(nodePaths(home).data) })
  return { home, daemon, ops, agent: defaultKey.did }
}

/** Every event line of a home's streams/ and bus/ shards. */
async function ledgerLines (home: string): Promise<Array<Record<string, unknown>>> {
  const data = nodePaths(home).data
  const files = (await readdir(data, { recursive: true, encoding: 'utf8' })).filter((f) => /^(streams|bus)\/.*\.jsonl$/.test(f))
  const texts = await Promise.all(files.map(async (f) => await readFile(join(data, f), 'utf8')))
  return texts.flatMap((t) => t.trim().split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as Record<string, unknown>))
}

describe('five isnad daemons on loopback', () => {
  const peers: Peer[] = []

  beforeAll(async () => {
    const first = await startPeer('a', [])
    peers.push(first)
    const bootstrap = [first.daemon.multiaddrs()[0]!]
    for (const name of ['b', 'c', 'd']) peers.push(await startPeer(name, bootstrap))
    await eventually('every node connected to A', async () => (await first.ops.call('peers', {})).peers, (list) => list.length >= 3)
  }, 60_000)

  afterAll(async () => {
    for (const peer of peers) {
      await peer.daemon.stop()
      await rm(peer.home, { recursive: true, force: true })
    }
  })

  it('gossips a memory to every node, brings witnesses back, raises trust through the levels, and lets a late node sync', async () => {
    const [a, b, c, d] = peers as [Peer, Peer, Peer, Peer]
    const memory = await a.ops.call('remember', { type: 'observation', summary: 'five nodes agree', tags: ['e2e'] })
    // The default policy (isnad-reputation): A's own agent is a root (0.2 + 0.2 × 1), but nobody has
    // witnessed the memory yet, so the evidence holds it at Unverified.
    expect(memory.trust as TrustResult).toMatchObject({ score: 0.2999, points: 0.4, level: 'Unverified' })
    for (const peer of [b, c, d]) {
      await eventually(`the memory at ${peer.agent}`, async () => await peer.ops.call('show', { id: memory.id }), (view) => view.id === memory.id)
    }

    const request = await a.ops.call('requestWitnesses', { id: memory.id, to: [b.agent, c.agent, d.agent] })
    const levels: string[] = []
    for (const witness of [b, c, d]) {
      const inbox = await eventually(`the request in ${witness.agent}'s inbox`, async () => (await witness.ops.call('inbox', {})).items, (items) => items.some((i) => i.request === request.id))
      expect(inbox.find((i) => i.request === request.id)).toMatchObject({ memory: memory.id, requester: a.agent, to: [witness.agent], summary: 'five nodes agree' })
      await witness.ops.call('attest', { id: memory.id, verdict: 'confirm', notes: 'seen on my node' })
      const count = levels.length + 1
      const trust = await eventually(`A counting ${count} confirms`, async () => await a.ops.call('explainTrust', { id: memory.id }), (t) => t.factors.confirm_count === count)
      levels.push(`${trust.points}:${trust.score}:${trust.level}`)
      expect((await witness.ops.call('inbox', {})).items).toEqual([])
    }
    // B, C and D are strangers to A: each earns standing only by confirming A's memory and agreeing
    // with the others, shrunk by how little reputable evidence backs it (docs/trust.md §4, the
    // evidence factor). One stranger's confirm alone (reputation 0.4) is below the half a reputable
    // witness that a counted confirm needs; with two the memory is Attested, never Anchored (no anchor):
    // its points pass 0.6, its score is held at the top of Attested.
    expect(levels).toEqual(['0.48:0.2999:Unverified', '0.6071:0.5999:Attested', '0.65:0.5999:Attested'])

    const late = await startPeer('e', [a.daemon.multiaddrs()[0]!])
    peers.push(late)
    const synced = await eventually('the late node to sync', async () => await late.ops.call('explainTrust', { id: memory.id }), (t) => t.factors.confirm_count === 3)
    // E's only root is its own agent, which no trust path joins to A, B, C or D: too little to judge.
    expect(synced).toMatchObject({ score: 0.2, level: 'Unverified', insufficient: { code: 'NO_PATH' } })

    // A's history says what it put on the network (spec §5 memory.published), read straight from its JSONL.
    const lines = await ledgerLines(a.home)
    const published = lines.filter((e) => e.type === 'memory.published').map((e) => (e.payload as { id: string }).id)
    expect(published).toEqual(expect.arrayContaining([memory.id, request.id]))
    // The three attestations came by gossip, journaled in packs (docs/ledger-packs.md) whose source says so.
    const gossiped = lines.filter((e) => e.type === 'memory.packed' && (e.payload as { source: string }).source === 'gossip')
    expect(gossiped.flatMap((e) => (e.payload as { records: string[] }).records)).toHaveLength(3)
  }, 120_000)

  it('refuses HTTP requests without the token', async () => {
    const response = await fetch(`${peers[0]!.daemon.url}/v1/status`)
    expect(response.status).toBe(401)
    const wrong = await fetch(`${peers[0]!.daemon.url}/v1/status`, { headers: { authorization: 'Bearer nope' } })
    expect(wrong.status).toBe(401)
  })
})
