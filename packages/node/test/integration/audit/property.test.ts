import { readFile, stat, truncate, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { archiveShards, writeAuditResults, type AuditReport } from '../../../src/ledger/audit/index.js'
import { listFiles } from '../ledger/helpers.js'
import { audit, copyDataDir, createTempHome, writeLedger, type BuiltLedger } from './fixture.js'

/**
 * The audit's promise: random bit flips and truncations of ledger files are always detected.
 *
 * The ledger: an event ledger written over seven UTC days (record events with real signed records,
 * a bus event per memory, two signed checkpoints), its two oldest days archived to .jsonl.gz, audited
 * clean, and that audit recorded (its scorecard is the baseline a later audit compares with). Each
 * run copies it, damages one file once, audits again, and must get at least one error finding.
 *
 * What is detected, and how:
 * - a bit flip in a JSON line: the line no longer parses, fails its schema, or its spec §8 hash;
 *   a flipped newline merges or splits lines, which then fail the same way, or leaves a torn tail;
 * - a bit flip in an archive: gzip's CRC-32 and length trailer, and the fixed header isnad writes
 *   (constants.ts ARCHIVE_GZIP_HEADER; gzip itself checks no header byte);
 * - a truncation inside a line: a torn tail; inside an archive: an incomplete gzip stream;
 * - a truncation at a line boundary of an event shard removes whole events: an lc gap when later
 *   events exist, a checkpoint whose size and root no longer match, or, for the newest events, the
 *   previous scorecard's high-water mark (lc_regressed).
 *
 * What cannot be detected, so the generator leaves it out: cutting whole lines off the end of an
 * operational ledger (coordination/, governance/). Their lines are not chained and nothing else
 * records how many there were, so the shorter file is a valid ledger that simply has fewer lines.
 * (Some such cuts are still caught, e.g. a run's `seen` line; the deterministic tests below show
 * which; the generator does not rely on them.)
 */

const OPERATIONAL = /^(coordination|governance)\//
const EVENT_SHARD = /^(streams|bus)\/.*\.jsonl$/

interface Fixture {
  dataDir: string
  built: BuiltLedger
  files: Array<{ rel: string, bytes: Buffer }>
}

let home: { dataDir: string, remove: () => Promise<void> }
let fixture: Fixture
/** The copy the runs damage, one file at a time, restored after each audit. */
let work: { dataDir: string, remove: () => Promise<void> }

beforeAll(async () => {
  home = await createTempHome('property')
  const built = await writeLedger(home.dataDir)
  const archived = await archiveShards({ dataDir: home.dataDir, olderThanDays: 4, now: () => built.now })
  expect(archived.archived.length).toBeGreaterThanOrEqual(2)
  const baseline = await audit(home.dataDir, built.now)
  expect(baseline.findings).toEqual([])
  await writeAuditResults(baseline)
  const rels = (await listFiles(home.dataDir)).filter((rel) => /\.jsonl(\.gz)?$/.test(rel))
  const files = await Promise.all(rels.map(async (rel) => ({ rel, bytes: await readFile(join(home.dataDir, rel)) })))
  fixture = { dataDir: home.dataDir, built, files: files.filter((f) => f.bytes.length > 0) }
  work = await copyDataDir(home.dataDir, 'work')
})

afterAll(async () => {
  await work.remove()
  await home.remove()
})

type Mutation =
  | { kind: 'flip', file: number, at: number, bit: number }
  | { kind: 'truncate', file: number, at: number }
  | { kind: 'truncate_line', file: number, at: number }

function lineStarts (bytes: Buffer): number[] {
  const starts = [0]
  for (let i = 0; i < bytes.length - 1; i++) if (bytes[i] === 0x0a) starts.push(i + 1)
  return starts
}

function target (m: Mutation): { rel: string, bytes: Buffer } {
  const candidates = m.kind === 'truncate_line' ? fixture.files.filter((f) => EVENT_SHARD.test(f.rel)) : fixture.files
  return candidates[m.file % candidates.length] as { rel: string, bytes: Buffer }
}

/** Applies `m` to the working copy; returns a description, or undefined for a case the property leaves out. */
async function apply (dataDir: string, m: Mutation): Promise<string | undefined> {
  const { rel, bytes } = target(m)
  const path = join(dataDir, rel)
  if (m.kind === 'flip') {
    const at = m.at % bytes.length
    const copy = Buffer.from(bytes)
    copy[at] = (copy[at] as number) ^ (1 << m.bit)
    await writeFile(path, copy)
    return `flip bit ${m.bit} of byte ${at} of ${rel} (${bytes.length} bytes)`
  }
  const starts = lineStarts(bytes)
  const at = m.kind === 'truncate_line' ? starts[m.at % starts.length] as number : m.at % bytes.length
  const atBoundary = rel.endsWith('.jsonl') && starts.includes(at)
  if (atBoundary && OPERATIONAL.test(rel)) return undefined // undetectable: see the header
  await truncate(path, at)
  return `truncate ${rel} (${bytes.length} bytes) to ${at}${atBoundary ? ' (a line boundary)' : ''}`
}

function explain (report: AuditReport): string {
  return report.findings.map((f) => `${f.severity} ${f.kind} ${f.file}: ${f.message}`).join('\n') || '(no findings)'
}

const mutations: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('flip' as const), file: fc.nat(), at: fc.nat(), bit: fc.integer({ min: 0, max: 7 }) }),
  fc.record({ kind: fc.constant('truncate' as const), file: fc.nat(), at: fc.nat() }),
  fc.record({ kind: fc.constant('truncate_line' as const), file: fc.nat(), at: fc.nat() })
)

/** Damages the working copy, audits it, and puts the file back as it was. */
async function damagedAudit (m: Mutation): Promise<{ what: string, report: AuditReport } | undefined> {
  const { rel, bytes } = target(m)
  try {
    const what = await apply(work.dataDir, m)
    if (what === undefined) return undefined
    return { what, report: await audit(work.dataDir, fixture.built.now) }
  } finally {
    await writeFile(join(work.dataDir, rel), bytes)
  }
}

describe('the audit detects every bit flip and truncation of a ledger file', () => {
  it('the fixture holds live and archived stream and bus shards and operational ledgers', async () => {
    const rels = fixture.files.map((f) => f.rel)
    for (const pattern of [/^streams\/.*\.jsonl$/, /^bus\/.*\.jsonl$/, /^archive\/streams\/.*\.jsonl\.gz$/, /^archive\/bus\/.*\.jsonl\.gz$/,
      /^coordination\/instances\.jsonl$/, /^coordination\/leases\.jsonl$/, /^governance\/health\/scorecards\.jsonl$/]) {
      expect(rels.some((r) => pattern.test(r)), String(pattern)).toBe(true)
    }
    expect((await stat(join(fixture.dataDir, rels[0] as string))).size).toBeGreaterThan(0)
  })

  it('finds at least one error after any random bit flip or truncation', async () => {
    await fc.assert(fc.asyncProperty(mutations, async (m) => {
      const result = await damagedAudit(m)
      fc.pre(result !== undefined)
      if (result === undefined) return
      expect(result.report.errors, `${result.what}\n${explain(result.report)}`).toBeGreaterThan(0)
    }), { numRuns: 300 })
  })

  it('finds an error for a truncation at every line boundary of every event shard', async () => {
    for (const [index, file] of fixture.files.entries()) {
      if (!EVENT_SHARD.test(file.rel)) continue
      for (const at of lineStarts(file.bytes).keys()) {
        const result = await damagedAudit({ kind: 'truncate_line', file: index, at }).then((r) => r as { what: string, report: AuditReport })
        expect(result.report.errors, `${result.what}\n${explain(result.report)}`).toBeGreaterThan(0)
      }
    }
  })
})
