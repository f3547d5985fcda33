import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { MAX_BODY_BYTES } from '../../../src/schema/index.js'
import { runIsnad, withTempDir } from './run-cli.js'

/*
 * The commands generated from the table's `cli` declarations (src/cli/table-commands.ts), through
 * the built CLI on a real home: the declaration features that other CLI tests do not reach (a
 * field read from stdin, a positional file from stdin, -o, the exit status of an invalid document,
 * follow, readable labels in help).
 */

describe('generated commands on a real home', () => {
  it('reads a body from stdin or a file, refuses one past its limit, and prints only the id with -q', async () => {
    await withTempDir(async (home) => {
      expect((await runIsnad(['init'], { home })).code).toBe(0)
      const fromStdin = await runIsnad(['remember', 'from stdin', '--body-file', '-', '--json'], { home, stdin: 'line one\nline two' })
      expect(fromStdin.code, fromStdin.stderr).toBe(0)
      expect(fromStdin.json<{ content: { body: string } }>().content.body).toBe('line one\nline two')
      const file = join(home, 'body.txt')
      await writeFile(file, 'the body')
      const quiet = await runIsnad(['remember', 'from a file', '--body-file', file, '-q'], { home })
      expect(quiet.stdout.trim()).toMatch(/^bafyrei[a-z2-7]+$/)
      const show = await runIsnad(['show', quiet.stdout.trim(), '--json'], { home })
      expect(show.json<{ content: { body: string } }>().content.body).toBe('the body')
      await writeFile(file, 'x'.repeat(MAX_BODY_BYTES + 1))
      const big = await runIsnad(['remember', 'too big', '--body-file', file, '--json'], { home })
      expect(big.errorCode()).toBe('RECORD_TOO_LARGE')
      expect(big.code).toBe(1)
    })
  }, 120_000)

  it('exports to a file with -o, verifies it from stdin, and exits 1 for a tampered copy', async () => {
    await withTempDir(async (home) => {
      expect((await runIsnad(['init'], { home })).code).toBe(0)
      const memory = (await runIsnad(['remember', 'the zebra is striped', '-q'], { home })).stdout.trim()
      const file = join(home, 'bundle.json')
      const exported = await runIsnad(['export', memory, '-o', file], { home })
      expect(exported.code, exported.stderr).toBe(0)
      expect(exported.stdout).toBe('')
      expect(exported.stderr.trim()).toBe(`wrote 1 records to ${file}`)
      const text = await readFile(file, 'utf8')
      const valid = await runIsnad(['verify', '-'], { home, stdin: text })
      expect(valid.code, valid.stderr).toBe(0)
      expect(valid.stdout).toMatch(/^valid bundle \(1 records\)/)
      // verify opens nothing: it runs where no home exists.
      const offline = await runIsnad(['verify', file], { home: join(home, 'no-such-home') })
      expect(offline.code, offline.stderr).toBe(0)
      const tampered = await runIsnad(['verify', '-', '--json'], { home, stdin: text.replace('zebra', 'horse') })
      expect(tampered.code).toBe(1)
      expect(tampered.json<{ valid: boolean }>().valid).toBe(false)
    })
  }, 120_000)

  it('observes a checkpoint read from stdin', async () => {
    await withTempDir(async (home) => {
      expect((await runIsnad(['init'], { home })).code).toBe(0)
      expect((await runIsnad(['remember', 'logged', '-q'], { home })).code).toBe(0)
      const checkpoint = (await runIsnad(['ledger', 'checkpoint', '--json'], { home })).stdout
      const observed = await runIsnad(['ledger', 'observe', '-'], { home, stdin: checkpoint })
      expect(observed.code, observed.stderr).toBe(0)
      expect(observed.stdout.trim()).toMatch(/^(kept|already known)$/)
      expect((await runIsnad(['ledger', 'observe', '-', '--json'], { home, stdin: '{' })).errorCode()).toBe('JSON_INVALID')
    })
  }, 120_000)

  it('follows and lists authors and tags; refuses an unknown action as USAGE', async () => {
    await withTempDir(async (home) => {
      expect((await runIsnad(['init'], { home })).code).toBe(0)
      expect((await runIsnad(['follow', 'add', '--tag', 'rust'], { home })).code).toBe(0)
      const list = await runIsnad(['follow', 'list'], { home })
      expect(list.stdout).toMatch(/^tag {4}rust {2}since /)
      const bad = await runIsnad(['follow', 'maybe'], { home })
      expect(bad.code).toBe(2)
      expect(bad.stderr).toMatch(/^isnad: error USAGE: /)
    })
  }, 120_000)

  it('selects with the default key as selector and a minimum level, and refuses an option of the plain query with --select', async () => {
    await withTempDir(async (home) => {
      expect((await runIsnad(['init'], { home })).code).toBe(0)
      const did = (await runIsnad(['id', 'show', '--json'], { home })).json<{ did: string }>().did
      expect((await runIsnad(['remember', 'selected', '--tag', 'pick'], { home })).code).toBe(0)
      const selected = (await runIsnad(['query', '--select', '--tag', 'pick', '--json'], { home })).json<Array<{ evidence: { verifiedBy: string } }>>()
      expect(selected.map((s) => s.evidence.verifiedBy)).toEqual([did])
      // --min-level goes with both: a memory no one witnessed is below Attested.
      const levelled = async (level: string): Promise<unknown[]> => (await runIsnad(['query', '--select', '--tag', 'pick', '--min-level', level, '--json'], { home })).json<unknown[]>()
      expect(await levelled('Unverified')).toHaveLength(1)
      expect(await levelled('Attested')).toEqual([])
      const refused = await runIsnad(['query', '--select', '--cursor', 'x'], { home })
      expect(refused.code).toBe(2)
      expect(refused.stderr).toContain('--cursor does not go with --select')
    })
  }, 120_000)

  it('labels positional arguments for a person', async () => {
    const help = async (...words: string[]): Promise<string> => (await runIsnad([...words, '--help'])).stdout
    expect(await help('show')).toMatch(/^Usage: isnad show \[options\] <memory>$/m)
    expect(await help('attest')).toMatch(/^Usage: isnad attest \[options\] <memory> <verdict>$/m)
    expect(await help('export')).toMatch(/^Usage: isnad export \[options\] <memory\.\.\.>$/m)
    expect(await help('peers', 'disconnect')).toMatch(/<peer-id>/)
    expect(await help('verify')).toMatch(/<file>/)
  }, 60_000)
})
