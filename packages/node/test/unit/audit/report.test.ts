import { describe, expect, it } from 'vitest'
import { scoreOf, statusOf, planRepair, AuditFindingSchema, FindingsLineSchema, type AuditFinding, type AuditReport } from '../../../src/ledger/audit/index.js'
import { buildFinding, draftOfEntry, severityOf, type FindingDraft } from '../../../src/ledger/audit/findings.js'
import { verifyLineHash, withLineHash } from '../../../src/ledger/index.js'

const TS = '2026-02-16T06:00:00.000Z'
const STREAM = 'streams/default/ins_aaaaaaaaaaaaaaaaaaaaaaaaaa/2026-02-12.jsonl'
const ARCHIVE = 'archive/bus/default/2026-02-01.jsonl.gz'

function finding (draft: FindingDraft): AuditFinding {
  return buildFinding(draft, TS)
}

function reportOf (findings: AuditFinding[]): AuditReport {
  const errors = findings.filter((f) => f.severity === 'error').length
  return {
    dataDir: '/x', scope: 'default', ts: TS, findings, errors, warnings: findings.length - errors, status: statusOf(findings),
    score: scoreOf(errors, findings.length - errors), high_water: [], logs: [],
    stats: { files_checked: 1, lines_checked: 1, events: 1, records: 1, checkpoints: 0 }
  }
}

describe('findings', () => {
  it('have an id derived from what was found, not when; a valid hash; the schema', () => {
    const draft: FindingDraft = { kind: 'hash_mismatch', file: STREAM, offset: 120, line: 2, message: 'line 2: hash does not match' }
    const a = finding(draft)
    const b = buildFinding(draft, '2027-01-01T00:00:00.000Z')
    expect(a.id).toBe(b.id)
    expect(a.id).toMatch(/^fnd_[a-z2-7]{26}$/)
    expect(a.hash).not.toBe(b.hash)
    expect(verifyLineHash(a)).toBe(true)
    expect(AuditFindingSchema.parse(a)).toEqual(a)
    expect(FindingsLineSchema.safeParse(a).success).toBe(true)
    expect(finding({ ...draft, offset: 121 }).id).not.toBe(a.id)
  })

  it('share findings.jsonl with the torn tails recovery records', () => {
    const torn = withLineHash({
      id: 'fnd_aaaaaaaaaaaaaaaaaaaaaaaaaa', kind: 'torn_tail', file: STREAM, offset: 10, bytes: 3, reason: 'unterminated',
      evidence: 'governance/findings/torn/x.bin', sha256: 'a'.repeat(64), ts: TS
    })
    expect(FindingsLineSchema.safeParse(torn).success).toBe(true)
    expect(FindingsLineSchema.safeParse({ ...torn, severity: 'error' }).success).toBe(false)
  })

  it('map reader entries to kinds, good lines to nothing', () => {
    const at = { file: '/d/streams/x.jsonl', offset: 5, line: 2 }
    expect(draftOfEntry('/d', { ...at, kind: 'record', value: 1 })).toBeUndefined()
    expect(draftOfEntry('/d', { ...at, kind: 'torn_tail', length: 4 })).toMatchObject({ kind: 'torn_tail', file: 'streams/x.jsonl', offset: 5, line: 2 })
    for (const [reason, kind] of [['utf8', 'utf8_invalid'], ['json', 'json_invalid'], ['schema', 'schema_invalid'], ['hash', 'hash_mismatch'], ['order', 'lc_order'], ['archive', 'archive_unreadable']] as const) {
      expect(draftOfEntry('/d', { ...at, kind: 'corrupt', reason, message: 'm', length: 1 })?.kind, reason).toBe(kind)
    }
    expect(severityOf('unknown_file')).toBe('warning')
    expect(severityOf('lc_gap')).toBe('error')
  })
})

describe('the health score and status (scorecard)', () => {
  it('is 1 / (1 + errors + 0.25 × warnings), 3 decimals', () => {
    const cases: Array<[number, number, number]> = [[0, 0, 1], [1, 0, 0.5], [0, 1, 0.8], [0, 4, 0.5], [2, 2, 0.286], [99, 0, 0.01]]
    for (const [errors, warnings, score] of cases) expect(scoreOf(errors, warnings), `${errors}/${warnings}`).toBe(score)
  })

  it('is corrupt with a ledger error, degraded with warnings or index errors only, healthy with nothing', () => {
    expect(statusOf([])).toBe('healthy')
    expect(statusOf([finding({ kind: 'unknown_file', file: 'bus/x', message: 'stray' })])).toBe('degraded')
    expect(statusOf([finding({ kind: 'index_mismatch', file: 'index', message: 'stale' })])).toBe('degraded')
    expect(statusOf([finding({ kind: 'lc_gap', severity: 'warning', file: STREAM, message: 'explained' })])).toBe('degraded')
    expect(statusOf([finding({ kind: 'lc_gap', file: STREAM, message: 'lost' })])).toBe('corrupt')
  })
})

describe('planRepair', () => {
  const now = (): number => Date.parse(TS)

  it('sets aside bad lines of live shards (their torn tail with them), quarantines damaged archives, recovers torn tails elsewhere, reindexes after; the rest is unresolved', () => {
    const bad = finding({ kind: 'hash_mismatch', file: STREAM, offset: 0, line: 1, message: 'line 1: hash' })
    const tornSame = finding({ kind: 'torn_tail', file: STREAM, offset: 99, line: 3, message: 'torn' })
    const gap = finding({ kind: 'lc_gap', file: STREAM, offset: 50, line: 2, message: 'gap' })
    const tornOps = finding({ kind: 'torn_tail', file: 'coordination/reducers.jsonl', offset: 7, line: 2, message: 'torn' })
    const tornArchive = finding({ kind: 'torn_tail', file: ARCHIVE, offset: 7, line: 2, message: 'torn' })
    const opsBad = finding({ kind: 'hash_mismatch', file: 'coordination/leases.jsonl', offset: 0, line: 1, message: 'hash' })
    const fork = finding({ kind: 'equivocation', file: STREAM, offset: 60, line: 4, message: 'fork' })
    const plan = planRepair(reportOf([bad, tornSame, gap, tornOps, tornArchive, opsBad, fork]), { now })
    expect(plan.actions).toEqual([
      { kind: 'set_aside', file: STREAM, lines: [{ line: 1, offset: 0, reason: 'hash_mismatch: line 1: hash' }] },
      { kind: 'quarantine', file: ARCHIVE, reason: 'torn_tail: torn' },
      { kind: 'recover_tail', file: 'coordination/reducers.jsonl' },
      { kind: 'reindex' }
    ])
    expect(plan.unresolved).toEqual([gap.id, opsBad.id, fork.id])
    expect(plan.findings).toHaveLength(7)
    expect(plan.ts).toBe(TS)
    expect(verifyLineHash(plan)).toBe(true)
  })

  it('plans only a reindex for index findings, and nothing for a healthy report', () => {
    expect(planRepair(reportOf([finding({ kind: 'index_mismatch', file: 'index', message: 'stale' })]), { now }).actions).toEqual([{ kind: 'reindex' }])
    expect(planRepair(reportOf([]), { now })).toMatchObject({ actions: [], findings: [], unresolved: [] })
  })
})
