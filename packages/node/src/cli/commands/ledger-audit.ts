import { access } from 'node:fs/promises'
import { resolve } from 'node:path'
import { InvalidArgumentError, type Command } from 'commander'
import { isIsnadError } from '../../errors/index.js'
import type { SignatureVerifier } from '../../identity/index.js'
import { nodeCryptoVerifier } from '../../fast-crypto/index.js'
import {
  archiveShards, auditDataDir, executeRepair, planRepair, restoreSetAside, scorecardOf, writeAuditResults,
  type ArchiveResult, type AuditFinding, type AuditReport, type BlockCheckResult, type IndexIssue, type LedgerFacts, type RepairAction, type RepairOutcome, type RepairPlan, type VerifiedCidAnchor
} from '../../ledger/audit/index.js'
import { readPolicy } from '../../ledger/meta/index.js'
import { nodePaths } from '../../home/index.js'
import type { CommandContext } from '../command-context.js'
import { EXIT_FAILURE, EXIT_OK, emit } from '../output.js'

/**
 * `isnad ledger verify | repair | archive`: thin shells over src/ledger/audit.
 * Data on stdout (JSON with --json), the exit status says whether anything was found or failed.
 */

export interface LedgerAuditHooks {
  /** The node's reindex: rebuilds the LevelDB index from the ledgers (it opens the node itself). */
  reindex: (ctx: CommandContext) => Promise<void>
  /** Compares the index with the ledgers; each issue becomes an index finding. */
  indexCheck?: (ctx: CommandContext, facts: LedgerFacts) => Promise<readonly IndexIssue[]>
  /** Checks the blockstore against the verified cid anchors. @default checkBlocks */
  blockCheck?: (ctx: CommandContext, anchors: readonly VerifiedCidAnchor[]) => Promise<BlockCheckResult>
  /** Sets damaged blocks aside and checks their anchors again. @default repairBlockstore */
  repairBlocks?: (ctx: CommandContext, action: Extract<RepairAction, { kind: 'repair_blocks' }>) => Promise<string>
  /** How the command reports its exit status (runCli's exitCode). */
  setExit: (code: number) => void
  /** @default Date.now */
  clock?: () => number
  /** @default nodeCryptoVerifier */
  verifier?: SignatureVerifier
}

interface ScopeOptions { scope?: string }

function parseDays (value: string): number {
  const days = Number(value)
  if (value.trim() === '' || !Number.isSafeInteger(days) || days < 0) throw new InvalidArgumentError('must be a whole number of days ≥ 0')
  return days
}

export function registerLedgerAudit (ledger: Command, context: (cmd: Command) => CommandContext, hooks: LedgerAuditHooks): void {
  const clock = hooks.clock ?? Date.now
  /** Every record id the last audit read from the ledger: what repair's salvage compares the index with. */
  let ledgerIds: ReadonlySet<string> = new Set()
  const audit = async (ctx: CommandContext, opts: ScopeOptions): Promise<AuditReport> => {
    const dataDir = nodePaths(ctx.home).data
    const scope = opts.scope ?? (await readPolicy(dataDir)).default_scope
    const indexCheck = hooks.indexCheck
    const blockCheck = hooks.blockCheck ?? checkBlocks
    return await auditDataDir({
      dataDir, scope, verifier: hooks.verifier ?? nodeCryptoVerifier, now: clock,
      ...(indexCheck === undefined ? {} : { indexCheck: async (facts: LedgerFacts) => { ledgerIds = facts.ids; return await indexCheck(ctx, facts) } }),
      blockCheck: async (anchors) => await blockCheck(ctx, anchors)
    })
  }

  ledger.command('verify')
    .description('check every ledger line, the Lamport order and the Merkle log; record findings and a health scorecard (exit 0 healthy, 1 findings)')
    .option('--scope <scope>', 'the node scope (default: _meta/policy.json default_scope)')
    .action(async (opts: ScopeOptions, cmd: Command) => {
      const ctx = context(cmd)
      const report = await audit(ctx, opts)
      // printed before it is recorded: a governance ledger that cannot take the lines (LEDGER_CORRUPT) must not hide the findings
      emit(ctx.out, { ...summaryOf(report), scorecard: scorecardOf(report).id, findings: report.findings }, () => renderReport(report))
      hooks.setExit(report.findings.length === 0 ? EXIT_OK : EXIT_FAILURE)
      await writeAuditResults(report)
    })

  ledger.command('repair')
    .description('plan and carry out repairs of the findings: set bad lines aside (the rest stay), quarantine damaged archives, recover torn tails, reindex, reduce views again (exit 0 only when healthy afterwards)')
    .option('--dry-run', 'print the plan, change nothing')
    .option('--scope <scope>', 'the node scope (default: _meta/policy.json default_scope)')
    .action(async (opts: ScopeOptions & { dryRun?: boolean }, cmd: Command) => {
      const ctx = context(cmd)
      const report = await audit(ctx, opts)
      const plan = planRepair(report, { now: clock })
      if (opts.dryRun === true) {
        emit(ctx.out, { ...summaryOf(report), plan, findings: report.findings }, () => `${renderReport(report)}\n${renderPlan(plan)}`)
        hooks.setExit(EXIT_OK)
        return
      }
      if (report.findings.length === 0) {
        emit(ctx.out, { ...summaryOf(report), plan: null, executions: [] }, () => 'healthy: nothing to repair')
        hooks.setExit(EXIT_OK)
        return
      }
      await writeAuditResults(report)
      const repairBlocks = hooks.repairBlocks ?? repairBlockstore
      // What a repair stores again is scored with the shard count `isnad start` would take on this home.
      const shardCount = await (await import('../config/index.js')).homeShardCount(ctx.home)
      const outcome = await executeRepair(plan, {
        dataDir: report.dataDir,
        reindex: async () => { await hooks.reindex(ctx) },
        repairBlocks: async (action) => await repairBlocks(ctx, action),
        salvageRecords: async () => await (await import('../../node/audit/record-salvage.js')).salvageLostRecords(ctx.home, ledgerIds, clock, shardCount),
        reduceViews: async (action) => await (await import('../../node/audit/view-repair.js')).reduceViewsAgain(ctx.home, action, shardCount),
        now: clock
      })
      // What is left is what a new audit finds: lost events, set-aside lines not yet
      // restored, anything the plan could not address. Exit 0 only when the directory is healthy.
      const after = await audit(ctx, opts)
      await writeAuditResults(after)
      emit(ctx.out, { ...summaryOf(report), plan, executions: outcome.executions, after: { ...summaryOf(after), findings: after.findings } },
        () => `${renderPlan(plan)}\n${renderOutcome(outcome)}\nafter repair: ${renderReport(after)}`)
      const failed = outcome.executions.some((e) => e.status === 'failed')
      hooks.setExit(failed || after.status !== 'healthy' ? EXIT_FAILURE : EXIT_OK)
    })

  ledger.command('restore')
    .description('put lines `ledger repair` set aside back into their shard once fixed (each must pass its checks; nothing changes otherwise), then reindex')
    .argument('<file>', 'a file under .memory/archive/quarantine/lines/ (a path, or relative to .memory/)')
    .action(async (file: string, _opts: unknown, cmd: Command) => {
      const ctx = context(cmd)
      const dataDir = nodePaths(ctx.home).data
      const inCwd = resolve(file)
      const target = await access(inCwd).then(() => inCwd, () => file)
      const result = await restoreSetAside({ dataDir, file: target })
      await hooks.reindex(ctx)
      emit(ctx.out, result, () => `restored ${result.restored} line${result.restored === 1 ? '' : 's'} into ${result.shard}` +
        `${result.present === 0 ? '' : ` (${result.present} already there)`}; the set-aside file is now ${result.file}; the index was rebuilt`)
      hooks.setExit(EXIT_OK)
    })

  ledger.command('archive')
    .description('compress stream and bus shards older than the policy age to archive/*.jsonl.gz (never the current day)')
    .option('--older-than <days>', 'age in days (default: _meta/policy.json archive_after_days)', parseDays)
    .option('--scope <scope>', 'only this scope (default: every scope)')
    .action(async (opts: ScopeOptions & { olderThan?: number }, cmd: Command) => {
      const ctx = context(cmd)
      const dataDir = nodePaths(ctx.home).data
      const olderThanDays = opts.olderThan ?? (await readPolicy(dataDir)).archive_after_days
      const result = await archiveShards({ dataDir, olderThanDays, now: clock, ...(opts.scope === undefined ? {} : { scope: opts.scope }) })
      // The index located records inside the shards now compressed: rebuilt, it finds them in the pack files written out.
      if (result.packs > 0) await hooks.reindex(ctx)
      emit(ctx.out, { older_than_days: olderThanDays, ...result }, () => renderArchive(result, olderThanDays))
      hooks.setExit(result.skipped.length === 0 ? EXIT_OK : EXIT_FAILURE)
    })
}

/**
 * The node's index check (src/node/audit/index-check.ts), loaded only by verify and repair. A running
 * daemon holds the index: then it is not checked, and stderr says so (the ledger still is).
 */
export async function checkIndex (ctx: CommandContext, facts: LedgerFacts): Promise<readonly IndexIssue[]> {
  const { checkIndexAgainstLedger } = await import('../../node/audit/index-check.js')
  return await unlessDaemonHolds(ctx, 'the index', [], async () => await checkIndexAgainstLedger(ctx.home, facts))
}

/**
 * The node's blockstore check (src/node/audit/block-check.ts). A running daemon holds the store: then it
 * is not checked, and stderr says so. The scan's size is printed with the report.
 */
export async function checkBlocks (ctx: CommandContext, anchors: readonly VerifiedCidAnchor[]): Promise<BlockCheckResult> {
  const { checkBlockstore } = await import('../../node/audit/block-check.js')
  const skipped: BlockCheckResult = { issues: [], scan: { blocks: 0, checked: 0, bytes: 0, sampled: false, anchors: 0 } }
  return await unlessDaemonHolds(ctx, 'the blockstore', skipped, async () => await checkBlockstore(ctx.home, anchors))
}

/** A check of what a running daemon holds locked: `skipped`, and a line on stderr saying so, when it does. */
async function unlessDaemonHolds<T> (ctx: CommandContext, what: string, skipped: T, check: () => Promise<T>): Promise<T> {
  try {
    return await check()
  } catch (err) {
    if (!isIsnadError(err, 'STORE_LOCKED')) throw err
    ctx.out.stderr(`isnad: ${what} was not checked: a running node holds it (stop the daemon to check it)`)
    return skipped
  }
}

export async function repairBlockstore (ctx: CommandContext, action: Extract<RepairAction, { kind: 'repair_blocks' }>): Promise<string> {
  const [{ repairBlocks }, { homeShardCount }] = await Promise.all([import('../../node/audit/block-repair.js'), import('../config/index.js')])
  return await repairBlocks(ctx.home, action, await homeShardCount(ctx.home))
}

function summaryOf (report: AuditReport): Record<string, unknown> {
  return { status: report.status, score: report.score, errors: report.errors, warnings: report.warnings, stats: report.stats, logs: report.logs, ...(report.blocks === undefined ? {} : { blocks: report.blocks }) }
}

function renderFinding (f: AuditFinding): string {
  const where = f.line === undefined ? f.file : `${f.file}:${f.line}`
  return `  ${f.severity === 'error' ? 'ERROR  ' : 'warning'} ${f.kind.padEnd(21)} ${where}\n          ${f.message}`
}

function renderReport (report: AuditReport): string {
  const s = report.stats
  const head = `${report.status} (score ${report.score}): ${s.files_checked} files, ${s.lines_checked} lines, ${s.events} events, ` +
    `${s.records} records, ${s.checkpoints} checkpoints; ${report.errors} errors, ${report.warnings} warnings`
  const b = report.blocks
  const blocks = b === undefined || b.blocks + b.anchors === 0
    ? []
    : [`evidence/blocks: ${b.checked} of ${b.blocks} blocks (${b.bytes} bytes) re-hashed${b.sampled ? ' — a sample: the store is larger than one check reads' : ''}; ` +
        `the blocks of ${b.anchors} verified cid anchor${b.anchors === 1 ? '' : 's'} looked up`]
  return [head, ...blocks, ...report.findings.map(renderFinding)].join('\n')
}

function renderPlan (plan: RepairPlan): string {
  const lines = [`plan ${plan.id}: ${plan.actions.length} actions, ${plan.unresolved.length} findings unresolved`]
  for (const action of plan.actions) {
    const what = 'file' in action
      ? ` ${action.file}`
      : action.kind === 'repair_blocks'
        ? ` ${blocksPlanned(action)}`
        : action.kind === 'reduce_views' ? ` ${action.memories.length + action.objects.length} memories, ${action.settle.length} lost states` : ''
    lines.push(`  ${action.kind}${what}`)
  }
  if (plan.unresolved.length > 0) lines.push(`  unresolved (need a person): ${plan.unresolved.join(', ')}`)
  return lines.join('\n')
}

function blocksPlanned (action: Extract<RepairAction, { kind: 'repair_blocks' }>): string {
  return [`${action.set_aside.length} block${action.set_aside.length === 1 ? '' : 's'} set aside`, ...(action.salvage ? ['the store salvaged'] : []),
    `${action.recheck.length} anchor${action.recheck.length === 1 ? '' : 's'} checked again`].join(', ')
}

function renderOutcome (outcome: RepairOutcome): string {
  return outcome.executions.map((e) => `  ${e.status === 'done' ? 'done  ' : 'FAILED'} ${e.action.kind}: ${e.detail}`).join('\n')
}

function renderArchive (result: ArchiveResult, days: number): string {
  const lines = [`archived ${result.archived.length} shards older than ${days} days`]
  for (const a of result.archived) lines.push(`  ${a.from} → ${a.to} (${a.bytes} → ${a.compressed} bytes)`)
  for (const s of result.skipped) lines.push(`  skipped ${s.file}: ${s.reason}`)
  if (result.packs > 0) lines.push(`wrote ${result.packs} packs from their events to packs/; the index was rebuilt`)
  return lines.join('\n')
}
