import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createUrlChecker, sha256Hex, type AnchorClaim, type HostResolver } from '../../../src/anchor/index.js'
import { createKeystore } from '../../../src/keystore/index.js'
import { LocalNode, initHome } from '../../../src/node/index.js'
import { nodePaths } from '../../../src/home/index.js'
import type { MemoryView } from '../../../src/schema/index.js'
import { createAgent, createAnchor, createMemory } from '../../fixtures/records.js'

/*
 * anchors-v1 §9 against a real HTTP server on loopback that counts what it is asked: a url anchor
 * received from a peer (stored through the ingest path gossip uses, then checked in the background)
 * is refused without the server seeing a request; a redirect from an allowed host to loopback is
 * refused at the hop; an address allowed by the operator, or an anchor of the node's own agent, is
 * fetched; and the connection goes to the address that was checked, not to a second DNS answer.
 */

const BODY = 'test' // createAnchor's hash is sha2-256 of "test"
const requests: Array<{ url: string, host: string }> = []
let server: Server
let port: number
const dirs: string[] = []
const signal = new AbortController().signal

beforeAll(async () => {
  server = createServer((req, res) => {
    requests.push({ url: req.url ?? '', host: req.headers.host ?? '' })
    if (req.url === '/to-loopback') res.writeHead(302, { location: `http://127.0.0.1:${port}/secret` }).end()
    else res.writeHead(200, { 'content-type': 'text/plain' }).end(BODY)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  port = (server.address() as AddressInfo).port
})

afterAll(async () => {
  server.close()
  await Promise.all(dirs.map(async (dir) => { await rm(dir, { recursive: true, force: true }) }))
})

const claim = (reference: string): AnchorClaim => ({ type: 'url', reference, hash: `sha2-256:${sha256Hex(new TextEncoder().encode(BODY))}` })

/** Names that resolve to what the test says, counting each lookup. */
function resolverOf (names: Record<string, string[]>): HostResolver & { calls: string[] } {
  const calls: string[] = []
  const resolve = async (host: string): Promise<string[]> => {
    calls.push(host)
    return names[host] ?? []
  }
  return Object.assign(resolve, { calls })
}

/** The memory.anchor_checked payloads a node journaled (anchors-v1 §6). */
async function checkedEvents (home: string): Promise<Array<Record<string, unknown>>> {
  const data = nodePaths(home).data
  const files = (await readdir(data, { recursive: true, encoding: 'utf8' })).filter((f) => /^(streams|bus)\/.*\.jsonl$/.test(f))
  const lines = (await Promise.all(files.map(async (f) => await readFile(join(data, f), 'utf8')))).flatMap((t) => t.split('\n').filter((l) => l !== ''))
  return lines.map((l) => JSON.parse(l) as { type: string, payload: Record<string, unknown> }).filter((e) => e.type === 'memory.anchor_checked').map((e) => e.payload)
}

function anchorState (view: MemoryView, id: string): MemoryView['anchors'][number]['verification'] {
  const anchor = view.anchors.find((a) => a.id === id)
  if (anchor === undefined) throw new Error(`no anchor ${id}`)
  return anchor.verification
}

describe('url anchors from peers on a real node (anchors-v1 §9, S4)', () => {
  const peer = createAgent(71)
  const own = createAgent(72)
  const clock = () => Date.parse('2026-03-01T12:00:00Z')

  it('refuses a peer\'s anchor to a loopback server in the background check, and the server sees nothing', async () => {
    const home = await mkdtemp(join(tmpdir(), 'isnad-ssrf-'))
    dirs.push(home)
    await initHome(home)
    const memory = createMemory(peer)
    const anchor = createAnchor(peer, memory.id, `http://127.0.0.1:${port}/internal`)
    let node = await LocalNode.open({ home, clock })
    await node.ingest([memory.signed, anchor.signed], 'gossip')
    await node.close() // waits for the background check of the arrived anchor
    expect(await checkedEvents(home)).toEqual([expect.objectContaining({ anchor: anchor.id, state: 'unverifiable', reason: expect.stringMatching(/^ADDRESS_REFUSED/) })])
    node = await LocalNode.open({ home, clock }) // same instant: the cached state is read, nothing is checked again
    try {
      const state = anchorState(await node.show(memory.id), anchor.id)
      expect(state.state).toBe('unverifiable')
      expect(state.reason).toMatch(/^ADDRESS_REFUSED: http:\/\/127\.0\.0\.1:\d+\/internal was not fetched: 127\.0\.0\.1 is loopback/)
      expect(requests.filter((r) => r.url === '/internal')).toEqual([])

      // The same kind of anchor by this node's own agent (a key in its keystore) is fetched.
      await createKeystore({ directory: nodePaths(home).keys }).create({ seed: own.secretKey, makeDefault: false })
      const mine = createAnchor(own, memory.id, `http://127.0.0.1:${port}/own`)
      await node.ingest([mine.signed], 'local')
      const [check] = await node.checkAnchors(memory.id).then((checks) => checks.filter((c) => c.id === mine.id))
      expect(check).toMatchObject({ state: 'verified' })
      expect(requests.filter((r) => r.url === '/own')).toHaveLength(1)
    } finally {
      await node.close()
    }
  })

  it('fetches a peer\'s anchor to an address the operator allowed (urlAllow)', async () => {
    const home = await mkdtemp(join(tmpdir(), 'isnad-ssrf-allow-'))
    dirs.push(home)
    await initHome(home)
    await expect(LocalNode.open({ home, clock, anchors: { urlAllow: ['127.0.0.1/33'] } })).rejects.toMatchObject({ code: 'USAGE' })
    const node = await LocalNode.open({ home, clock, anchors: { urlAllow: ['127.0.0.0/8'] } })
    try {
      const memory = createMemory(peer)
      const anchor = createAnchor(peer, memory.id, `http://127.0.0.1:${port}/allowed`)
      await node.ingest([memory.signed, anchor.signed], 'gossip')
      const [check] = await node.checkAnchors(memory.id)
      expect(check).toMatchObject({ id: anchor.id, state: 'verified' })
      expect(requests.filter((r) => r.url === '/allowed').length).toBeGreaterThan(0)
    } finally {
      await node.close()
    }
  })
})

describe('the url checker at each hop (anchors-v1 §9)', () => {
  it('refuses a redirect from an allowed host to a loopback address at the hop', async () => {
    const resolve = resolverOf({ 'allowed.test': ['127.0.0.1'] })
    const check = createUrlChecker({ allow: ['allowed.test'], resolve })
    const outcome = await check(claim(`http://allowed.test:${port}/to-loopback`), signal)
    expect(outcome).toMatchObject({ state: 'unverifiable', reason: expect.stringMatching(/^ADDRESS_REFUSED: http:\/\/127\.0\.0\.1:\d+\/secret was not fetched/) })
    expect(requests.filter((r) => r.url === '/to-loopback')).toHaveLength(1)
    expect(requests.filter((r) => r.url === '/secret')).toEqual([])
  })

  it('refuses a host when any of its addresses is not public, before connecting', async () => {
    const resolve = resolverOf({ 'mixed.test': ['93.184.216.34', '127.0.0.1'], 'v6.test': ['::ffff:127.0.0.1'] })
    const check = createUrlChecker({ resolve })
    const before = requests.length
    expect(await check(claim(`http://mixed.test:${port}/x`), signal)).toMatchObject({ state: 'unverifiable', reason: expect.stringMatching(/mixed\.test \(127\.0\.0\.1\) is loopback/) })
    expect(await check(claim(`http://v6.test:${port}/x`), signal)).toMatchObject({ state: 'unverifiable', reason: expect.stringMatching(/ADDRESS_REFUSED/) })
    expect(await check(claim(`http://[::1]:${port}/x`), signal)).toMatchObject({ state: 'unverifiable', reason: expect.stringMatching(/::1 is loopback/) })
    expect(await check(claim(`http://0x7f.1:${port}/x`), signal)).toMatchObject({ state: 'unverifiable', reason: expect.stringMatching(/127\.0\.0\.1 is loopback/) })
    expect(await check(claim(`http://[::ffff:169.254.169.254]/latest/meta-data/`), signal)).toMatchObject({ state: 'unverifiable', reason: expect.stringMatching(/link-local/) })
    expect(requests.length).toBe(before)
  })

  it('connects to the address it checked: the name is resolved once per hop, never again by the socket', async () => {
    // rebind.test exists only in this resolver: had the socket looked it up again, the GET would fail.
    const resolve = resolverOf({ 'rebind.test': ['127.0.0.1'] })
    const check = createUrlChecker({ allow: ['127.0.0.0/8'], resolve })
    expect(await check(claim(`http://rebind.test:${port}/pinned`), signal)).toMatchObject({ state: 'verified' })
    expect(resolve.calls).toEqual(['rebind.test'])
    expect(requests.filter((r) => r.url === '/pinned')).toEqual([{ url: '/pinned', host: `rebind.test:${port}` }])
  })

  it('an anchor of this node\'s own agent may reach loopback; a name that does not resolve is unreachable', async () => {
    expect(await createUrlChecker()(claim(`http://127.0.0.1:${port}/local`), signal, { origin: 'local' })).toMatchObject({ state: 'verified' })
    expect(await createUrlChecker({ resolve: resolverOf({}) })(claim('http://nowhere.test/'), signal)).toMatchObject({ state: 'unreachable' })
  })
})
