import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHttpOperations, type HttpOperations } from '../../../src/api-access/client.js'
import { readApiToken } from '../../../src/api-access/index.js'
import { startDaemon, type Daemon } from '../../../src/daemon/index.js'
import { blockStorePath, initHome } from '../../../src/node/index.js'
import { nodePaths } from '../../../src/home/index.js'
import type { MemoryView, TrustResult } from '../../../src/schema/index.js'
import { eventually } from '../../fixtures/eventually.js'

/*
 * The end-to-end case of cid anchors: a cid anchor made on daemon A (a file imported as UnixFS into A's
 * LevelDB blockstore) reaches daemon B by gossip; B holds none of the content, fetches every block
 * from A over fetch-v1 §8, re-hashes each, and reports the anchor verified; trust on B counts it.
 * And anchors-v1 §9 over real gossip: A's agent anchors a page on A's loopback (its own anchor: fetched);
 * on B, that anchor is a peer's, and B refuses to fetch loopback without sending a request.
 * And anchors-v1 §2.1: a file anchor through the API never reads A's keys, however
 * named, so none of A's seeds reach B's blockstore (nor A's own).
 */

interface Peer { home: string, daemon: Daemon, ops: HttpOperations }

const LOOPBACK = ['/ip4/127.0.0.1/tcp/0', '/ip4/127.0.0.1/tcp/0/ws']

async function startPeer (name: string, bootstrap: string[]): Promise<Peer> {
  const home = await mkdtemp(join(tmpdir(), `isnad-anchor-${name}-`))
  await initHome(home)
  // The operator allows the home (as `isnad start --anchor-dir <home>`): keys/ and .memory/ stay out.
  const daemon = await startDaemon({ home, listen: LOOPBACK, bootstrap, heartbeatMs: 60_000, anchors: { fileDirs: [home] } })
  return { home, daemon, ops: createHttpOperations({ url: daemon.url, token: await readApiToken(nodePaths(home).data) }) }
}

describe('anchors across two daemons', () => {
  let a: Peer
  let b: Peer

  beforeAll(async () => {
    a = await startPeer('a', [])
    b = await startPeer('b', [a.daemon.multiaddrs()[0]!])
    await eventually('B connected to A', async () => (await b.ops.call('peers', {})).peers, (peers) => peers.length >= 1)
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
    const memory = await a.ops.call('remember', { type: 'observation', summary: 'the report is attached' })
    const { anchor: id, memory: view } = await a.ops.call('addAnchor', { id: memory.id, anchor: { source: 'file', path } })
    const onA = view.anchors.find((x) => x.id === id)
    expect(onA).toMatchObject({ type: 'cid', verification: { state: 'verified' } })
    expect(onA?.reference).toMatch(/^bafybei/) // several chunks: a dag-pb root

    const onB = await eventually('the anchor verified on B', async () => await b.ops.call('show', { id: memory.id }),
      (v: MemoryView) => v.anchors.some((x) => x.id === id && x.verification.state === 'verified'))
    expect(onB.anchors.find((x) => x.id === id)?.verification.reason).toMatch(/all 4 blocks/)
    expect((onB.trust as TrustResult).counted.anchors.map((x) => x.id)).toEqual([id])
    const checks = (await b.ops.call('checkAnchors', { id: memory.id })).checks
    expect(checks).toEqual([expect.objectContaining({ id, state: 'verified', previous: 'verified', memory: memory.id })])
  }, 60_000)

  it('a url anchor to loopback is verified on A, whose agent made it, and refused on B without a request', async () => {
    const seen: string[] = []
    const server = createServer((req, res) => { seen.push(req.url ?? ''); res.end('the intranet page') })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/intranet`
      const memory = await a.ops.call('remember', { type: 'observation', summary: 'the intranet page says so' })
      const { anchor: id, memory: view } = await a.ops.call('addAnchor', { id: memory.id, anchor: { source: 'url', url } })
      expect(view.anchors.find((x) => x.id === id)?.verification.state).toBe('verified')
      const fetchedByA = seen.length // the hash when anchoring, and the check after it
      expect(fetchedByA).toBeGreaterThan(0)

      const onB = await eventually('the anchor checked on B', async () => await b.ops.call('show', { id: memory.id }),
        (v: MemoryView) => v.anchors.some((x) => x.id === id && x.verification.state !== 'unchecked'))
      expect(onB.anchors.find((x) => x.id === id)?.verification).toMatchObject({ state: 'unverifiable', reason: expect.stringMatching(/^ADDRESS_REFUSED: .* is loopback/) })
      expect((await b.ops.call('checkAnchors', { id: memory.id })).checks).toEqual([expect.objectContaining({ id, state: 'unverifiable' })])
      expect(seen.length).toBe(fetchedByA)
    } finally {
      server.close()
    }
  }, 60_000)

  it('refuses file anchors of A\'s keys by path, symlink and `..` with PATH_FORBIDDEN; no seed reaches B', async () => {
    const paths = nodePaths(a.home)
    const keyNames = (await readdir(paths.keys)).filter((name) => name.endsWith('.json'))
    const nodeKeyNames = await readdir(join(paths.keys, 'node'))
    const keyFile = join(paths.keys, keyNames[0]!)
    await mkdir(join(a.home, 'docs'), { recursive: true })
    await symlink(keyFile, join(a.home, 'docs', 'notes.json'))
    const outside = await mkdtemp(join(tmpdir(), 'isnad-outside-'))
    await writeFile(join(outside, 'diary.txt'), 'not for peers\n')
    const memory = await a.ops.call('remember', { type: 'observation', summary: 'an anchor attempt' })
    const token = await readApiToken(paths.data)
    const attempts = [
      keyFile,
      join(paths.keys, 'node', nodeKeyNames[0]!),
      join(paths.data, 'api.token'),
      join(a.home, 'docs', 'notes.json'),
      `${a.home}/docs/../keys/${keyNames[0]!}`,
      join(outside, 'diary.txt')
    ]
    for (const path of attempts) {
      const response = await fetch(`${a.daemon.url}/v1/memories/${memory.id}/anchors`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ anchor: { source: 'file', path } })
      })
      expect(response.status, path).toBe(403)
      expect(((await response.json()) as { error: { code: string } }).error.code, path).toBe('PATH_FORBIDDEN')
    }
    await rm(outside, { recursive: true, force: true })

    // A file the operator allowed still goes through, and B fetches it: blocks do flow from A to B.
    await writeFile(join(a.home, 'docs', 'ok.txt'), 'an allowed file\n')
    const { anchor: id } = await a.ops.call('addAnchor', { id: memory.id, anchor: { source: 'file', path: join(a.home, 'docs', 'ok.txt') } })
    await eventually('the allowed anchor verified on B', async () => await b.ops.call('show', { id: memory.id }),
      (v: MemoryView) => v.anchors.some((x) => x.id === id && x.verification.state === 'verified'))

    const seeds = await Promise.all([...keyNames.map((n) => join(paths.keys, n)), ...nodeKeyNames.map((n) => join(paths.keys, 'node', n))]
      .map(async (file) => await readFile(file)))
    const needles = seeds.flatMap((bytes) => {
      const text = bytes.toString('utf8')
      const seed = /"seed": *"([A-Za-z0-9+/=]{44})"/.exec(text)?.[1]
      return seed === undefined ? [bytes.subarray(0, Math.min(bytes.length, 64))] : [Buffer.from(seed), Buffer.from(seed, 'base64')]
    })
    expect(needles.length).toBeGreaterThanOrEqual(2)
    for (const store of [blockStorePath(nodePaths(b.home)), blockStorePath(paths)]) {
      for (const name of await readdir(store)) {
        const bytes = await readFile(join(store, name)).catch(() => Buffer.alloc(0))
        for (const needle of needles) expect(bytes.includes(needle), `${store}/${name}`).toBe(false)
      }
    }
  }, 60_000)
})
