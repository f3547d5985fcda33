import { join } from 'node:path'
import {
  derivedId, LEDGER_FILES, recoverTail, validateEventLine, withLineHash, type LineValidator, type RecoveryContext,
  type TornTailFinding
} from '../index.js'
import { appendLedgerLines, recordedIds } from './append.js'
import { EXECUTION_DOMAIN } from './constants.js'
import { underWriterLock } from './repair-lock.js'
import { quarantineFile } from './quarantine.js'
import { setAsideLines } from './set-aside.js'
import type { Execution, RepairAction, RepairPlan } from './governance-lines.js'
import { operationalValidator, viewValidator } from './validators.js'
import { parseShardPath, type ViewFolder } from './walk.js'

/**
 * `isnad ledger repair`, the execution: records the plan in
 * `governance/actions/plans.jsonl`, performs its file actions under the writer lock, one execution
 * line each in `executions.jsonl` as soon as it is done (so a crash midway leaves a true record),
 * then releases the lock and calls the node's `reindex`, which rebuilds the index from what the
 * ledgers now hold, then its salvage, blockstore and view repairs. A failed action is recorded as
 * `failed` and the rest still run.
 */

export interface ExecuteRepairInit {
  dataDir: string
  /** The node's reindex: rebuilds the LevelDB index from the ledgers alone. */
  reindex: () => Promise<void>
  /** ms since the epoch. @default Date.now */
  now?: () => number
  /** The caller (a node) holds the writer lock already and has no appender open on the files acted on. @default false */
  holdsLock?: boolean
  /** The node's recovery context (EventLedger.recovery), else one that appends to findings.jsonl itself. */
  recovery?: RecoveryContext
  /**
   * The node's salvage of records the ledger lost (src/node/audit/record-salvage.ts): called before the
   * reindex, it saves them from the old index; `restore` imports them after. Without it a
   * `salvage_records` action fails (and the reindex drops them).
   */
  salvageRecords?: () => Promise<{ detail: string, restore: () => Promise<string> }>
  /** The node's blockstore repair (src/node/audit/block-repair.ts); without it a `repair_blocks` action fails. */
  repairBlocks?: BlockRepair
  /** The node's reduction of the memories a `reduce_views` action names (src/node/audit/view-repair.ts); without it the action fails. */
  reduceViews?: ViewRepair
}

/** Reduces again the memories of a `reduce_views` action, last; returns what it wrote and what it could not find. */
export type ViewRepair = (action: Extract<RepairAction, { kind: 'reduce_views' }>) => Promise<string>

/** Carries out a `repair_blocks` action after the reindex; returns what it did (the blocks set aside and lost, the anchors' new states). */
export type BlockRepair = (action: Extract<RepairAction, { kind: 'repair_blocks' }>) => Promise<string>

export interface RepairOutcome {
  plan: RepairPlan
  executions: Execution[]
}

export async function executeRepair (plan: RepairPlan, init: ExecuteRepairInit): Promise<RepairOutcome> {
  const now = init.now ?? Date.now
  const executions: Execution[] = []
  const record = async (index: number, action: RepairAction, result: Outcome): Promise<void> => {
    const ts = new Date(now()).toISOString()
    const execution = withLineHash({ id: derivedId('execution', EXECUTION_DOMAIN, [plan.id, String(index), ts]), plan: plan.id, action, ...result, ts })
    await appendLedgerLines(init.dataDir, LEDGER_FILES.executions, [execution], init.recovery)
    executions.push(execution)
  }
  const indexed = plan.actions.map((action, index) => ({ action, index }))
  // Before anything else: the old index is the last copy of records the ledger lost.
  const salvage = indexed.find((a) => a.action.kind === 'salvage_records')
  let salvaged: Awaited<ReturnType<NonNullable<ExecuteRepairInit['salvageRecords']>>> | Error | undefined
  if (salvage !== undefined) {
    salvaged = init.salvageRecords === undefined
      ? new Error('this repair was given no access to the index to salvage records from')
      : await init.salvageRecords().catch((err: unknown) => err instanceof Error ? err : new Error(String(err)))
  }
  // The governance ledgers this repair appends to are recovered before anything is appended to them.
  const first = indexed.filter((a) => isGovernanceTail(a.action)).sort((a, b) => governanceRank(a.action) - governanceRank(b.action))
  const rest = indexed.filter((a) => !NODE_ACTIONS.includes(a.action.kind) && !isGovernanceTail(a.action))
  await underWriterLock(init.dataDir, init.holdsLock ?? false, async () => {
    const recovery = init.recovery ?? standaloneRecovery(init.dataDir, now)
    const early: Array<{ index: number, action: RepairAction, result: Outcome }> = []
    for (const { action, index } of first) early.push({ index, action, result: await attempt(async () => await perform(init.dataDir, action, recovery)) })
    if (!(await recordedIds(init.dataDir, LEDGER_FILES.plans)).has(plan.id)) {
      await appendLedgerLines(init.dataDir, LEDGER_FILES.plans, [plan], init.recovery)
    }
    for (const { index, action, result } of early) await record(index, action, result)
    for (const { action, index } of rest) await record(index, action, await attempt(async () => await perform(init.dataDir, action, recovery)))
  })
  for (const { action, index } of indexed.filter((a) => a.action.kind === 'reindex')) {
    await record(index, action, await attempt(async () => {
      await init.reindex()
      return 'the index was rebuilt from the ledgers'
    }))
  }
  if (salvage !== undefined) {
    const found = salvaged
    await record(salvage.index, salvage.action, await attempt(async () => {
      if (found === undefined || found instanceof Error) throw found ?? new Error('nothing salvaged')
      return `${found.detail}; ${await found.restore()}`
    }))
  }
  // Then, in plan order, the blockstore and last the views, reduced from the store as the steps above left it.
  for (const { action, index } of indexed) {
    if (action.kind === 'repair_blocks') await record(index, action, await attemptHook(init.repairBlocks, action, 'no access to the blockstore'))
    else if (action.kind === 'reduce_views') await record(index, action, await attemptHook(init.reduceViews, action, 'no node to reduce the views with'))
  }
  return { plan, executions }
}

type Outcome = Pick<Execution, 'status' | 'detail'>

/** A node hook's outcome; a failure when the caller gave no hook. */
async function attemptHook<A extends RepairAction> (run: ((action: A) => Promise<string>) | undefined, action: A, missing: string): Promise<Outcome> {
  return await attempt(async () => {
    if (run === undefined) throw new Error(`this repair was given ${missing}`)
    return await run(action)
  })
}

/** Actions the node carries out after the file actions, with the writer lock released (it opens the node). */
const NODE_ACTIONS: ReadonlyArray<RepairAction['kind']> = ['reindex', 'repair_blocks', 'salvage_records', 'reduce_views']

/** An action's outcome: its detail when done, the error's message when it failed. */
async function attempt (fn: () => Promise<string>): Promise<Outcome> {
  try {
    return { status: 'done', detail: await fn() }
  } catch (err) {
    return { status: 'failed', detail: err instanceof Error ? err.message : String(err) }
  }
}

/** findings.jsonl first (every other recovery records its finding there), then plans and executions. */
const GOVERNANCE_ORDER: readonly string[] = [LEDGER_FILES.findings, LEDGER_FILES.plans, LEDGER_FILES.executions]

function governanceRank (action: RepairAction): number {
  return action.kind === 'recover_tail' ? GOVERNANCE_ORDER.indexOf(action.file) : -1
}

function isGovernanceTail (action: RepairAction): boolean {
  return governanceRank(action) >= 0
}

async function perform (dataDir: string, action: RepairAction, recovery: RecoveryContext): Promise<string> {
  if (action.kind === 'set_aside') {
    const result = await setAsideLines(dataDir, action.file, new Map(action.lines.map((l) => [l.line, { offset: l.offset, reason: l.reason, ...(l.hash === undefined ? {} : { hash: l.hash }) }])), validatorOf(action.file))
    if (result === undefined) return `${action.file}: the lines are not where the plan saw them (gone already)`
    const names = result.lines.flatMap((l) => l.names)
    return `set aside ${result.lines.length} line${result.lines.length === 1 ? '' : 's'} (${result.lines.map((l) => l.line).join(', ')}) of ${action.file} in ${result.file}` +
      `${names.length === 0 ? '' : `; they named ${names.join(', ')}`}; the other lines stay. Fix them there and run \`isnad ledger restore ${result.file}\``
  }
  if (action.kind === 'quarantine') {
    const moved = await quarantineFile(dataDir, action.file)
    return moved === undefined ? `${action.file} is gone already` : `moved to ${moved.join(', ')}`
  }
  if (action.kind === 'recover_tail') {
    const truncateFirst = action.file === LEDGER_FILES.findings
    const { finding } = await recoverTail<unknown>(join(dataDir, ...action.file.split('/')), validatorOf(action.file), recovery, { truncateFirst })
    return finding === undefined ? 'the tail is intact' : `cut ${finding.bytes} bytes at offset ${finding.offset}; they are kept in ${finding.evidence} (finding ${finding.id})`
  }
  throw new TypeError(`not a file action: ${action.kind}`)
}

/** The check that decides where a file's valid lines end. */
function validatorOf (rel: string): LineValidator<unknown> {
  if (parseShardPath(rel) !== undefined) return validateEventLine
  const view = /^views\/([a-z]+)\//.exec(rel)
  if (view !== null) return viewValidator(view[1] as ViewFolder)
  return operationalValidator(rel)
}

/** Recovery's bookkeeping when no node is open: torn-tail findings go to findings.jsonl durably. */
function standaloneRecovery (dataDir: string, now: () => number): RecoveryContext {
  return {
    dataDir,
    now: () => new Date(now()).toISOString(),
    recordFinding: async (finding: TornTailFinding) => { await appendLedgerLines(dataDir, LEDGER_FILES.findings, [finding]) },
    recordedFindingIds: async () => await recordedIds(dataDir, LEDGER_FILES.findings)
  }
}
