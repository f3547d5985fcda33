import * as lp from 'it-length-prefixed'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { STREAM_VIOLATION_PENALTY, SYNC_INTEREST_PROTOCOL } from '../../../src/net/index.js'
import { encodeCanonical } from '../../../src/record/index.js'
import { connect, startNode, stopAll, waitFor, type TestNode } from './fixtures/harness.js'
import { MemoryHost } from './fixtures/memory-host.js'

/*
 * A sync-by-interest server (sync-v1 §9, S9) against requests a client may not send: interests
 * that are not a request's, and a request frame past MAX_SYNC_INTEREST_REQUEST_BYTES. Each resets
 * the stream and costs the client STREAM_VIOLATION_PENALTY, as a bad sync-v1 request does.
 */

describe('sync-by-interest requests a server refuses (sync-v1 S9)', () => {
  let server: TestNode<MemoryHost>
  const nodes: Array<TestNode<MemoryHost>> = []

  beforeAll(async () => {
    server = await startNode('S', new MemoryHost(), { syncOnConnect: false })
    nodes.push(server)
  })

  afterAll(async () => { await stopAll(nodes) })

  /** A fresh client that sends one request frame to the server and reads until the stream ends. */
  async function send (name: string, frame: Uint8Array): Promise<TestNode<MemoryHost>> {
    const client = await startNode(name, new MemoryHost(), { syncOnConnect: false })
    nodes.push(client)
    await connect(client, server)
    const stream = await client.network.libp2p.dialProtocol(server.network.peerId, SYNC_INTEREST_PROTOCOL)
    stream.send(lp.encode.single(frame).subarray())
    await stream.close().catch(() => {})
    return client
  }

  const ok = { tags: [], shards: { count: 4, indexes: [1] }, authors: [] }

  it('penalises interests outside the schema: a count that is no shard count, an index past it', async () => {
    for (const [name, shards] of [['A', { count: 3, indexes: [0] }], ['B', { count: 4, indexes: [4] }]] as const) {
      const client = await send(name, encodeCanonical({ limit: 8, cursor: 0, interests: { ...ok, shards } }))
      await waitFor(`the server penalises ${name}`, () => server.network.penalty(client.network.peerId) >= STREAM_VIOLATION_PENALTY - 1)
    }
  })

  it('penalises a request frame larger than MAX_SYNC_INTEREST_REQUEST_BYTES', async () => {
    const client = await send('C', new Uint8Array(200_000))
    await waitFor('the server penalises C', () => server.network.penalty(client.network.peerId) >= STREAM_VIOLATION_PENALTY - 1)
  })

  it('answers a valid request, and does not penalise it', async () => {
    const client = await send('D', encodeCanonical({ limit: 8, cursor: 0, interests: ok }))
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(server.network.penalty(client.network.peerId)).toBe(0)
  })
})
