import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { Command } from 'commander'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { registerLedgerAudit } from '../../../src/cli/commands/ledger-audit.js'
import { createContext, type GlobalOptions } from '../../../src/cli/command-context.js'
import { reportError, type Output } from '../../../src/cli/output.js'
import { streamShardPath } from '../../../src/ledger/index.js'
import { writeMetaFiles } from '../../../src/ledger/meta/index.js'
import { readJsonLines } from '../ledger/helpers.js'
import { createTempHome, SCOPE, writeLedger, type BuiltLedger } from './fixture.js'

/** `isnad ledger verify | repair | archive`, run in-process on a real home (the lead wires `ledger` into runCli). */
describe('the ledger audit commands', () => {
  let home: { root: string, dataDir: string, remove: () => Promise<void> }
  let built: BuiltLedger
  let reindexed: number

  beforeEach(async () => {
    home = await createTempHome('cli')
    built = await writeLedger(home.dataDir)
    await writeMetaFiles(home.dataDir, { policy: { archive_after_days: 3 } })
    reindexed = 0
  })
  afterEach(async () => { await home.remove() })

  async function run (...args: string[]): Promise<{ code: number, stdout: string, stderr: string, json: <T>() => T }> {
    const json = args.includes('--json')
    let stdout = ''
    let stderr = ''
    const out: Output = { json, stdout: (t) => { stdout += t + '\n' }, stderr: (t) => { stderr += t + '\n' } }
    let code = 0
    const program = new Command('isnad').option('--home <dir>').option('--json').exitOverride()
    const ledger = program.command('ledger')
    registerLedgerAudit(ledger, (cmd) => createContext(cmd.optsWithGlobals<GlobalOptions>(), out), {
      reindex: async (ctx) => { expect(ctx.home).toBe(home.root); reindexed++ },
      setExit: (c) => { code = c },
      clock: () => built.now
    })
    try {
      await program.parseAsync(['node', 'isnad', '--home', home.root, ...args])
    } catch (err) {
      code = reportError(out, err)
    }
    return { code, stdout, stderr, json: <T>() => JSON.parse(stdout) as T }
  }

  it('verify: exit 0 and a healthy report on a clean ledger, written to the scorecards', async () => {
    const result = await run('ledger', 'verify', '--json')
    expect(result.code).toBe(0)
    expect(result.json()).toMatchObject({ status: 'healthy', score: 1, findings: [], stats: { events: built.events.length } })
    expect(await readJsonLines(join(home.dataDir, 'governance/health/scorecards.jsonl'))).toHaveLength(1)
    const text = await run('ledger', 'verify')
    expect(text.stdout).toMatch(/^healthy \(score 1\): \d+ files/)
  })

  it('verify: exit 1 with the findings; repair --dry-run plans and changes nothing; repair fixes what it can', async () => {
    const shard = streamShardPath(home.dataDir, SCOPE, built.instanceId, '2026-02-16')
    await writeFile(shard, (await readFile(shard, 'utf8')) + '{"torn')
    const verify = await run('ledger', 'verify')
    expect(verify.code).toBe(1)
    expect(verify.stdout).toContain('ERROR   torn_tail')
    const dry = await run('ledger', 'repair', '--dry-run', '--json')
    expect(dry.code).toBe(0)
    expect(dry.json<{ plan: { actions: unknown[] } }>().plan.actions).toEqual([{ kind: 'recover_tail', file: shard.slice(home.dataDir.length + 1) }, { kind: 'reindex' }])
    await expect(readFile(join(home.dataDir, 'governance/actions/plans.jsonl'))).rejects.toThrow()
    expect(reindexed).toBe(0)
    const repair = await run('ledger', 'repair', '--json')
    expect(repair.code).toBe(0)
    expect(repair.json<{ executions: Array<{ status: string }> }>().executions.map((e) => e.status)).toEqual(['done', 'done'])
    expect(reindexed).toBe(1)
    expect((await run('ledger', 'verify')).code).toBe(0)
    expect((await run('ledger', 'repair')).stdout).toContain('nothing to repair')
  })

  it('archive: the policy age by default, --older-than to override, a usage error for a bad age', async () => {
    const byPolicy = await run('ledger', 'archive', '--json')
    expect(byPolicy.code).toBe(0)
    expect(byPolicy.json<{ older_than_days: number, archived: unknown[] }>()).toMatchObject({ older_than_days: 3 })
    expect(byPolicy.json<{ archived: unknown[] }>().archived).toHaveLength(5)
    const more = await run('ledger', 'archive', '--older-than', '0')
    expect(more.stdout).toMatch(/^archived \d+ shards older than 0 days/)
    expect((await run('ledger', 'verify')).code).toBe(0)
    expect((await run('ledger', 'archive', '--older-than', 'soon')).code).not.toBe(0)
  })

  it('reports a broken _meta/policy.json by its code', async () => {
    await writeFile(join(home.dataDir, '_meta/policy.json'), 'not json')
    const result = await run('ledger', 'verify', '--json')
    expect(result.code).toBe(1)
    expect(result.stderr).toContain('JSON_INVALID')
  })
})
