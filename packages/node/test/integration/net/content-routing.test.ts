import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { SingleKadDHT } from '@libp2p/kad-dht'
import { CID } from 'multiformats/cid'
import { kadLineKeys } from '../../../bench/kad-line.js'
import { decode as decodeDagPb } from '@ipld/dag-pb'
import { createMemoryBlockStore, importUnixfs } from '../../../src/anchor/index.js'
import { routedBlockFetcher } from '../../../src/daemon/content-routing.js'
import { IsnadError } from '../../../src/errors/index.js'
import { ContentRouter } from '../../../src/net/index.js'
import { createAgent, createMemory } from '../../fixtures/records.js'
import { MemoryHost } from './fixtures/memory-host.js'
import { connect, startNode, stopAll, verified, waitFor, type TestNode } from './fixtures/harness.js'

/*
 * content-routing-v1 with real libp2p nodes on 127.0.0.1: twelve nodes in a Kademlia line
 * (bench/kad-line.ts), each dialled only to its neighbours, so the reader at one end starts with a
 * routing table of its neighbour (and what its first self-query adds, at most a node further on) and
 * the holder at the other end is many DHT hops away. Nothing is gossiped or synced: the reader can
 * only learn the memory by its CID, through the DHT.
 */

const LINE = 12

function routingTableSize (node: TestNode<MemoryHost>): number {
  return (node.network.libp2p.services.dht as SingleKadDHT).routingTable.size
}

describe('a memory found by CID through the DHT, twelve nodes in a line (content-routing-v1)', () => {
  const memory = createMemory(createAgent(41))
  let line: Array<TestNode<MemoryHost>> = []
  let routers: ContentRouter[] = []

  beforeAll(async () => {
    const keys = await kadLineKeys(CID.parse(memory.id), LINE)
    line = await Promise.all(keys.map(async (peerKey, i) => await startNode(`N${i}`, new MemoryHost(), { peerKey, syncOnConnect: false, dht: {} })))
    // A line has no second route: every hop is a dial on a CPU shared with other tests, so a lookup
    // gets more than FIND_PROVIDERS_TIMEOUT_MS here (bench/content-routing.ts measures its real time).
    routers = line.map((node) => new ContentRouter(node.network, { lookupTimeoutMs: 30_000 }))
    for (let i = 0; i + 1 < LINE; i++) await connect(line[i]!, line[i + 1]!)
    // The DHT adds a peer to its routing table once identify says it speaks the DHT protocol.
    await waitFor('neighbours in every routing table', () => line.every((node, i) => routingTableSize(node) >= (i === 0 || i === LINE - 1 ? 1 : 2)))
  }, 60_000)

  afterAll(async () => {
    for (const router of routers) router.stop()
    await stopAll(line)
  })

  it('finds the holder ≥ 3 hops away, fetches the memory with fetch-v1 and stores it verified', async () => {
    const reader = line[0]!
    const holder = line[LINE - 1]!
    holder.host.putLocal(verified(memory.signed))
    routers[LINE - 1]!.provide([CID.parse(memory.id)])
    await routers[LINE - 1]!.settled()
    expect(routers[LINE - 1]!.stats).toMatchObject({ provided: 1, failed: 0, dropped: 0 })
    expect(reader.network.libp2p.getConnections(holder.network.peerId)).toHaveLength(0)
    expect(reader.host.records.has(memory.id)).toBe(false)

    const found = await routers[0]!.fetchRecord(memory.id)

    expect(found.from).toBe(holder.network.peerId.toString())
    expect(found.providers).toEqual([found.from])
    expect(found.hops).toBeGreaterThanOrEqual(3)
    expect(found.queried).toBeGreaterThanOrEqual(found.hops)
    expect(reader.host.records.get(memory.id)?.id).toBe(memory.id)
    expect(reader.host.deliveries.get(memory.id)).toEqual(['fetch'])
    // fetch-v1 verified it: its signature was checked on the reader, once.
    expect(reader.verifier.total).toBe(1)
  }, 60_000)

  it('is NOT_FOUND when no node provides the CID', async () => {
    const nobody = createMemory(createAgent(42))
    const failure = await routers[0]!.fetchRecord(nobody.id).catch((err: unknown) => err)
    expect(failure).toBeInstanceOf(IsnadError)
    expect((failure as IsnadError).code).toBe('NOT_FOUND')
    expect(line[0]!.host.records.has(nobody.id)).toBe(false)
  }, 30_000)

  it('passes over a provider that announces a CID it does not hold', async () => {
    const other = createMemory(createAgent(43))
    const liar = line[5]!
    const holder = line[8]!
    holder.host.putLocal(verified(other.signed))
    routers[5]!.provide([CID.parse(other.id)]) // announced, never stored
    routers[8]!.provide([CID.parse(other.id)])
    await Promise.all([routers[5]!.settled(), routers[8]!.settled()])
    const found = await routers[2]!.fetchRecord(other.id)
    expect(found.from).toBe(holder.network.peerId.toString())
    expect(found.providers.filter((p) => p !== found.from)).toEqual(found.providers.includes(liar.network.peerId.toString()) ? [liar.network.peerId.toString()] : [])
    expect(line[2]!.host.records.has(other.id)).toBe(true)
  }, 60_000)

  it('fetches the blocks of anchored content from the provider of its root, level by level (C6)', async () => {
    const served = createMemoryBlockStore()
    const bytes = new Uint8Array(800_000).map((_, i) => (i * 2654435761) >>> 24)
    const root = (await importUnixfs(bytes, served.importTarget)).cid
    // The line is ordered for the memory's key, not this one: holder and reader hang off the same node.
    const hub = line[5]!
    const holder = await startNode('H', Object.assign(new MemoryHost(), { getBlock: async (cid: CID) => await served.get(cid) }), { syncOnConnect: false, dht: {} })
    const reader = await startNode('R', new MemoryHost(), { syncOnConnect: false, dht: {} })
    line.push(holder, reader) // stopped with the line
    const [holderRouter, readerRouter] = [new ContentRouter(holder.network), new ContentRouter(reader.network)]
    routers.push(holderRouter, readerRouter)
    await connect(holder, hub)
    await connect(reader, hub)
    await waitFor('the hub in both routing tables', () => routingTableSize(holder) >= 1 && routingTableSize(reader) >= 1)
    holderRouter.provide([root])
    await holderRouter.settled()
    expect(holderRouter.stats.provided).toBe(1)
    // The reader's own DHT queries may have dialled the holder: only the hub, which lacks the blocks, stays connected.
    await reader.network.libp2p.hangUp(holder.network.peerId)
    expect(reader.network.libp2p.getConnections(holder.network.peerId)).toHaveLength(0)
    const local = createMemoryBlockStore()
    const fetcher = routedBlockFetcher(reader.network, readerRouter, local)

    await fetcher([root], AbortSignal.timeout(20_000))
    const leaves = decodeDagPb((await local.get(root))!).Links.map((link) => link.Hash)
    expect(leaves.length).toBeGreaterThan(1)
    await fetcher(leaves, AbortSignal.timeout(20_000)) // only the root is announced: the provider that served it is asked

    for (const cid of [root, ...leaves]) expect(Buffer.from((await local.get(cid))!)).toEqual(Buffer.from((await served.get(cid))!))
  }, 60_000)
})
