import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { startFakeDaemon } from './daemon-fixture.js'
import { runIsnad, withTempDir, type CliResult } from './run-cli.js'

/*
 * One error code per kind of bad input, whatever the path (no daemon, through a daemon),
 * and usage errors — commander's own included — exit 2 in the documented `isnad: error USAGE: …` form.
 */

const NOT_A_CID = 'not-a-cid'

function expectCode (result: CliResult, code: string, exit: number): void {
  expect(result.errorCode(), result.stderr).toBe(code)
  expect(result.code, result.stderr).toBe(exit)
}

/** A bundle envelope of `count` records (their content is never reached: the envelope refuses them first). */
function bundleOf (count: number): string {
  return JSON.stringify({ format: 'isnad-bundle/v1', exported_at: '2026-01-01T00:00:00Z', records: Array.from({ length: count }, () => ({})) })
}

describe('one code per kind of bad input on every CLI path', () => {
  it('a malformed CID is CID_INVALID with or without a daemon, for show, explain, prove, export', async () => {
    await withTempDir(async (home) => {
      expect((await runIsnad(['init', '--json'], { home })).code).toBe(0)
      const commands = [['show', NOT_A_CID], ['trust', 'explain', NOT_A_CID], ['ledger', 'prove', NOT_A_CID], ['export', NOT_A_CID], ['anchor', 'check', NOT_A_CID]]
      for (const args of commands) expectCode(await runIsnad([...args, '--json'], { home }), 'CID_INVALID', 1)
      const daemon = await startFakeDaemon(home)
      try {
        for (const args of commands) expectCode(await runIsnad([...args, '--json'], { home }), 'CID_INVALID', 1)
      } finally {
        await daemon.stop()
      }
    })
  }, 60_000)

  it('a bundle of 4,097 records is FIELD_TOO_LARGE to verify and to import; a bad envelope BUNDLE_INVALID to both', async () => {
    await withTempDir(async (home) => {
      expect((await runIsnad(['init', '--json'], { home })).code).toBe(0)
      const big = join(home, 'big.json')
      await writeFile(big, bundleOf(4097))
      expectCode(await runIsnad(['verify', big, '--json'], { home }), 'FIELD_TOO_LARGE', 1)
      expectCode(await runIsnad(['import', big, '--json'], { home }), 'FIELD_TOO_LARGE', 1)
      const wrong = join(home, 'wrong.json')
      await writeFile(wrong, JSON.stringify({ format: 'zip', exported_at: '2026-01-01T00:00:00Z', records: [] }))
      expectCode(await runIsnad(['verify', wrong, '--json'], { home }), 'BUNDLE_INVALID', 1)
      expectCode(await runIsnad(['import', wrong, '--json'], { home }), 'BUNDLE_INVALID', 1)
    })
  }, 60_000)

  it('usage errors exit 2 in the isnad: error USAGE form, commander\'s own and the node\'s', async () => {
    await withTempDir(async (home) => {
      expect((await runIsnad(['init', '--json'], { home })).code).toBe(0)
      // No daemon: `peers` cannot run, which is USAGE and exit 2 like every USAGE.
      const peers = await runIsnad(['peers'], { home })
      expect(peers.code).toBe(2)
      expect(peers.stderr).toMatch(/^isnad: error USAGE: .*needs a running network node/m)
      expectCode(await runIsnad(['peers', 'stats', '--json'], { home }), 'USAGE', 2)
      for (const args of [['show'], ['query', '--bogus'], ['remember', 'x', '--confidence', 'lots'], ['no-such-command']]) {
        const text = await runIsnad(args, { home })
        expect(text.code, args.join(' ')).toBe(2)
        expect(text.stderr, args.join(' ')).toMatch(/^isnad: error USAGE: /)
        expectCode(await runIsnad([...args, '--json'], { home }), 'USAGE', 2)
      }
    })
  }, 60_000)
})
