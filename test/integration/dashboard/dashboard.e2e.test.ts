import { execFileSync } from 'node:child_process'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createNode } from '../../../src/index.js'
import { ensureBuilt, REPO } from '../../fixtures/build-dist.js'
import { runIsnad } from '../cli/run-cli.js'
import { startChildDaemon, type ChildDaemon } from './isnad-daemon.js'
import { launchChromium } from '../../fixtures/browser.js'

/*
 * The web dashboard end to end (issue 8 §3, §4): a real `isnad start` serves it, headless Chromium
 * (the packaged build of test/fixtures/browser.ts) drives it. The screenshot is kept in test-artifacts/.
 */

const ARTIFACTS = join(REPO, 'test-artifacts')

describe('the web dashboard in headless Chromium', () => {
  let home: string
  let peerHome: string
  let daemon: ChildDaemon
  let peer: ChildDaemon
  let url: string
  let witness: string
  let browser: Browser

  beforeAll(async () => {
    ensureBuilt()
    execFileSync(process.execPath, [join(REPO, 'scripts/build-dashboard.mjs')])
    home = await mkdtemp(join(tmpdir(), 'isnad-dashboard-'))
    peerHome = await mkdtemp(join(tmpdir(), 'isnad-dashboard-peer-'))
    // Seeded in this process through the library (a CLI process per step costs seconds here).
    const seed = await createNode({ home })
    witness = (await seed.operations.createKey({ label: 'witness' })).did
    const vpn = await seed.remember({ type: 'fact', summary: 'the staging deploy needs a VPN', tags: ['ops'] })
    await seed.remember({ type: 'observation', summary: 'lunch is at noon on Fridays', tags: ['office'] })
    await seed.requestWitnesses({ memory: vpn.id, to: [witness] })
    await writeFile(join(home, 'runbook.txt'), 'staging: connect the VPN first\n')
    await seed.addAnchor({ memory: vpn.id, source: 'file', path: join(home, 'runbook.txt') })
    await seed.checkAnchors(vpn.id)
    await seed.close()
    await (await createNode({ home: peerHome })).close()
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

  /** A page in its own context: its own sessionStorage, so no token carries over between tests. */
  async function openPage (address: string): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } })
    const page = await context.newPage()
    await page.goto(address)
    return page
  }

  it('loads, searches, opens a chain, attests from the inbox', async () => {
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/dashboard\/#token=/)
    const page = await openPage(url)
    await expect.poll(async () => await page.getByTestId('memory-item').count()).toBe(2)
    // The token left the address bar once the page had it.
    expect(page.url()).not.toContain('token')

    await page.getByTestId('search').fill('vpn')
    await expect.poll(async () => await page.getByTestId('memory-item').count()).toBe(1)
    await page.getByTestId('memory-item').click()
    await expect.poll(async () => await page.getByTestId('chain-verification').textContent()).toMatch(/^✓ 2 of 2 records verified in this browser/)
    expect(await page.locator('[data-role="author"]').getAttribute('data-valid')).toBe('true')
    expect(await page.locator('[data-role="anchor"]').getAttribute('data-valid')).toBe('true')
    expect(await page.locator('[data-role="anchor"] .node-heading').textContent()).toBe('cid · verified')

    const item = page.getByTestId('inbox-item')
    await expect.poll(async () => await item.count()).toBe(1)
    expect(await item.getByTestId('attest-as').inputValue()).toBe(witness)
    await item.getByTestId('attest-confirm').click()
    await expect.poll(async () => await page.getByTestId('inbox-status').textContent()).toMatch(/^confirm signed by/)
    await expect.poll(async () => await page.getByTestId('empty-inbox').count()).toBe(1)
    // The chain now has the witness, its confirm verified here like the author's signature.
    await expect.poll(async () => await page.getByTestId('chain-verification').textContent()).toMatch(/^✓ 3 of 3 records/)
    expect(await page.locator('[data-role="witness"]').getAttribute('data-valid')).toBe('true')
    expect(await page.locator('[data-role="witness"] .node-heading').textContent()).toBe('confirm')
    expect(await page.getByTestId('trust-explanation').textContent()).toContain('0.70 Anchored')

    await expect.poll(async () => await page.getByTestId('peer').count()).toBeGreaterThanOrEqual(1)
    await mkdir(ARTIFACTS, { recursive: true })
    await page.screenshot({ path: join(ARTIFACTS, 'dashboard.png'), fullPage: true })
    await page.context().close()
  })

  it('takes no signature on the node\'s word: a forged record shows as not verified', async () => {
    const page = await openPage(url)
    await page.route('**/v1/export', async (route) => {
      const response = await route.fetch()
      const bundle = await response.json() as { records: Array<{ record: { kind: string, content?: { summary: string } } }> }
      for (const r of bundle.records) if (r.record.content !== undefined) r.record.content.summary = 'the staging deploy needs no VPN'
      await route.fulfill({ response, json: bundle })
    })
    await page.getByTestId('search').fill('vpn')
    await page.getByTestId('memory-item').click()
    await expect.poll(async () => await page.getByTestId('chain-verification').textContent()).toMatch(/^✗ only 2 of 3 records verified/)
    expect(await page.locator('[data-role="author"]').getAttribute('data-valid')).toBe('false')
    await page.context().close()
  })

  it('says what is wrong and what to do: wrong token, no token, no memories, daemon gone', async () => {
    const wrong = await openPage(url.replace(/#token=.*/, '#token=not-the-token-of-this-node-at-all-000000'))
    await expect.poll(async () => await wrong.getByTestId('banner').textContent()).toContain('refused this page\'s token')
    expect(await wrong.getByTestId('banner').textContent()).toContain('isnad dashboard')
    await wrong.context().close()

    const none = await openPage(url.replace(/#token=.*/, ''))
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
    await empty.close()

    const result = await runIsnad(['dashboard'], { home: peerHome.replace(/$/, '-none') })
    expect(result.code).toBe(1)
    expect(result.stderr).toContain('isnad start')
  })
})
