import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHttpOperations, type HttpOperations } from '../../../src/api-access/client.js'
import { readApiToken } from '../../../src/api-access/index.js'
import type { SingleKadDHT } from '@libp2p/kad-dht'
import { startDaemon, type Daemon } from '../../../src/daemon/index.js'
import type { RecordPage } from '../../../src/net/index.js'
import { initHome } from '../../../src/node/index.js'
import { nodePaths } from '../../../src/home/index.js'
import { TrustResultSchema } from '../../../src/schema/index.js'
import { MemoryHost } from '../net/fixtures/memory-host.js'
import { startNode, waitFor, type TestNode } from '../net/fixtures/harness.js'
import { renderView } from '../../../src/operations/index.js'

/*
 * `show` of a memory the node does not hold (content-routing-v1 C7), on real daemons with LevelDB in
 * temp dirs and libp2p on 127.0.0.1. The author's daemon and the reader's daemon are each connected
 * only to a relay node that takes gossip but serves no sync (as a node outside the memory's interests
 * would): the memory is gossiped before the reader joins, so the reader can only learn it by its CID.
 */

const LOOPBACK = ['/ip4/127.0.0.1/tcp/0']

/** A relay that stores what it hears but never lists it to sync: only the DHT can lead to the author. */
class UnlistedHost extends MemoryHost {
  override async recordsSince (cursor: number): Promise<RecordPage> { return { records: [], next: cursor } }
}

describe('show of a memory this node does not hold, through the DHT (content-routing-v1 C7)', () => {
  const homes: string[] = []
  const daemons: Daemon[] = []
  let relay: TestNode<UnlistedHost>
  let author: { daemon: Daemon, ops: HttpOperations }
  let reader: { daemon: Daemon, ops: HttpOperations }

  async function start (): Promise<{ daemon: Daemon, ops: HttpOperations }> {
    const home = await mkdtemp(join(tmpdir(), 'isnad-routing-'))
    homes.push(home)
    await initHome(home)
    const daemon = await startDaemon({ home, listen: LOOPBACK, heartbeatMs: 60_000, apiPort: 0, bootstrap: [relay.network.multiaddrs()[0]!.toString()] })
    daemons.push(daemon)
    return { daemon, ops: createHttpOperations({ url: daemon.url, token: await readApiToken(nodePaths(home).data) }) }
  }

  beforeAll(async () => {
    relay = await startNode('relay', new UnlistedHost(), { syncOnConnect: false, dht: {} })
    author = await start()
    await waitFor('the author connected to the relay', () => relay.network.libp2p.getPeers().length === 1)
  }, 60_000)

  afterAll(async () => {
    for (const d of daemons) await d.stop()
    await relay.network.stop()
    for (const h of homes) await rm(h, { recursive: true, force: true })
  })

  it('finds, fetches, verifies, stores and scores it with its provider\'s evidence, and says it was fetched from outside', async () => {
    const first = await author.ops.call('remember', { type: 'fact', summary: 'the build cache lives on the second volume' })
    // Its evidence at the author's node: a second agent's confirm and the author's request to it.
    const witness = await author.ops.call('createKey', { label: 'witness' })
    await author.ops.call('requestWitnesses', { id: first.id, to: [witness.did] })
    const attested = await author.ops.call('attest', { id: first.id, verdict: 'confirm', as: witness.did })
    // The memory announced by the node that made it; its attestation and request are not (C2): they come as its evidence (C6a).
    await waitFor('the memory announced', () => author.daemon.content.stats.provided >= 1, { timeoutMs: 30_000 })
    await author.daemon.content.settled()
    expect(author.daemon.content.stats).toMatchObject({ provided: 1, failed: 0, dropped: 0 })
    reader = await start()
    await waitFor('the reader connected to the relay', () => relay.network.libp2p.getPeers().length === 2)
    // A lookup starts from the routing table as it is (C5): the relay must be in it first.
    await waitFor('the relay in the reader\'s routing table', () => (reader.daemon.network.libp2p.services.dht as SingleKadDHT).routingTable.size >= 1)

    const view = await reader.ops.call('show', { id: first.id }) // HTTP, as MCP and the library call it

    expect(view.id).toBe(first.id)
    expect(view.content.summary).toBe('the build cache lives on the second volume')
    expect(view.origin).toMatchObject({ kind: 'fetched', from: author.daemon.peerId, providers: [author.daemon.peerId] })
    expect(view.origin?.hops).toBeGreaterThanOrEqual(1)
    expect(view.origin?.reason).toContain('outside what this node follows')
    // The provider's evidence came with it (fetch-v1 §9), and the score weighed it.
    expect(view.origin?.reason).toContain('its provider sent the evidence it holds with it (2 records')
    expect(view.witnesses.map((w) => w.id)).toEqual([attested.attestation])
    const { counted, refused } = TrustResultSchema.parse(view.trust)
    expect([...counted.attestations, ...refused.attestations].map((a) => a.id)).toEqual([attested.attestation])
    expect((await reader.ops.call('exportBundle', { ids: [first.id] })).records.map((r) => r.record.kind).sort()).toEqual(['attestation', 'memory', 'witness_request'])
    expect(TrustResultSchema.parse(view.trust).factors.signature_valid).toBe(true)
    // Stored: the next show reads it from the store, as any memory the node holds.
    const again = await reader.ops.call('show', { id: first.id })
    expect(again.origin).toBeUndefined()
    const [before, after] = [TrustResultSchema.parse(view.trust), TrustResultSchema.parse(again.trust)]
    expect({ score: after.score, level: after.level }).toEqual({ score: before.score, level: before.level })
    // The reader now provides it too.
    await waitFor('the reader announced it', () => reader.daemon.content.stats.provided >= 1, { timeoutMs: 30_000 })

    // `isnad show` prints the view the daemon returns: the origin is a line of its explanation.
    expect(renderView(view, { explain: true })).toMatch(/\n {2}origin {2}fetched by its CID through the DHT from \S+ \(its provider record was \d+ DHT hops? away\)/)
  }, 90_000)

  it('is NOT_FOUND when no node provides it', async () => {
    const failure = await reader.ops.call('show', { id: 'bafyreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy' }).catch((err: unknown) => err)
    expect(failure).toMatchObject({ code: 'NOT_FOUND' })
  }, 30_000)
})
