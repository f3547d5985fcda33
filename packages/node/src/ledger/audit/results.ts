import { canonicalJson, derivedId, LEDGER_FILES, withLineHash, type RecoveryContext } from '../index.js'
import { appendLedgerLines, recordedIds } from './append.js'
import type { AuditReport } from './audit.js'
import { SCORECARD_DOMAIN } from './constants.js'
import type { AuditFinding, Scorecard } from './governance-lines.js'

/**
 * Records an audit: its findings in `governance/findings/findings.jsonl` (each id once:
 * a problem found again by a later audit is already there) and one health scorecard in
 * `governance/health/scorecards.jsonl`, both durable before this resolves.
 */

export interface WriteAuditResultsOptions {
  /** The node's recovery context (EventLedger.recovery): recovers a torn tail of the two files first. */
  recovery?: RecoveryContext
}

export interface AuditResults {
  /** The findings appended now (the others were recorded by an earlier audit). */
  written: AuditFinding[]
  scorecard: Scorecard
}

export function scorecardOf (report: AuditReport): Scorecard {
  const { stats } = report
  const content = {
    ts: report.ts,
    files_checked: stats.files_checked,
    lines_checked: stats.lines_checked,
    events: stats.events,
    records: stats.records,
    checkpoints: stats.checkpoints,
    errors: report.errors,
    warnings: report.warnings,
    score: report.score,
    status: report.status,
    high_water: report.high_water
  }
  return withLineHash({ id: derivedId('scorecard', SCORECARD_DOMAIN, [canonicalJson(content)]), ...content })
}

export async function writeAuditResults (report: AuditReport, options: WriteAuditResultsOptions = {}): Promise<AuditResults> {
  const known = await recordedIds(report.dataDir, LEDGER_FILES.findings)
  const written = report.findings.filter((f) => !known.has(f.id))
  await appendLedgerLines(report.dataDir, LEDGER_FILES.findings, written, options.recovery)
  const scorecard = scorecardOf(report)
  await appendLedgerLines(report.dataDir, LEDGER_FILES.scorecards, [scorecard], options.recovery)
  return { written, scorecard }
}
