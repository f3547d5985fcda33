import { access, appendFile, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { isIsnadError } from '../../../src/errors/index.js'
import {
  ExecutionSchema, executeRepair, planRepair, RepairPlanSchema, restoreSetAside, SetAsideLineSchema, writeAuditResults, type RepairPlan
} from '../../../src/ledger/audit/index.js'
import { busShardPath, openEventLedger, streamShardPath, TornTailFindingSchema, verifyLineHash, writerLockPath } from '../../../src/ledger/index.js'
import { collect, readJsonLines } from '../ledger/helpers.js'
import { audit, copyDataDir, createTempHome, SCOPE, summary, writeLedger, type BuiltLedger } from './fixture.js'

/** planRepair and executeRepair: quarantine, torn-tail recovery, reindex, all recorded. */
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

  it('sets aside the one bad line (the shard keeps the rest), recovers a torn tail, reindexes; restore puts the fixed line back and the ledger is healthy again', async () => {
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
      { kind: 'set_aside', file: rel(corrupt), lines: [{ line: 1, offset: 0, reason: expect.stringMatching(/^hash_mismatch: line 1/) }] },
      { kind: 'recover_tail', file: rel(torn) },
      { kind: 'reindex' }
    ])
    expect(plan.findings).toEqual(report.findings.map((f) => f.id))
    const shardLines = (await readFile(corrupt, 'utf8')).split('\n')

    const outcome = await executeRepair(plan, { dataDir: home.dataDir, reindex, now: () => built.now })
    expect(outcome.executions.map((e) => `${e.action.kind} ${e.status}`)).toEqual(['set_aside done', 'recover_tail done', 'reindex done'])
    expect(reindexed).toEqual([{ locked: false }])
    // every other line stays, byte for byte and in order; the bad one is kept aside with its place and bytes
    expect(await readFile(corrupt, 'utf8')).toBe(shardLines.slice(1).join('\n'))
    const asideFile = join(home.dataDir, 'archive/quarantine/lines', rel(corrupt))
    const [aside] = await readJsonLines(asideFile)
    expect(SetAsideLineSchema.parse(aside)).toMatchObject({ file: rel(corrupt), line: 1, offset: 0, text: shardLines[0] })
    const damagedEvent = JSON.parse(shardLines[0] as string) as { event_id: string, payload: { id: string } }
    expect((aside as { names: string[] }).names).toEqual(expect.arrayContaining([damagedEvent.event_id, damagedEvent.payload.id]))

    const plans = await readJsonLines(join(home.dataDir, 'governance/actions/plans.jsonl'))
    const executions = await readJsonLines(join(home.dataDir, 'governance/actions/executions.jsonl'))
    expect(plans).toEqual([plan])
    expect(executions.map((e) => ExecutionSchema.parse(e).plan)).toEqual([plan.id, plan.id, plan.id])
    for (const line of [...plans, ...executions]) expect(verifyLineHash(line)).toBe(true)
    const tornFinding = (await readJsonLines(join(home.dataDir, 'governance/findings/findings.jsonl'))).find((f) => f.kind === 'torn_tail' && 'evidence' in f)
    expect(TornTailFindingSchema.parse(tornFinding)).toMatchObject({ file: rel(torn), bytes: 32 })

    const eventIds = async (): Promise<string[]> => {
      const ledger = await openEventLedger({ dataDir: home.dataDir, scope: SCOPE })
      try {
        return (await collect(ledger.readEvents())).map((e) => e.event_id)
      } finally {
        await ledger.close()
      }
    }
    // only the damaged event is gone; the day's other events are all there
    expect(await eventIds()).toEqual(built.events.map((e) => e.event_id).filter((id) => id !== damagedEvent.event_id))

    // the hole is reported, as warnings the set-aside file explains; a second run of the plan moves nothing
    const after = await audit(home.dataDir, built.now)
    expect(after.errors).toBe(0)
    expect(after.status).toBe('degraded')
    expect(new Set(after.findings.map((f) => f.kind))).toEqual(new Set(['lc_gap', 'checkpoint_size']))
    for (const f of after.findings) expect(f.message).toContain('explained by the quarantine of archive/quarantine/lines/')
    const second = await executeRepair(plan, { dataDir: home.dataDir, reindex, now: () => built.now + 1000 })
    expect(second.executions.map((e) => e.detail)).toEqual([`${rel(corrupt)}: the lines are not where the plan saw them (gone already)`, 'the tail is intact', 'the index was rebuilt from the ledgers'])
    expect(await readFile(corrupt, 'utf8')).toBe(shardLines.slice(1).join('\n'))

    // restore refuses the line while it is still bad, and changes nothing
    const shardNow = await readFile(corrupt)
    await expect(restoreSetAside({ dataDir: home.dataDir, file: asideFile })).rejects.toSatisfy((err) => isIsnadError(err, 'LEDGER_CORRUPT'))
    expect(await readFile(corrupt)).toEqual(shardNow)
    // a person fixes the text; restore puts it back at its place and the ledger is whole again
    const fixed = { ...(aside as Record<string, unknown>), text: (shardLines[0] as string).replace('"source":"gossip"', '"source":"local"') }
    await writeFile(asideFile, `${JSON.stringify(fixed)}\n`)
    const restored = await restoreSetAside({ dataDir: home.dataDir, file: asideFile })
    expect(restored).toEqual({ file: `${rel(asideFile)}.restored`, shard: rel(corrupt), restored: 1, present: 0 })
    expect(await eventIds()).toEqual(built.events.map((e) => e.event_id))
    expect((await audit(home.dataDir, built.now)).findings).toEqual([])
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
