import { appendFile, mkdir, readFile, rm, truncate, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  AuditFindingSchema, ScorecardSchema, writeAuditResults
} from '../../../src/ledger/audit/index.js'
import { buildEvent, openEventLedger, streamShardPath, verifyLineHash } from '../../../src/ledger/index.js'
import type { LedgerEvent } from '../../../src/schema/index.js'
import { createViewWriter, reduceMemory } from '../../../src/ledger/object-views/index.js'
import { createAgent, createAttestation, createMemory } from '../../fixtures/records.js'
import { listFiles, readJsonLines } from '../ledger/helpers.js'
import { audit, checkpointEvent, createTempHome, recordEvent, SCOPE, STEP_MS, summary, writeLedger, type BuiltLedger } from './fixture.js'

/** auditDataDir and writeAuditResults on real ledgers (spec §8–§10). */
describe('auditing a data directory', () => {
  let home: { dataDir: string, remove: () => Promise<void> }
  let built: BuiltLedger

  beforeEach(async () => {
    home = await createTempHome('audit')
    built = await writeLedger(home.dataDir)
  })
  afterEach(async () => { await home.remove() })

  const shard = (day: string): string => streamShardPath(home.dataDir, SCOPE, built.instanceId, day)
  /** Appends events through a second run of the event ledger, after the fixture's. */
  async function appendMore (inputs: Parameters<Awaited<ReturnType<typeof openEventLedger>>['append']>[0]): Promise<void> {
    let now = built.now
    const ledger = await openEventLedger({ dataDir: home.dataDir, scope: SCOPE, clock: () => (now += STEP_MS) })
    try {
      await ledger.append(inputs)
    } finally {
      await ledger.close()
    }
    built.now = now + STEP_MS
  }

  it('finds nothing in a healthy ledger, and rebuilds the log the checkpoints sign', async () => {
    const report = await audit(home.dataDir, built.now)
    expect(report.findings).toEqual([])
    expect(report).toMatchObject({ status: 'healthy', score: 1, errors: 0, warnings: 0 })
    expect(report.stats).toMatchObject({ events: built.events.length, records: built.recordIds.length, checkpoints: 2 })
    const last = built.events.at(-1)?.payload as { checkpoint: { record: { size: number, root: string } } }
    expect(report.logs).toEqual([{ scope: SCOPE, size: last.checkpoint.record.size, root: last.checkpoint.record.root }])
    expect(report.high_water).toEqual([{ scope: SCOPE, instance: built.instanceId, lc: built.events.length }])
  })

  it('records findings once and a scorecard per audit, every line hashed and valid', async () => {
    await appendFile(shard('2026-02-16'), '{"torn":')
    const first = await audit(home.dataDir, built.now)
    const results = await writeAuditResults(first)
    expect(results.written.map((f) => f.kind)).toEqual(['torn_tail'])
    const again = await writeAuditResults(await audit(home.dataDir, built.now + 1000))
    expect(again.written).toEqual([]) // the same problem has the same id
    const findings = await readJsonLines(join(home.dataDir, 'governance/findings/findings.jsonl'))
    const cards = await readJsonLines(join(home.dataDir, 'governance/health/scorecards.jsonl'))
    expect(findings).toHaveLength(1)
    expect(cards).toHaveLength(2)
    for (const line of [...findings, ...cards]) expect(verifyLineHash(line)).toBe(true)
    expect(AuditFindingSchema.parse(findings[0])).toMatchObject({ kind: 'torn_tail', severity: 'error', file: `streams/${SCOPE}/${built.instanceId}/2026-02-16.jsonl` })
    expect(ScorecardSchema.parse(cards[0])).toMatchObject({ status: 'corrupt', errors: 1, warnings: 0, score: 0.5 })
    // the audit checks its own lines too: still one finding
    expect(summary(await audit(home.dataDir, built.now))).toEqual([`torn_tail error streams/${SCOPE}/${built.instanceId}/2026-02-16.jsonl`])
  })

  it('reports a changed line by its file, line and offset, and the events it hides', async () => {
    const path = shard('2026-02-12')
    const text = await readFile(path, 'utf8')
    const lines = text.split('\n')
    lines[1] = (lines[1] as string).replace('"visibility":"private"', '"visibility":"public"')
    await writeFile(path, lines.join('\n'))
    const report = await audit(home.dataDir, built.now)
    const changed = report.findings.find((f) => f.kind === 'hash_mismatch')
    expect(changed).toMatchObject({ severity: 'error', line: 2, offset: (lines[0] as string).length + 1 })
    expect(report.findings.map((f) => f.kind)).toContain('lc_gap')
    // the hidden record event is missing from the log the later checkpoint signs
    expect(report.findings.map((f) => f.kind)).toContain('checkpoint_size')
    expect(report.status).toBe('corrupt')
  })

  it('checks every checkpoint: signature, size, root, and forks of one size', async () => {
    const ids = built.recordIds
    const forged = checkpointEvent(ids, new Date(built.now).toISOString(), new Uint8Array(32).fill(7))
    const short = checkpointEvent(ids.slice(0, -1), new Date(built.now).toISOString())
    const bad = checkpointEvent(ids, new Date(built.now).toISOString())
    const payload = bad.payload as { checkpoint: { signature: string } }
    payload.checkpoint.signature = (payload.checkpoint.signature.startsWith('A') ? 'B' : 'A') + payload.checkpoint.signature.slice(1)
    await appendMore([forged, short, { ...bad, idempotency_key: 'bad-signature' }])
    const kinds = (await audit(home.dataDir, built.now)).findings.map((f) => `${f.kind} ${f.severity}`)
    expect(kinds).toEqual(expect.arrayContaining(['checkpoint_root error', 'equivocation error', 'checkpoint_size error', 'checkpoint_invalid error']))
  })

  it('verifies the record each record event carries', async () => {
    const memory = createMemory(createAgent(4), { summary: 'carried under the wrong type' })
    const attestation = createAttestation(createAgent(5), memory.id)
    const tampered = recordEvent(attestation)
    const signed = (tampered.payload as { record: { record: { attestation: string } } }).record
    signed.record.attestation = 'dispute'
    await appendMore([recordEvent(memory, 'memory.attested'), tampered, recordEvent(createMemory(createAgent(4)), 'memory.distilled')])
    const findings = (await audit(home.dataDir, built.now)).findings.filter((f) => f.kind === 'record_invalid')
    expect(findings.map((f) => f.message)).toEqual([
      expect.stringContaining('a memory.attested event carries a memory record'),
      expect.stringContaining('SIGNATURE_INVALID'),
      expect.stringContaining('a memory.distilled event carries a memory without lineage.derived_from')
    ])
  })

  it('finds events in the wrong shard and events that appear twice', async () => {
    const first = built.events[0] as LedgerEvent
    const ctx = { scope: SCOPE, instanceId: built.instanceId, runId: first.run_id, tsWall: '2026-02-20T00:00:00.000Z' }
    const { line } = buildEvent({ type: 'memory.published', actor: 'node', owner: 'node', payload: {}, idempotency_key: 'late' }, ctx, built.events.length + 1, 0)
    await appendFile(shard('2026-02-13'), line + '\n')
    expect(summary(await audit(home.dataDir, built.now))).toEqual([`misplaced_line error streams/${SCOPE}/${built.instanceId}/2026-02-13.jsonl`])
    const copied = (await readFile(shard('2026-02-11'), 'utf8')).split('\n')[0] as string
    await writeFile(shard('2026-02-09'), copied + '\n')
    expect(summary(await audit(home.dataDir, built.now))).toEqual(expect.arrayContaining([
      `misplaced_line error streams/${SCOPE}/${built.instanceId}/2026-02-09.jsonl`,
      expect.stringMatching(/^duplicate_event error streams\/.*\/2026-02-1[01]\.jsonl$/)
    ]))
  })

  it('warns of stray files, and says degraded when only warnings or index issues remain', async () => {
    await writeFile(join(home.dataDir, 'streams', SCOPE, 'notes.txt'), 'hi')
    const report = await audit(home.dataDir, built.now, { indexCheck: async () => [{ message: 'record bafy… is in the ledger but not in the index' }] })
    expect(summary(report)).toEqual([`unknown_file warning streams/${SCOPE}/notes.txt`, 'index_mismatch error index'])
    expect(report).toMatchObject({ status: 'degraded', score: 0.444 })
    const failing = await audit(home.dataDir, built.now, { indexCheck: async () => { throw new Error('LOCK held') } })
    expect(failing.findings.find((f) => f.kind === 'index_mismatch')?.message).toContain('LOCK held')
  })

  it('remembers how far each instance got: events cut off the end are found by the next audit', async () => {
    await writeAuditResults(await audit(home.dataDir, built.now))
    const path = shard('2026-02-16')
    const text = await readFile(path, 'utf8')
    await truncate(path, text.lastIndexOf('\n', text.length - 2) + 1) // the last event, cut at a line boundary
    const report = await audit(home.dataDir, built.now)
    // named after the file of the last event left (here a bus shard)
    expect(summary(report)).toEqual([expect.stringMatching(/^lc_regressed error (streams|bus)\//)])
    expect(report.findings[0]?.message).toContain(`had reached lc ${built.events.length}`)
    await writeAuditResults(report)
    // the scorecard keeps the higher mark, so the loss stays reported
    expect(summary(await audit(home.dataDir, built.now))).toEqual(summary(report))
  })

  it('cross-checks events with the runs and instances of coordination/', async () => {
    const instances = join(home.dataDir, 'coordination/instances.jsonl')
    const [registered] = (await readFile(instances, 'utf8')).split('\n')
    await writeFile(instances, `${registered ?? ''}\n`)
    expect(summary(await audit(home.dataDir, built.now))).toEqual([expect.stringMatching(/^run_unregistered error streams\//)])
    await writeFile(instances, '')
    await rm(join(home.dataDir, 'coordination/leases.jsonl'))
    const kinds = (await audit(home.dataDir, built.now)).findings.map((f) => f.kind)
    expect(kinds).toEqual(['instance_unregistered', 'run_unregistered'])
  })

  it('cannot see whole lines cut off the end of an operational ledger (documented limit)', async () => {
    const leases = join(home.dataDir, 'coordination/leases.jsonl')
    const text = await readFile(leases, 'utf8')
    await truncate(leases, text.lastIndexOf('\n', text.length - 2) + 1) // the `released` line
    expect((await audit(home.dataDir, built.now)).findings).toEqual([])
  })

  it('checks that the copy of a torn tail recovery cut off is still there', async () => {
    await appendFile(shard('2026-02-16'), '{"torn":')
    await appendMore([]) // the reopen recovers the tail: copy, finding, truncation
    expect((await audit(home.dataDir, built.now)).findings).toEqual([])
    const torn = (await listFiles(join(home.dataDir, 'governance/findings/torn')))[0] as string
    await rm(join(home.dataDir, 'governance/findings/torn', torn))
    expect(summary(await audit(home.dataDir, built.now))).toEqual([`evidence_missing error governance/findings/torn/${torn}`])
  })

  it('checks operational ledgers of unknown shape for a hash, and view shards against their schema and place', async () => {
    await writeFile(join(home.dataDir, 'coordination/cursors.jsonl'), '{"cursor":1}\n')
    const memory = createMemory(createAgent(1), { summary: 'a fact worth a view', type: 'fact' })
    const reduction = reduceMemory({ memory, scope: SCOPE, eventRefs: [built.events[0]?.event_id ?? ''], trust: { score: 0.5, level: 'Unverified', dispute_count: 0 } })
    const written = await createViewWriter({ dataDir: home.dataDir }).write(reduction, new Date(built.now).toISOString())
    expect((await audit(home.dataDir, built.now)).findings.map((f) => f.file)).toEqual(['coordination/cursors.jsonl'])
    const object = join(home.dataDir, written.files.object)
    await mkdir(join(home.dataDir, 'views/facts', SCOPE), { recursive: true })
    await writeFile(join(home.dataDir, 'views/facts', SCOPE, '2025-01.jsonl'), await readFile(object))
    await appendFile(object, '{"schema_version":"diasync-v1-object"}\n')
    const report = await audit(home.dataDir, built.now)
    expect(summary(report)).toEqual([
      'schema_invalid error coordination/cursors.jsonl',
      `misplaced_line error views/facts/${SCOPE}/2025-01.jsonl`,
      `schema_invalid error ${written.files.object}`,
      // the copy is a state no reducer line names in that shard (its reduction names the real one)
      `reduction_unrecorded error views/facts/${SCOPE}/2025-01.jsonl`
    ])
  })
})
