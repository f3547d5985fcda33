import { createHash } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { errnoOf } from '../../fs/index.js'
import { LEDGER_FILES, type InstanceLine, type LeaseLine, type TornTailFinding } from '../index.js'
import { monthOf, type ReducerLineRef, type ViewLineRef } from '../object-views/index.js'
import { scanFile, type AuditContext } from './audit-context.js'
import type { Execution, Scorecard } from './governance-lines.js'
import { operationalValidator, viewValidator } from './validators.js'
import type { LedgerTree, ViewShardFile } from './walk.js'

/**
 * The operational ledgers (spec §10) and the views (spec §4, §6): every line checked, and the facts
 * the event audit cross-checks collected on the way: which instances and runs registered, which runs
 * held a lease, the torn tails recovery copied aside, and the newest scorecard.
 */

export interface OperationalFacts {
  /** Instances with a `registered` line in coordination/instances.jsonl. */
  instances: Set<string>
  /** Runs with a `seen` line (each run writes one before its first event). */
  seenRuns: Set<string>
  /** Runs with an `acquired` or `taken_over` lease line (also before their first event). */
  leasedRuns: Set<string>
  tornTails: TornTailFinding[]
  /** The newest scorecard that passed its checks: the regression baseline. */
  baseline: Scorecard | undefined
  /** The good lines of coordination/reducers.jsonl, in order: what the views are checked against. */
  reducers: ReducerLineRef[]
  /** Reductions a done `reduce_views` repair settled (their lines were lost; the object's later state stands for them). */
  settled: Set<string>
}

export async function auditOperational (ctx: AuditContext, tree: LedgerTree): Promise<OperationalFacts> {
  const facts: OperationalFacts = {
    instances: new Set(), seenRuns: new Set(), leasedRuns: new Set(), tornTails: [], baseline: undefined, reducers: [], settled: new Set()
  }
  for (const rel of tree.operational) {
    for await (const { value, line, offset } of scanFile(ctx, rel, operationalValidator(rel))) {
      if (rel === LEDGER_FILES.reducers) facts.reducers.push({ line, offset, value: value as ReducerLineRef['value'] })
      else collect(facts, rel, value)
    }
  }
  for (const torn of facts.tornTails) await checkEvidence(ctx, torn)
  return facts
}

function collect (facts: OperationalFacts, rel: string, value: unknown): void {
  if (rel === LEDGER_FILES.instances) {
    const line = value as InstanceLine
    if (line.kind === 'registered') facts.instances.add(line.instance_id)
    else facts.seenRuns.add(line.run_id)
  } else if (rel === LEDGER_FILES.leases) {
    const line = value as LeaseLine
    if (line.kind !== 'released') facts.leasedRuns.add(line.run_id)
  } else if (rel === LEDGER_FILES.findings) {
    const line = value as { kind: string }
    if ('evidence' in line) facts.tornTails.push(line as TornTailFinding)
  } else if (rel === LEDGER_FILES.scorecards) {
    facts.baseline = value as Scorecard
  } else if (rel === LEDGER_FILES.executions) {
    const { action, status } = value as Execution
    if (action.kind === 'reduce_views' && status === 'done') for (const id of action.settle) facts.settled.add(id)
  }
}

/** A torn tail cut at open was copied byte for byte first (recovery.ts): the copy must still be there. */
async function checkEvidence (ctx: AuditContext, torn: TornTailFinding): Promise<void> {
  let bytes: Buffer
  try {
    bytes = await readFile(join(ctx.dataDir, torn.evidence))
  } catch (err) {
    const why = errnoOf(err) === 'ENOENT' ? 'is missing' : `cannot be read (${errnoOf(err) ?? 'error'})`
    ctx.sink.add({ kind: 'evidence_missing', file: torn.evidence, message: `the copy of the torn tail of ${torn.file} (finding ${torn.id}) ${why}` })
    return
  }
  if (createHash('sha256').update(bytes).digest('hex') !== torn.sha256) {
    ctx.sink.add({ kind: 'evidence_missing', file: torn.evidence, message: `the copy of the torn tail of ${torn.file} (finding ${torn.id}) does not match its sha256` })
  }
}

/**
 * spec §4, §6: each view line sits in the shard of its own type, scope and UTC month. Returns each
 * shard's good lines (id, hash, place, memory), which the reduction check compares with the reducer
 * lines: the views are read once.
 */
export async function auditViews (ctx: AuditContext, tree: LedgerTree): Promise<Map<string, ViewLineRef[]>> {
  const views = new Map<string, ViewLineRef[]>()
  for (const shard of tree.views) {
    const lines: ViewLineRef[] = []
    views.set(shard.rel, lines)
    for await (const { value, offset, line } of scanFile(ctx, shard.rel, viewValidator(shard.folder))) {
      const misplaced = misplacedView(value, shard)
      if (misplaced !== undefined) {
        ctx.sink.add({ kind: 'misplaced_line', file: shard.rel, offset, line, message: `line ${line} is a view line of ${misplaced}, not of this shard` })
      }
      // an object's memory is its `source`, a v1 attachment's its `memory`
      const memory = value.source ?? value.memory
      lines.push({ line, offset, id: value.id, hash: value.hash, ...(memory === undefined ? {} : { memory }) })
    }
  }
  return views
}

function misplacedView (value: { scope?: string, ts?: string, type?: string }, shard: ViewShardFile): string | undefined {
  // A compact attachment (isnad-attach-v2) names neither: it is placed by its object's line.
  if (value.scope !== undefined && value.scope !== shard.scope) return `scope ${value.scope}`
  if (value.ts !== undefined && monthOf(value.ts) !== shard.month) return `month ${monthOf(value.ts)}`
  // facts/ holds type fact, decisions/ decision, commitments/ commitment (spec §3); attach/ has no type
  if (value.type !== undefined && `${value.type}s` !== shard.folder) return `type ${value.type}`
  return undefined
}
