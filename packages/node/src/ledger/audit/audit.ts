import { IsnadError } from '../../errors/index.js'
import type { SignatureVerifier } from '../../identity/index.js'
import { scopeName } from '../../schema/index.js'
import { LEDGER_FILES } from '../index.js'
import { BLOCK_KINDS, checkBlocks, type BlockCheck, type BlockScan } from './blockstore-audit.js'
import { WARNING_WEIGHT } from './constants.js'
import { createAuditContext, type AuditContext, type AuditStats } from './audit-context.js'
import { auditScopeEvents, type ScopeAudit } from './event-audit.js'
import { CheckpointRegistry } from './log-audit.js'
import { auditOperational, auditViews, type OperationalFacts } from './operational.js'
import { QuarantineIndex } from './quarantine-index.js'
import { auditReductions } from './reduction-audit.js'
import { LedgerFactsCollector, type LedgerFacts } from './ledger-facts.js'
import type { AuditFinding, FindingKind, HealthStatus, LcMark, Severity } from './governance-lines.js'
import { walkLedgerTree } from './walk.js'

/**
 * `isnad ledger verify` (docs/architecture.md, "The data directory"): walks every ledger file of a data directory and
 * reports what is wrong as findings. Read-only; writeAuditResults records the report.
 */

/** One disagreement between the LevelDB index and the ledger, as the node's check reports it. */
export interface IndexIssue {
  message: string
  /**
   * `index_missing`: the index (or a part) is not there; `index_corrupt`: LevelDB reports damaged
   * files; `index_mismatch`: it opens but disagrees with the ledger. All are fixed by a reindex.
   * @default 'index_mismatch'
   */
  kind?: IndexFindingKind
  /** @default 'error' */
  severity?: Severity
  /** Records the issue names (ids the index holds and the ledger lost: repair salvages them). */
  refs?: string[]
}

export type IndexFindingKind = 'index_missing' | 'index_corrupt' | 'index_mismatch'

/**
 * Compares the index with the ledger (the node's), given what the audit read of the node scope's
 * records; each issue becomes a finding of its kind.
 */
export type IndexCheck = (facts: LedgerFacts) => Promise<readonly IndexIssue[]>

export interface AuditInit {
  /** The `.memory/` directory. */
  dataDir: string
  /** The node's scope: audited even before it has events. Every other scope with shards is audited too. */
  scope: string
  /** Checks checkpoint and record signatures. */
  verifier: SignatureVerifier
  /** ms since the epoch: the findings' `ts`, and the freshness checks of records and checkpoints. */
  now: () => number
  indexCheck?: IndexCheck
  /** Checks the blockstore (evidence/blocks) against the cid anchors the ledger says were verified. */
  blockCheck?: BlockCheck
  /** Verify each record event's signed record (signature, CID, kind). @default true */
  checkRecords?: boolean
}

export interface AuditReport {
  dataDir: string
  scope: string
  ts: string
  findings: AuditFinding[]
  stats: AuditStats
  errors: number
  warnings: number
  status: HealthStatus
  /** 1 / (1 + errors + 0.25 × warnings), 3 decimals (constants.ts WARNING_WEIGHT). */
  score: number
  /** Per scope and instance, the highest lc seen now or by the previous scorecard. */
  high_water: LcMark[]
  /** Each scope's Merkle log as rebuilt from its record events. */
  logs: Array<{ scope: string, size: number, root: string }>
  /** What the block check read (absent when there was none, or it could not run). */
  blocks?: BlockScan
}

export async function auditDataDir (init: AuditInit): Promise<AuditReport> {
  if (!scopeName.safeParse(init.scope).success) throw new IsnadError('USAGE', `invalid scope name: ${JSON.stringify(init.scope)}`)
  const now = init.now()
  const ts = new Date(now).toISOString()
  const ctx = createAuditContext(init.dataDir)
  const tree = await walkLedgerTree(init.dataDir)
  for (const rel of tree.unknown) ctx.sink.add({ kind: 'unknown_file', file: rel, message: `${rel} is not a shard this ledger writes (a leftover or a stray file)` })
  const facts = await auditOperational(ctx, tree)
  auditReductions(ctx, facts, await auditViews(ctx, tree))
  const options = {
    verifier: init.verifier, now, checkRecords: init.checkRecords ?? true,
    registry: new CheckpointRegistry(init.verifier), quarantine: new QuarantineIndex(tree.quarantined)
  }
  const collector = init.indexCheck === undefined && init.blockCheck === undefined ? undefined : new LedgerFactsCollector(init.scope)
  const scopes: ScopeAudit[] = []
  for (const scope of new Set([init.scope, ...tree.scopes])) {
    scopes.push(await auditScopeEvents(ctx, scope, scope === init.scope && collector !== undefined ? { ...options, facts: collector } : options))
  }
  checkRuns(ctx, scopes, facts)
  const highWater = checkHighWater(ctx, scopes, facts, options.quarantine)
  if (init.indexCheck !== undefined && collector !== undefined) {
    const log = scopes.find((s) => s.scope === init.scope)?.log ?? { size: 0, root: '' }
    await checkIndex(ctx, init.indexCheck, collector.build(log))
  }
  const blocks = init.blockCheck === undefined || collector === undefined ? undefined : await checkBlocks(ctx, init.blockCheck, collector.verifiedCidAnchors())
  const findings = ctx.sink.build(ts)
  const errors = findings.filter((f) => f.severity === 'error').length
  const warnings = findings.length - errors
  return {
    dataDir: init.dataDir,
    scope: init.scope,
    ts,
    findings,
    stats: { ...ctx.stats },
    errors,
    warnings,
    status: statusOf(findings),
    score: scoreOf(errors, warnings),
    high_water: highWater,
    logs: scopes.map((s) => ({ scope: s.scope, ...s.log })),
    ...(blocks === undefined ? {} : { blocks })
  }
}

/** Findings about the index alone: the ledger is intact, a reindex fixes them. */
export const INDEX_KINDS: ReadonlySet<FindingKind> = new Set<FindingKind>(['index_missing', 'index_corrupt', 'index_mismatch'])

/** 1 / (1 + errors + WARNING_WEIGHT × warnings), rounded to 3 decimals. */
export function scoreOf (errors: number, warnings: number): number {
  return Math.round(1000 / (1 + errors + WARNING_WEIGHT * warnings)) / 1000
}

/**
 * corrupt: an error in the ledger itself; degraded: only warnings, or errors of the index alone
 * (rebuilt from the ledger by `repair`) or of the blockstore (content; repair sets bad blocks aside
 * and checks their anchors again); healthy: no finding.
 */
export function statusOf (findings: readonly AuditFinding[]): HealthStatus {
  if (findings.some((f) => f.severity === 'error' && !INDEX_KINDS.has(f.kind) && !BLOCK_KINDS.has(f.kind))) return 'corrupt'
  return findings.length === 0 ? 'healthy' : 'degraded'
}

/**
 * Every run writes its `seen` and lease lines before its first event (session.ts), and every
 * instance its `registered` line: events without them mean lines lost from the operational ledgers.
 */
function checkRuns (ctx: AuditContext, scopes: readonly ScopeAudit[], facts: OperationalFacts): void {
  const reported = new Set<string>()
  for (const { scope, instances } of scopes) {
    for (const [instance, track] of instances) {
      if (!facts.instances.has(instance) && !reported.has(instance)) {
        reported.add(instance)
        ctx.sink.add({ kind: 'instance_unregistered', file: LEDGER_FILES.instances, message: `instance ${instance} wrote events (scope ${scope}) but has no registered line` })
      }
      for (const [run, file] of track.runs) {
        if (reported.has(run)) continue
        reported.add(run)
        const missing: string[] = []
        if (!facts.seenRuns.has(run)) missing.push(`a seen line in ${LEDGER_FILES.instances}`)
        if (!facts.leasedRuns.has(run)) missing.push(`a lease line in ${LEDGER_FILES.leases}`)
        if (missing.length > 0) ctx.sink.add({ kind: 'run_unregistered', file, message: `run ${run} of instance ${instance} wrote events but has no ${missing.join(' and no ')}` })
      }
    }
  }
}

/**
 * Lines cut off the end of a shard leave no trace in it; the previous scorecard remembers how far
 * each instance had got. The marks carried forward are the maxima, so a loss is reported by every
 * later audit, not just the next (as a warning once a quarantine explains it).
 */
function checkHighWater (ctx: AuditContext, scopes: readonly ScopeAudit[], facts: OperationalFacts, quarantine: QuarantineIndex): LcMark[] {
  const marks = new Map<string, LcMark>()
  for (const { scope, instances } of scopes) {
    for (const [instance, track] of instances) marks.set(`${scope}/${instance}`, { scope, instance, lc: track.last })
  }
  for (const before of facts.baseline?.high_water ?? []) {
    const key = `${before.scope}/${before.instance}`
    const track = scopes.find((s) => s.scope === before.scope)?.instances.get(before.instance)
    const now = track?.last ?? 0
    if (now >= before.lc) continue
    const explained = quarantine.explains(before.scope, before.instance, track?.lastDay, undefined)
    ctx.sink.add({
      kind: 'lc_regressed',
      severity: explained === undefined ? 'error' : 'warning',
      file: track?.lastFile ?? `streams/${before.scope}/${before.instance}`,
      message: `instance ${before.instance} of scope ${before.scope} had reached lc ${before.lc} (scorecard ${facts.baseline?.id ?? ''}); ` +
        `the ledger now ends at lc ${now}: events were lost from its end${explained === undefined ? '' : ` (explained by the quarantine of ${explained})`}`
    })
    marks.set(key, before)
  }
  const key = (m: LcMark): string => `${m.scope}/${m.instance}`
  return [...marks.values()].sort((a, b) => key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0)
}

async function checkIndex (ctx: AuditContext, indexCheck: IndexCheck, facts: LedgerFacts): Promise<void> {
  try {
    for (const issue of await indexCheck(facts)) {
      ctx.sink.add({
        kind: issue.kind ?? 'index_mismatch',
        file: 'index',
        message: issue.message,
        ...(issue.severity === undefined ? {} : { severity: issue.severity }),
        ...(issue.refs === undefined ? {} : { refs: issue.refs })
      })
    }
  } catch (err) {
    ctx.sink.add({ kind: 'index_mismatch', file: 'index', message: `the index could not be compared with the ledger: ${err instanceof Error ? err.message : String(err)}` })
  }
}
