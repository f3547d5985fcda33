import { execFileSync } from 'node:child_process'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createNode } from '../../../src/index.js'
import { bottomOfLevel, levelRank, topOfLevel, TRUST_LEVELS, type TrustLevel } from '../../../src/trust/index.js'
import { launchChromium } from '../../fixtures/browser.js'
import { ensureBuilt, REPO } from '../../fixtures/build-dist.js'
import { runIsnad } from '../cli/run-cli.js'
import { startChildDaemon, type ChildDaemon } from './isnad-daemon.js'
import { chainProblems, characterPositions, clippedText, cutPlaceholders, readChainGraph } from './layout.js'

/*
 * The web dashboard end to end: a real `isnad start` serves it, headless
 * Chromium (the packaged build of test/fixtures/browser.ts) drives it. The layout is asserted from
 * the positions the browser computed (layout.ts); the screenshot is kept in test-artifacts/.
 */

const ARTIFACTS = join(REPO, 'test-artifacts')
/** Longer than the page's REFRESH_MS (3 s), with room for a busy machine. */
const REFRESHED = { timeout: 15_000, interval: 250 }
const RLO = '\u202E'
/*
 * The search box matches every word against a memory's text and also its id and author, so a
 * three-letter word alone ("vpn") can turn up by chance in a freshly generated did:key or CID (a CI
 * run listed all three memories of one author for "vpn"): two words pin it down.
 */
const VPN_SEARCH = 'staging vpn'

describe('the web dashboard in headless Chromium', () => {
  let home: string
  let peerHome: string
  let daemon: ChildDaemon
  let peer: ChildDaemon
  let url: string
  let witness: string
  let outsider: string
  let browser: Browser

  beforeAll(async () => {
    ensureBuilt()
    execFileSync(process.execPath, [join(REPO, 'scripts/build-dashboard.mjs')])
    home = await mkdtemp(join(tmpdir(), 'isnad-dashboard-'))
    peerHome = await mkdtemp(join(tmpdir(), 'isnad-dashboard-peer-'))
    // Seeded in this process through the library (a CLI process per step costs seconds here).
    const seed = await createNode({ home })
    witness = (await seed.createKey({ label: 'witness' })).did
    const vpn = await seed.remember({ type: 'fact', summary: 'the staging deploy needs a VPN', tags: ['ops'] })
    await seed.remember({ type: 'observation', summary: 'lunch is at noon on Fridays', tags: ['office'] })
    // Written to read "invoice exe.txt" once the override reverses what follows it.
    await seed.remember({ type: 'fact', summary: `invoice ${RLO}txt.exe is safe to open`, tags: ['bidi'] })
    await seed.requestWitnesses({ id: vpn.id, to: [witness] })
    await writeFile(join(home, 'runbook.txt'), 'staging: connect the VPN first\n')
    await seed.addAnchor({ id: vpn.id, anchor: { source: 'file', path: join(home, 'runbook.txt') } })
    const repo = join(home, 'repo')
    await mkdir(repo)
    const git = (...args: string[]): string => execFileSync('git', ['-C', repo, '-c', 'user.name=t', '-c', 'user.email=t@example.org', ...args], { encoding: 'utf8' }).trim()
    git('init', '-q')
    await writeFile(join(repo, 'runbook.md'), 'connect the VPN first\n')
    git('add', '.')
    git('commit', '-q', '-m', 'runbook')
    await seed.addAnchor({ id: vpn.id, anchor: { source: 'git', repository: repo, commit: git('rev-parse', 'HEAD') } })
    await seed.checkAnchors({ id: vpn.id })
    // An agent of another node witnesses partially: its DID is no key of this node.
    const other = await createNode({ home: peerHome })
    outsider = (await other.status({})).agents[0]?.did ?? ''
    await other.importBundle({ bundle: await seed.exportBundle({ ids: [vpn.id] }) })
    await other.attest({ id: vpn.id, verdict: 'partial', notes: 'read the runbook, did not try the VPN', claims: ['the runbook says so', 'staging only'] })
    await seed.importBundle({ bundle: await other.exportBundle({ ids: [vpn.id] }) }) // the memory with its evidence
    await other.close()
    await seed.close()
    daemon = await startChildDaemon(home)
    peer = await startChildDaemon(peerHome, daemon.addrs)
    url = (await runIsnad(['dashboard', '--json'], { home })).json<{ url: string }>().url
    browser = await launchChromium()
  }, 120_000)

  afterAll(async () => {
    await browser?.close()
    await peer?.stop()
    await daemon?.stop()
    await rm(home, { recursive: true, force: true })
    await rm(peerHome, { recursive: true, force: true })
  })

  /** A page in its own context (its own sessionStorage), with every console error and failed load it saw. */
  async function openPage (address: string): Promise<{ page: Page, errors: string[] }> {
    const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } })
    const page = await context.newPage()
    const errors: string[] = []
    page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()) })
    page.on('pageerror', (e) => { errors.push(e.message) })
    page.on('response', (r) => { if (r.status() >= 400) errors.push(`${r.status()} ${r.url()}`) })
    await page.goto(address)
    return { page, errors }
  }

  it('loads without an error, names agents compactly, fits its placeholders, serves its icon', async () => {
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/dashboard\/#token=/)
    const { page, errors } = await openPage(url)
    await expect.poll(async () => await page.getByTestId('memory-item').count()).toBe(3)
    await expect.poll(async () => await page.getByTestId('gossip-health').count()).toBe(1)
    // One trust scale: each memory's score lies in its level's band, and no memory sits above one
    // of a higher level.
    const shown = (await page.locator('[data-testid="memory-item"] .level').allTextContents()).map((text) => {
      const [level, score] = text.split(' ') as [TrustLevel, string]
      return { level, score: Number(score) }
    })
    expect(shown).toHaveLength(3)
    for (const { level, score } of shown) {
      expect(TRUST_LEVELS).toContain(level)
      expect(score).toBeGreaterThanOrEqual(bottomOfLevel(level))
      expect(score).toBeLessThanOrEqual(topOfLevel(level))
    }
    expect(shown.map(({ level }) => levelRank(level))).toEqual(shown.map(({ level }) => levelRank(level)).sort((a, b) => b - a))
    // The token left the address bar once the page had it.
    expect(page.url()).not.toContain('token')

    const icon = await page.locator('link[rel="icon"]').getAttribute('href')
    const iconResponse = await page.request.get(new URL(icon ?? '', page.url()).toString())
    expect(iconResponse.status()).toBe(200)
    expect(iconResponse.headers()['content-type']).toBe('image/svg+xml')
    expect(errors).toEqual([])

    // The header: labels first, no full DID, one line.
    const agents = page.getByTestId('header-agents')
    expect(await agents.textContent()).toBe('2 agents: default, witness')
    expect(await page.getByTestId('status').textContent()).not.toMatch(/did:key:z\w{20}/)
    expect((await page.locator('header').boundingBox())?.height).toBeLessThan(60)

    expect(await cutPlaceholders(page)).toEqual([])
    await page.context().close()
  })

  it('shows direction controls in a memory\'s text instead of applying them', async () => {
    const { page } = await openPage(url)
    await page.getByTestId('search').fill('invoice')
    await expect.poll(async () => await page.getByTestId('memory-item').count()).toBe(1)
    const summary = page.getByTestId('memory-summary')
    // In logical order on screen: each character of "txt.exe" right of the one before.
    const listed = await characterPositions(page, '[data-testid="memory-summary"]', 'txt.exe')
    expect(listed, listed.join(' ')).toEqual([...listed].sort((a, b) => a - b))
    // The override is shown, not applied, and the text is isolated from what surrounds it.
    expect(await summary.textContent()).toBe('invoice [U+202E]txt.exe is safe to open')
    expect(await summary.evaluate((e) => e.localName)).toBe('bdi')
    await page.getByTestId('memory-item').click()
    await expect.poll(async () => await page.getByTestId('detail-summary').textContent()).toBe('invoice [U+202E]txt.exe is safe to open')
    const detailed = await characterPositions(page, '[data-testid="detail-summary"]', 'txt.exe')
    expect(detailed, detailed.join(' ')).toEqual([...detailed].sort((a, b) => a - b))
    expect(await page.getByTestId('bidi-control').first().getAttribute('title')).toContain('RIGHT-TO-LEFT OVERRIDE')
    await mkdir(ARTIFACTS, { recursive: true })
    await page.screenshot({ path: join(ARTIFACTS, 'dashboard-bidi.png') })
    await page.context().close()
  })

  it('opens a chain, attests from the inbox, draws the chain as it is', async () => {
    const { page } = await openPage(url)
    await page.getByTestId('search').fill(VPN_SEARCH)
    await expect.poll(async () => await page.getByTestId('memory-item').count()).toBe(1)
    await page.getByTestId('memory-item').click()
    await expect.poll(async () => await page.getByTestId('chain-verification').textContent()).toMatch(/^✓ 4 of 4 records verified in this browser/)
    expect(await page.locator('[data-role="author"]').getAttribute('data-valid')).toBe('true')
    expect(await page.locator('[data-role="anchor"]').evaluateAll((as) => as.map((a) => a.getAttribute('data-valid')))).toEqual(['true', 'true'])
    const anchorHeadings = await page.locator('[data-role="anchor"] .node-heading').allTextContents()
    expect(anchorHeadings).toContain('cid · verified')
    expect(anchorHeadings.find((t) => t.startsWith('git_commit · '))).toBeDefined()
    // The partial witness of another node: its notes, its claims, its DID shortened (no label here).
    const partial = page.locator('[data-role="witness"]', { has: page.locator('.node-heading', { hasText: 'partial' }) })
    expect(await partial.getByTestId('witness-notes').textContent()).toBe('notes: read the runbook, did not try the VPN')
    expect(await partial.locator('[data-testid="witness-claims"] li').allTextContents()).toEqual(['the runbook says so', 'staging only'])
    expect(await partial.locator('.agent').getAttribute('data-did')).toBe(outsider)
    expect(await partial.locator('.agent').textContent()).toBe(`${outsider.slice(0, 14)}…${outsider.slice(-6)}`)
    // The author is a key of this node: its label, not its DID.
    expect(await page.locator('[data-role="author"] .agent').textContent()).toBe('defaultthis node')

    const item = page.getByTestId('inbox-item')
    await expect.poll(async () => await item.count()).toBe(1)
    expect(await item.getByTestId('attest-as').inputValue()).toBe(witness)
    expect(await cutPlaceholders(page)).toEqual([])
    await item.getByTestId('attest-confirm').click()
    await expect.poll(async () => await page.getByTestId('inbox-status').textContent()).toMatch(/^confirm signed by witness: attestation /)
    await expect.poll(async () => await page.getByTestId('empty-inbox').count()).toBe(1)
    // The chain now has the witness, its confirm verified here like the author's signature.
    await expect.poll(async () => await page.getByTestId('chain-verification').textContent()).toMatch(/^✓ 5 of 5 records/)
    const confirm = page.locator('[data-role="witness"]', { has: page.locator('.node-heading', { hasText: 'confirm' }) })
    expect(await confirm.getAttribute('data-valid')).toBe('true')
    expect(await confirm.locator('.agent').textContent()).toBe('witnessthis node')
    // Trust is the node's business (its levels may change): a score and a level are shown.
    expect(await page.getByTestId('trust-explanation').textContent()).toMatch(/\d\.\d\d \w+ · policy/)

    // The graph: one edge from the memory to each witness and anchor, none through another box, no
    // text outside its box (git_commit among them); at this width and at a narrower one.
    for (const width of [1400, 1000]) {
      await page.setViewportSize({ width, height: 1000 })
      await expect.poll(async () => chainProblems(await readChainGraph(page), 4)).toEqual([])
      expect(await clippedText(page, '[data-testid="chain-graph"] [data-role]'), `at ${width} px`).toEqual([])
      expect(await clippedText(page, '[data-testid="chain-graph"] .node-heading'), `at ${width} px`).toEqual([])
    }
    await page.setViewportSize({ width: 1400, height: 1000 })

    await expect.poll(async () => await page.getByTestId('peer').count(), REFRESHED).toBeGreaterThanOrEqual(1)
    await mkdir(ARTIFACTS, { recursive: true })
    await page.screenshot({ path: join(ARTIFACTS, 'dashboard.png'), fullPage: true })
    await page.context().close()
  })

  it('takes no signature on the node\'s word: a forged record shows as not verified', async () => {
    const { page } = await openPage(url)
    await page.route('**/v1/export', async (route) => {
      const response = await route.fetch()
      const bundle = await response.json() as { records: Array<{ record: { kind: string, content?: { summary: string } } }> }
      for (const r of bundle.records) if (r.record.content !== undefined) r.record.content.summary = 'the staging deploy needs no VPN'
      await route.fulfill({ response, json: bundle })
    })
    await page.getByTestId('search').fill(VPN_SEARCH)
    await page.getByTestId('memory-item').click()
    await expect.poll(async () => await page.getByTestId('chain-verification').textContent()).toMatch(/^✗ only 4 of 5 records verified/)
    expect(await page.locator('[data-role="author"]').getAttribute('data-valid')).toBe('false')
    await page.context().close()
  })

  it('says what is wrong and what to do: wrong token, no token, no memories, daemon gone', async () => {
    const { page: wrong } = await openPage(url.replace(/#token=.*/, '#token=not-the-token-of-this-node-at-all-000000'))
    await expect.poll(async () => await wrong.getByTestId('banner').textContent()).toContain('refused this page\'s token')
    expect(await wrong.getByTestId('banner').textContent()).toContain('isnad dashboard')
    await wrong.context().close()

    const { page: none } = await openPage(url.replace(/#token=.*/, ''))
    await expect.poll(async () => await none.getByTestId('banner').textContent()).toContain('no API token')
    await none.context().close()

    const empty = await browser.newContext()
    const emptyPage = await empty.newPage()
    await emptyPage.route('**/v1/memories?*', async (route) => { await route.fulfill({ json: { items: [] } }) })
    await emptyPage.goto(url)
    await expect.poll(async () => await emptyPage.getByTestId('empty-memories').textContent()).toContain('isnad remember')
    // The daemon stops answering: the next refresh says so.
    await emptyPage.route('**/v1/**', async (route) => { await route.abort('connectionrefused') })
    await emptyPage.click('#refresh')
    await expect.poll(async () => await emptyPage.getByTestId('banner').textContent()).toContain('it is not running')
    expect(await emptyPage.locator('#panels').isHidden()).toBe(true)
    // It answers again: the next periodic read notices, and every panel comes back.
    await emptyPage.unroute('**/v1/**')
    await expect.poll(async () => await emptyPage.getByTestId('banner').isHidden(), REFRESHED).toBe(true)
    expect(await emptyPage.locator('#panels').isVisible()).toBe(true)
    await expect.poll(async () => await emptyPage.getByTestId('empty-memories').count()).toBe(1)
    await empty.close()

    const result = await runIsnad(['dashboard'], { home: peerHome.replace(/$/, '-none') })
    // USAGE exits 2, whatever the command.
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('isnad start')
  })

  // Last: it stops both daemons.
  it('follows the network on its own: a peer leaving, then the daemon stopping, clear what they showed', async () => {
    const { page } = await openPage(url)
    await expect.poll(async () => await page.getByTestId('peer').count(), REFRESHED).toBe(1)
    await peer.stop()
    await expect.poll(async () => await page.getByTestId('no-peers').count(), REFRESHED).toBe(1)
    expect(await page.getByTestId('gossip-health').textContent()).not.toContain('Healthy')

    await page.getByTestId('search').fill(VPN_SEARCH)
    await page.getByTestId('memory-item').click()
    await expect.poll(async () => await page.getByTestId('chain-graph').count()).toBe(1)
    await daemon.stop()
    await expect.poll(async () => await page.getByTestId('banner').textContent(), REFRESHED).toContain('it is not running')
    // Nothing of what the daemon said stays on the page: no peers, no health, no memories, no chain.
    expect(await page.getByTestId('gossip-health').count()).toBe(0)
    expect(await page.getByTestId('memory-item').count()).toBe(0)
    expect(await page.getByTestId('chain-graph').count()).toBe(0)
    expect(await page.locator('#panels').isHidden()).toBe(true)
    expect(await page.getByTestId('status').textContent()).toBe('not connected to the node')
    await page.context().close()
  })
})
