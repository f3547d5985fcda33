import { access, appendFile, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { isIsnadError } from '../../../src/errors/index.js'
import {
  ExecutionSchema, executeRepair, planRepair, RepairPlanSchema, writeAuditResults, type RepairPlan
} from '../../../src/ledger/audit/index.js'
import { busShardPath, openEventLedger, streamShardPath, TornTailFindingSchema, verifyLineHash, writerLockPath } from '../../../src/ledger/index.js'
import { collect, readJsonLines } from '../ledger/helpers.js'
import { audit, copyDataDir, createTempHome, SCOPE, summary, writeLedger, type BuiltLedger } from './fixture.js'

/** planRepair and executeRepair (issue 3 §5): quarantine, torn-tail recovery, reindex, all recorded. */
describe('repairing a data directory', () => {
  let home: { dataDir: string, remove: () => Promise<void> }
  let built: BuiltLedger
  let reindexed: Array<{ locked: boolean }>
  const reindex = async (): Promise<void> => {
    // the node's callback opens the node itself: the repair must have released the lock by then
    const locked = await access(writerLockPath(home.dataDir)).then(() => true, () => false)
    reindexed.push({ locked })
  }

  beforeEach(async () => {
    home = await createTempHome('repair')
    built = await writeLedger(home.dataDir)
    await writeAuditResults(await audit(home.dataDir, built.now))
    reindexed = []
  })
  afterEach(async () => { await home.remove() })

  const rel = (path: string): string => path.slice(home.dataDir.length + 1)

  async function damage (): Promise<{ corrupt: string, torn: string }> {
    const corrupt = streamShardPath(home.dataDir, SCOPE, built.instanceId, '2026-02-12')
    const lines = (await readFile(corrupt, 'utf8')).split('\n')
    lines[0] = (lines[0] as string).replace('"source":"local"', '"source":"gossip"')
    await writeFile(corrupt, lines.join('\n'))
    const torn = busShardPath(home.dataDir, SCOPE, '2026-02-15')
    await appendFile(torn, '{"schema_version":"diasync-v1-ev')
    return { corrupt, torn }
  }

  it('quarantines a corrupt shard, recovers a torn tail, then reindexes; readers no longer see the shard', async () => {
    const { corrupt, torn } = await damage()
    const before = await copyDataDir(home.dataDir, 'before')
    const stale = await openEventLedger({ dataDir: before.dataDir, scope: SCOPE })
    await expect(collect(stale.readEvents())).rejects.toSatisfy((err) => isIsnadError(err, 'LEDGER_CORRUPT'))
    await stale.close()
    await before.remove()

    const report = await audit(home.dataDir, built.now)
    const plan = planRepair(report, { now: () => built.now })
    expect(RepairPlanSchema.parse(plan)).toEqual(plan)
    expect(plan.actions).toEqual([
      { kind: 'quarantine', file: rel(corrupt), reason: expect.stringMatching(/^hash_mismatch: line 1/) },
      { kind: 'recover_tail', file: rel(torn) },
      { kind: 'reindex' }
    ])
    expect(plan.findings).toEqual(report.findings.map((f) => f.id))
    const unresolved = report.findings.filter((f) => plan.unresolved.includes(f.id)).map((f) => f.kind)
    expect(unresolved).toContain('lc_gap') // the events in the quarantined shard stay lost
    const shardBytes = await readFile(corrupt)

    const outcome = await executeRepair(plan, { dataDir: home.dataDir, reindex, now: () => built.now })
    expect(outcome.executions.map((e) => `${e.action.kind} ${e.status}`)).toEqual(['quarantine done', 'recover_tail done', 'reindex done'])
    expect(reindexed).toEqual([{ locked: false }])
    expect(await readFile(join(home.dataDir, 'archive/quarantine', rel(corrupt)))).toEqual(shardBytes)
    await expect(access(corrupt)).rejects.toThrow()

    const plans = await readJsonLines(join(home.dataDir, 'governance/actions/plans.jsonl'))
    const executions = await readJsonLines(join(home.dataDir, 'governance/actions/executions.jsonl'))
    expect(plans).toEqual([plan])
    expect(executions.map((e) => ExecutionSchema.parse(e).plan)).toEqual([plan.id, plan.id, plan.id])
    for (const line of [...plans, ...executions]) expect(verifyLineHash(line)).toBe(true)
    const tornFinding = (await readJsonLines(join(home.dataDir, 'governance/findings/findings.jsonl'))).find((f) => f.kind === 'torn_tail' && 'evidence' in f)
    expect(TornTailFindingSchema.parse(tornFinding)).toMatchObject({ file: rel(torn), bytes: 32 })

    const ledger = await openEventLedger({ dataDir: home.dataDir, scope: SCOPE })
    try {
      const events = await collect(ledger.readEvents())
      const lost = built.events.filter((e) => e.ts_wall.startsWith('2026-02-12') && e.type !== 'memory.witness_requested' && e.type !== 'memory.published')
      expect(lost.length).toBeGreaterThan(0)
      expect(events.map((e) => e.event_id)).toEqual(built.events.filter((e) => !lost.includes(e)).map((e) => e.event_id))
    } finally {
      await ledger.close()
    }

    // what the quarantine removed is still reported, as warnings the quarantine explains
    const after = await audit(home.dataDir, built.now)
    expect(after.errors).toBe(0)
    expect(after.status).toBe('degraded')
    expect(new Set(after.findings.map((f) => f.kind))).toEqual(new Set(['lc_gap', 'checkpoint_size']))
    for (const f of after.findings) expect(f.message).toContain('explained by the quarantine of archive/quarantine/')

    // the same plan again: nothing left to move, the rest is idempotent
    const second = await executeRepair(plan, { dataDir: home.dataDir, reindex, now: () => built.now + 1000 })
    expect(second.executions.map((e) => e.detail)).toEqual([`${rel(corrupt)} is gone already`, 'the tail is intact', 'the index was rebuilt from the ledgers'])
  })

  it('recovers the governance ledgers it appends to before it appends', async () => {
    for (const file of ['findings/findings.jsonl', 'actions/plans.jsonl', 'actions/executions.jsonl']) {
      await appendFile(join(home.dataDir, 'governance', file), '{"torn')
    }
    const report = await audit(home.dataDir, built.now)
    expect(summary(report).every((s) => s.startsWith('torn_tail error governance/'))).toBe(true)
    await expect(writeAuditResults(report)).rejects.toSatisfy((err) => isIsnadError(err, 'LEDGER_CORRUPT'))
    const outcome = await executeRepair(planRepair(report, { now: () => built.now }), { dataDir: home.dataDir, reindex, now: () => built.now })
    expect(outcome.executions.map((e) => `${e.action.kind} ${e.status}`)).toEqual(['recover_tail done', 'recover_tail done', 'recover_tail done', 'reindex done'])
    expect((await audit(home.dataDir, built.now)).findings).toEqual([])
  })

  it('records a failed action and carries on', async () => {
    const plan: RepairPlan = planRepair(await audit(home.dataDir, built.now, { indexCheck: async () => [{ message: 'stale' }] }), { now: () => built.now })
    expect(plan.actions).toEqual([{ kind: 'reindex' }])
    const outcome = await executeRepair(plan, { dataDir: home.dataDir, reindex: async () => { throw new Error('index locked') }, now: () => built.now })
    expect(outcome.executions).toMatchObject([{ status: 'failed', detail: 'index locked' }])
  })

  it('refuses to move files while a writer holds the data directory, unless the caller is that writer', async () => {
    const plan = planRepair(await audit(home.dataDir, built.now, { indexCheck: async () => [{ message: 'stale' }] }), { now: () => built.now })
    const ledger = await openEventLedger({ dataDir: home.dataDir, scope: SCOPE })
    try {
      await expect(executeRepair(plan, { dataDir: home.dataDir, reindex })).rejects.toSatisfy((err) => isIsnadError(err, 'LEDGER_LOCKED'))
      const outcome = await executeRepair(plan, { dataDir: home.dataDir, reindex, holdsLock: true, recovery: ledger.recovery })
      expect(outcome.executions.map((e) => e.status)).toEqual(['done'])
    } finally {
      await ledger.close()
    }
  })
})
