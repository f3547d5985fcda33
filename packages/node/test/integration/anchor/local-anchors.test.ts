import { execFileSync } from 'node:child_process'
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ANCHOR_STATE_TTL_MS, importUnixfs, createMemoryBlockStore } from '../../../src/anchor/index.js'
import { createKeystore } from '../../../src/keystore/index.js'
import { LocalNode, initHome, reindex } from '../../../src/node/index.js'
import { nodePaths } from '../../../src/home/index.js'
import type { MemoryView } from '../../../src/schema/index.js'
import { signRecord } from '../../../src/record/index.js'
import { createAgent } from '../../fixtures/records.js'

/*
 * Anchors on a real node (LevelDB, ledger) against real evidence: a local HTTP server (content
 * changed → mismatch with drift, server down → unreachable), git repositories made by the test in
 * both object formats, and a file imported as UnixFS. States are re-checked at read time after the
 * TTL, journaled as memory.anchor_checked, and only verified anchors count for trust and query.
 */

const alice = createAgent(60)
const signer = { did: alice.did, secretKey: alice.secretKey }
const dirs: string[] = []
let home: string
let node: LocalNode
const clock = { now: Date.parse('2026-03-01T12:00:00Z') }
let page = 'the original page'
let server: Server
let base: string

function git (repo: string, ...args: string[]): string {
  return execFileSync('git', ['-C', repo, ...args], {
    encoding: 'utf8',
    env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@x', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@x' }
  }).trim()
}

/** A repository with one commit holding `notes.md`; its object format and commit id. */
async function makeRepo (format: 'sha1' | 'sha256', text: string): Promise<{ repo: string, commit: string }> {
  const repo = await mkdtemp(join(tmpdir(), `isnad-git-${format}-`))
  dirs.push(repo)
  git(repo, 'init', '-q', `--object-format=${format}`)
  await writeFile(join(repo, 'notes.md'), text)
  git(repo, 'add', 'notes.md')
  git(repo, 'commit', '-q', '-m', 'notes')
  return { repo, commit: git(repo, 'rev-parse', 'HEAD') }
}

function sha256Supported (): boolean {
  try {
    execFileSync('git', ['init', '-q', '--object-format=sha256', join(tmpdir(), `isnad-probe-${process.pid}`)], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}

function anchorOf (view: MemoryView, id: string): MemoryView['anchors'][number] {
  const found = view.anchors.find((a) => a.id === id)
  if (found === undefined) throw new Error(`no anchor ${id} in the view`)
  return found
}

async function ledgerEvents (type: string): Promise<Array<Record<string, unknown>>> {
  const data = nodePaths(home).data
  const files = (await readdir(data, { recursive: true, encoding: 'utf8' })).filter((f) => /^(streams|bus)\/.*\.jsonl$/.test(f))
  const lines = (await Promise.all(files.map(async (f) => await readFile(join(data, f), 'utf8')))).flatMap((t) => t.split('\n').filter((l) => l !== ''))
  return lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((e) => e.type === type)
}

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'isnad-anchors-'))
  dirs.push(home)
  await initHome(home)
  // alice is this node's own agent: her url anchors may reach the loopback server (anchors-v1 §9).
  await createKeystore({ directory: nodePaths(home).keys }).create({ seed: alice.secretKey, makeDefault: false })
  node = await LocalNode.open({ home, clock: () => clock.now })
  server = createServer((req, res) => {
    if (req.url === '/moved') {
      res.writeHead(302, { location: '/page' }).end()
      return
    }
    res.writeHead(200, { 'content-type': 'text/plain' }).end(page)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(async () => {
  await node.close()
  server.close()
  await Promise.all(dirs.map(async (dir) => { await rm(dir, { recursive: true, force: true }) }))
})

describe('url anchors against a local HTTP server (anchors-v1 V3)', () => {
  it('verified, then drift after the page changed (re-checked at read time), then unreachable', async () => {
    const memory = await node.remember({ type: 'fact', summary: 'the page says so' }, signer)
    const before = memory.trust as { factors: { anchor_count: number }, score: number, points: number }
    const { anchor: id, memory: view } = await node.addAnchor({ source: 'url', memory: memory.id, url: `${base}/moved` }, signer)
    expect(anchorOf(view, id).verification).toMatchObject({ state: 'verified', checked_at: '2026-03-01T12:00:00.000Z' })
    const trusted = view.trust as { factors: { anchor_count: number }, score: number, points: number }
    expect(trusted.factors.anchor_count).toBe(1)
    expect(trusted.points).toBeCloseTo(before.points + 0.2)
    expect((await node.query({ tags: [] })).items.find((i) => i.id === memory.id)?.trust).toBeCloseTo(trusted.score)

    page = 'the page was edited'
    // Within the TTL the cached state stands; after it, a read checks again.
    expect(anchorOf(await node.show(memory.id), id).verification.state).toBe('verified')
    clock.now += ANCHOR_STATE_TTL_MS + 1000
    const drifted = await node.show(memory.id)
    expect(anchorOf(drifted, id).verification.state).toBe('mismatch')
    expect(anchorOf(drifted, id).verification.reason).toMatch(/^drift: the content at .* changed since it was anchored/)
    expect((drifted.trust as { factors: { anchor_count: number } }).factors.anchor_count).toBe(0)
    expect((await node.query({ tags: [] })).items.find((i) => i.id === memory.id)?.trust).toBeCloseTo(before.score)
    expect((await node.explainTrust(memory.id)).refused.anchors).toEqual([expect.objectContaining({ id, code: 'ANCHOR_NOT_VERIFIED', state: 'mismatch' })])

    server.close()
    server.closeAllConnections()
    const [check] = await node.checkAnchors(memory.id)
    expect(check).toMatchObject({ id, state: 'unreachable', previous: 'mismatch' })

    const events = (await ledgerEvents('memory.anchor_checked')).map((e) => e.payload as Record<string, unknown>).filter((p) => p.anchor === id)
    expect(events.map((p) => p.state)).toEqual(['verified', 'mismatch', 'unreachable'])
    expect(events[1]).toMatchObject({ drift: true, previous: 'verified', memory: memory.id, type: 'url' })
  })

  it('refuses to anchor a URL it cannot fetch, before signing anything', async () => {
    const memory = await node.remember({ type: 'fact', summary: 'nothing there' }, signer)
    await expect(node.addAnchor({ source: 'url', memory: memory.id, url: `${base}/page` }, signer)).rejects.toMatchObject({ code: 'IO_ERROR' })
    await expect(node.addAnchor({ source: 'url', memory: memory.id, url: 'ftp://example.org/x' }, signer)).rejects.toMatchObject({ code: 'USAGE' })
    expect((await node.show(memory.id)).anchors).toEqual([])
  })
})

describe('git_commit anchors against repositories the test creates (anchors-v1 V2)', () => {
  const formats = sha256Supported() ? (['sha1', 'sha256'] as const) : (['sha1'] as const)

  for (const format of formats) {
    it(`${format}: a commit and a file in it verify; a re-created repository without the commit is a mismatch; a removed one is unreachable`, async () => {
      const { repo, commit } = await makeRepo(format, 'decided: ship v2\n')
      expect(commit).toHaveLength(format === 'sha1' ? 40 : 64)
      const memory = await node.remember({ type: 'decision', summary: `ship v2 (${format})` }, signer)
      const byCommit = await node.addAnchor({ source: 'git', memory: memory.id, repository: repo, commit: 'HEAD' }, signer)
      const anchor = anchorOf(byCommit.memory, byCommit.anchor)
      expect(anchor).toMatchObject({ type: 'git_commit', hash: `git-${format}:${commit}`, verification: { state: 'verified' } })
      expect(anchor.reference).toMatch(new RegExp(`^file://.*#${commit}$`))
      const byPath = await node.addAnchor({ source: 'git', memory: memory.id, repository: repo, commit, path: 'notes.md' }, signer)
      expect(anchorOf(byPath.memory, byPath.anchor).verification.state).toBe('verified')
      await expect(node.addAnchor({ source: 'git', memory: memory.id, repository: repo, commit, path: 'absent.md' }, signer)).rejects.toMatchObject({ code: 'NOT_FOUND' })

      await rm(join(repo, '.git'), { recursive: true, force: true })
      git(repo, 'init', '-q', `--object-format=${format}`)
      const checks = await node.checkAnchors(memory.id)
      expect(checks.map((c) => c.state)).toEqual(['mismatch', 'mismatch'])
      await rm(repo, { recursive: true, force: true })
      expect((await node.checkAnchors(memory.id)).map((c) => c.state)).toEqual(['unreachable', 'unreachable'])
    })
  }
})

describe('cid anchors of files (anchors-v1 V1)', () => {
  it('imports the file into the node\'s blockstore under the CID kubo gives and verifies it', async () => {
    const path = join(home, 'evidence.txt')
    await writeFile(path, 'hello world')
    const memory = await node.remember({ type: 'observation', summary: 'a file as evidence' }, signer)
    const { anchor: id, memory: view } = await node.addAnchor({ source: 'file', memory: memory.id, path }, signer)
    expect(anchorOf(view, id)).toMatchObject({ type: 'cid', reference: 'bafkreifzjut3te2nhyekklss27nh3k72ysco7y32koao5eei66wof36n5e', verification: { state: 'verified' } })

    // A new attestation is scored at ingest before any check; the node then re-scores the memory with
    // its verified anchor, so a minTrust query (which filters on the index) finds it.
    const bob = createAgent(61)
    await node.ingest([signRecord({ kind: 'attestation', version: 1, memory: memory.id, witness: bob.did, attestation: 'confirm', witnessed_at: new Date(clock.now).toISOString() }, bob.secretKey).signed])
    const explained = await node.explainTrust(memory.id)
    const expected = explained.score
    // Under the default isnad-reputation: the signer is the node's own agent (a root, reputation 1);
    // bob, the only other agent its walk reaches (he confirmed its memory), has full standing but
    // only that one confirm as evidence, so the evidence factor 1/(1 + 1.5) leaves him 0.4
    // (docs/trust.md §3): 0.2 signature + 0.2 × 0.4 confirm + 0.2 anchor + 0.2 × 1 = 0.68 points.
    // His 0.4 is below the half a reputable witness a confirm needs: Unverified, so the score is
    // held at 0.2999, the top of Unverified (docs/trust.md §1, "One scale"), never 0.68 Unverified.
    expect(explained.points).toBeCloseTo(0.68)
    expect(explained).toMatchObject({ score: 0.2999, level: 'Unverified' })
    for (let i = 0; i < 100 && (await node.store.getTrust(memory.id))?.score !== expected; i++) await new Promise((resolve) => setTimeout(resolve, 20))
    expect((await node.query({ minTrust: 0.29 })).items.map((i) => i.id)).toContain(memory.id)
    expect((await node.query({ minTrust: 0.3 })).items.map((i) => i.id)).not.toContain(memory.id)

    // A CID whose blocks nobody holds: signed, stored, and honestly unreachable.
    const elsewhere = await importUnixfs(new TextEncoder().encode('held elsewhere'), createMemoryBlockStore().importTarget)
    const absent = await node.addAnchor({ source: 'cid', memory: memory.id, cid: elsewhere.cid.toString() }, signer)
    expect(anchorOf(absent.memory, absent.anchor).verification.state).toBe('unreachable')
    expect((absent.memory.trust as { factors: { anchor_count: number } }).factors.anchor_count).toBe(1)
  })

  it('keeps the blocks through a reindex (they live in evidence/, not index/)', async () => {
    const path = join(home, 'kept.txt')
    await writeFile(path, 'kept across reindex')
    const memory = await node.remember({ type: 'observation', summary: 'kept' }, signer)
    const { anchor: id } = await node.addAnchor({ source: 'file', memory: memory.id, path }, signer)
    await node.close()
    await reindex(home)
    node = await LocalNode.open({ home, clock: () => clock.now })
    const [check] = await node.checkAnchors(memory.id)
    expect(check).toMatchObject({ id, state: 'verified' })
  })

  it('reports a blockchain anchor as unverifiable without a verifier', async () => {
    const memory = await node.remember({ type: 'commitment', summary: 'on chain' }, signer)
    const { anchor: id, memory: view } = await node.addAnchor({ source: 'blockchain', memory: memory.id, reference: 'eip155:1:tx:0xabc', hash: `sha2-256:${'a'.repeat(64)}` }, signer)
    expect(anchorOf(view, id).verification).toMatchObject({ state: 'unverifiable', reason: expect.stringMatching(/cannot be checked offline/) })
  })
})
