import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHttpOperations, type HttpOperations } from '../../../src/api/client.js'
import { readApiToken } from '../../../src/api/index.js'
import { startDaemon, type Daemon } from '../../../src/daemon/index.js'
import { initHome, nodePaths } from '../../../src/node/index.js'
import type { MemoryView, TrustResult } from '../../../src/schema/index.js'
import { eventually } from '../../fixtures/eventually.js'

/*
 * Issue 5's end-to-end case: a cid anchor made on daemon A (a file imported as UnixFS into A's
 * LevelDB blockstore) reaches daemon B by gossip; B holds none of the content, fetches every block
 * from A over fetch-v1 §8, re-hashes each, and reports the anchor verified; trust on B counts it.
 * And anchors-v1 §9 over real gossip: A's agent anchors a page on A's loopback (its own anchor: fetched);
 * on B, that anchor is a peer's, and B refuses to fetch loopback without sending a request.
 */

interface Peer { home: string, daemon: Daemon, ops: HttpOperations }

const LOOPBACK = ['/ip4/127.0.0.1/tcp/0', '/ip4/127.0.0.1/tcp/0/ws']

async function startPeer (name: string, bootstrap: string[]): Promise<Peer> {
  const home = await mkdtemp(join(tmpdir(), `isnad-anchor-${name}-`))
  await initHome(home)
  const daemon = await startDaemon({ home, listen: LOOPBACK, bootstrap, heartbeatMs: 60_000 })
  return { home, daemon, ops: createHttpOperations({ url: daemon.url, token: await readApiToken(nodePaths(home).data) }) }
}

describe('anchors across two daemons', () => {
  let a: Peer
  let b: Peer

  beforeAll(async () => {
    a = await startPeer('a', [])
    b = await startPeer('b', [a.daemon.multiaddrs()[0]!])
    await eventually('B connected to A', async () => await b.ops.peers(), (peers) => peers.length >= 1)
  }, 60_000)

  afterAll(async () => {
    for (const peer of [a, b]) {
      await peer.daemon.stop()
      await rm(peer.home, { recursive: true, force: true })
    }
  })

  it('is verified on B after B fetched its blocks from A', async () => {
    const path = join(a.home, 'report.bin')
    const bytes = new Uint8Array(700_000)
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 7919 + (i >>> 11) * 31) & 0xff
    await writeFile(path, bytes)
    const memory = await a.ops.remember({ type: 'observation', summary: 'the report is attached' }, await a.ops.resolveSigner())
    const { id, view } = await a.ops.addAnchor({ source: 'file', memory: memory.id, path }, await a.ops.resolveSigner())
    const onA = view.anchors.find((x) => x.id === id)
    expect(onA).toMatchObject({ type: 'cid', verification: { state: 'verified' } })
    expect(onA?.reference).toMatch(/^bafybei/) // several chunks: a dag-pb root

    const onB = await eventually('the anchor verified on B', async () => await b.ops.show(memory.id),
      (v: MemoryView) => v.anchors.some((x) => x.id === id && x.verification.state === 'verified'))
    expect(onB.anchors.find((x) => x.id === id)?.verification.reason).toMatch(/all 4 blocks/)
    expect((onB.trust as TrustResult).counted.anchors.map((x) => x.id)).toEqual([id])
    const checks = await b.ops.checkAnchors(memory.id)
    expect(checks).toEqual([expect.objectContaining({ id, state: 'verified', previous: 'verified', memory: memory.id })])
  }, 60_000)

  it('a url anchor to loopback is verified on A, whose agent made it, and refused on B without a request', async () => {
    const seen: string[] = []
    const server = createServer((req, res) => { seen.push(req.url ?? ''); res.end('the intranet page') })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/intranet`
      const memory = await a.ops.remember({ type: 'observation', summary: 'the intranet page says so' }, await a.ops.resolveSigner())
      const { id, view } = await a.ops.addAnchor({ source: 'url', memory: memory.id, url }, await a.ops.resolveSigner())
      expect(view.anchors.find((x) => x.id === id)?.verification.state).toBe('verified')
      const fetchedByA = seen.length // the hash when anchoring, and the check after it
      expect(fetchedByA).toBeGreaterThan(0)

      const onB = await eventually('the anchor checked on B', async () => await b.ops.show(memory.id),
        (v: MemoryView) => v.anchors.some((x) => x.id === id && x.verification.state !== 'unchecked'))
      expect(onB.anchors.find((x) => x.id === id)?.verification).toMatchObject({ state: 'unverifiable', reason: expect.stringMatching(/^ADDRESS_REFUSED: .* is loopback/) })
      expect(await b.ops.checkAnchors(memory.id)).toEqual([expect.objectContaining({ id, state: 'unverifiable' })])
      expect(seen.length).toBe(fetchedByA)
    } finally {
      server.close()
    }
  }, 60_000)
})
