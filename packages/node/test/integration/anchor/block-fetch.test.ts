import type { Stream } from '@libp2p/interface'
import * as dagCbor from '@ipld/dag-cbor'
import * as lp from 'it-length-prefixed'
import type { CID } from 'multiformats/cid'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cidAnchorHash, createCidChecker, createMemoryBlockStore, importUnixfs, type BlockStore } from '../../../src/anchor/index.js'
import { FETCH_BLOCKS_PROTOCOL, FETCH_PROTOCOL, STREAM_VIOLATION_PENALTY } from '../../../src/net/index.js'
import { peerBlockFetcher } from '../../../src/node/index.js'
import { connect, startNode, stopAll, type TestNode } from '../net/fixtures/harness.js'
import { MemoryHost } from '../net/fixtures/memory-host.js'

/*
 * Blocks over fetch-v1 §8 between real libp2p nodes on loopback: a node serves the blocks of content
 * it imported; the client re-hashes every block against the CID it asked for, so a tampered block
 * is refused (CID_MISMATCH, a violation) and nothing of that response is used.
 */

/** A MemoryHost that also serves blocks from a blockstore. */
function blockHost (blocks: BlockStore): MemoryHost {
  const host = new MemoryHost()
  Object.assign(host, { getBlock: async (cid: CID) => await blocks.get(cid) })
  return host
}

function content (size: number): Uint8Array {
  const bytes = new Uint8Array(size)
  for (let i = 0; i < size; i += 4) new DataView(bytes.buffer).setUint32(i, Math.imul(i + 1, 2654435761) >>> 0)
  return bytes
}

describe('block fetch between libp2p nodes (fetch-v1 §8)', () => {
  const nodes: Array<TestNode<MemoryHost>> = []
  const served = createMemoryBlockStore()
  let a: TestNode<MemoryHost>
  let b: TestNode<MemoryHost>
  let root: CID

  beforeAll(async () => {
    root = (await importUnixfs(content(800_000), served.importTarget)).cid
    a = await startNode('A', blockHost(served), { syncOnConnect: false })
    b = await startNode('B', new MemoryHost(), { syncOnConnect: false, fetchTimeoutMs: 3000 })
    nodes.push(a, b)
    await connect(b, a)
  })

  afterAll(async () => { await stopAll(nodes) })

  it('fetches a whole DAG from a peer into an empty blockstore, every block checked', async () => {
    const local = createMemoryBlockStore()
    const fetcher = peerBlockFetcher(b.network, local)
    await fetcher([root], AbortSignal.timeout(5000))
    expect(await local.has(root)).toBe(true)
    const { decode } = await import('@ipld/dag-pb')
    const leaves = decode((await local.get(root)) ?? new Uint8Array()).Links.map((l) => l.Hash)
    expect(leaves).toHaveLength(4)
    await fetcher(leaves, AbortSignal.timeout(5000))
    for (const leaf of leaves) {
      // Bytes compared as bytes: a frame may arrive as a Buffer or a Uint8Array.
      expect(Buffer.from((await local.get(leaf)) ?? [])).toEqual(Buffer.from((await served.get(leaf)) ?? [1]))
    }
  })

  it('replaces a damaged local block with the peer\'s good copy when a cid anchor is checked', async () => {
    const local = createMemoryBlockStore()
    const fetcher = peerBlockFetcher(b.network, local)
    await fetcher([root], AbortSignal.timeout(5000))
    const { decode } = await import('@ipld/dag-pb')
    const leaves = decode((await local.get(root)) ?? new Uint8Array()).Links.map((l) => l.Hash)
    await fetcher(leaves, AbortSignal.timeout(5000))
    const damaged = leaves[1] as CID
    await local.importTarget.put(damaged, ((await local.get(damaged)) ?? new Uint8Array()).subarray(0, 100)) // a truncated value on disk
    const claim = { type: 'cid' as const, reference: root.toString(), hash: cidAnchorHash(root) }
    expect((await createCidChecker({ blocks: local })(claim, AbortSignal.timeout(5000))).state).toBe('unreachable') // alone: local damage, not a mismatch
    const outcome = await createCidChecker({ blocks: local, fetchBlocks: () => fetcher })(claim, AbortSignal.timeout(10_000))
    expect(outcome.state).toBe('verified')
    expect(Buffer.from((await local.get(damaged)) ?? [])).toEqual(Buffer.from((await served.get(damaged)) ?? [1]))
  })

  it('reports blocks the peer does not hold as missing, and the record protocol is still served', async () => {
    const other = (await importUnixfs(new TextEncoder().encode('nobody has this'), createMemoryBlockStore().importTarget)).cid
    const result = await b.network.fetchBlocks(a.network.peerId, [root, other])
    expect(result.blocks.map((x) => x.cid.toString())).toEqual([root.toString()])
    expect(result.missing.map((c) => c.toString())).toEqual([other.toString()])
    expect(a.network.libp2p.getProtocols()).toEqual(expect.arrayContaining([FETCH_PROTOCOL, FETCH_BLOCKS_PROTOCOL]))
  })

  it('refuses a tampered block: CID_MISMATCH, the peer penalised, nothing stored', async () => {
    const m = await startNode('M', new MemoryHost(), { syncOnConnect: false })
    nodes.push(m)
    await connect(b, m)
    const genuine = (await served.get(root)) ?? new Uint8Array()
    const tampered = Uint8Array.from(genuine)
    tampered[tampered.length - 1] = (tampered[tampered.length - 1] ?? 0) ^ 1
    await m.network.libp2p.handle(FETCH_BLOCKS_PROTOCOL, async (stream: Stream) => {
      stream.send(lp.encode.single(tampered).subarray())
      await stream.close()
    }, { force: true })
    await expect(b.network.fetchBlocks(m.network.peerId, [root])).rejects.toMatchObject({ code: 'CID_MISMATCH' })
    expect(b.network.penalty(m.network.peerId)).toBeGreaterThanOrEqual(STREAM_VIOLATION_PENALTY * 0.9)

    const local = createMemoryBlockStore()
    await peerBlockFetcher({ libp2p: { getPeers: () => [m.network.peerId] } as unknown as typeof b.network.libp2p, fetchBlocks: async (peer, cids) => await b.network.fetchBlocks(peer, cids) }, local)([root], AbortSignal.timeout(5000))
    expect(await local.has(root)).toBe(false)
  })

  it('a server refuses a request for a CID that is not a UnixFS block', async () => {
    const stream = await b.network.libp2p.dialProtocol(a.network.peerId, FETCH_BLOCKS_PROTOCOL)
    stream.send(lp.encode.single(dagCbor.encode({ blocks: ['bafyreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy'] })).subarray())
    await stream.close()
    await new Promise<void>((resolve) => { stream.addEventListener('close', () => { resolve() }) })
    expect(stream.status === 'aborted' || stream.status === 'reset' || stream.status === 'closed').toBe(true)
    expect(a.network.penalty(b.network.peerId)).toBeGreaterThan(0)
  })
})
