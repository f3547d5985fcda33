import { canonicalJson, derivedId, withLineHash } from '../index.js'
import { INDEX_KINDS, type AuditReport } from './audit.js'
import { BLOCK_KINDS, cidOfBlockFile } from './blockstore-audit.js'
import { PLAN_DOMAIN } from './constants.js'
import type { AuditFinding, FindingKind, RepairAction, RepairPlan } from './governance-lines.js'
import { isShardPath } from './walk.js'

/**
 * `isnad ledger repair`, the plan: what can be done about an audit's findings without
 * ever editing a line in place (spec §9).
 * - A line of a live shard (events or views) that fails its checks is set aside alone
 *   (docs/threat-model.md): the shard keeps every good line, the bad ones go to archive/quarantine/lines/ with what
 *   `isnad ledger restore` needs to put them back once a person fixed them (set-aside.ts).
 * - An archive with a bad line is quarantined whole: moved to archive/quarantine/, kept byte for
 *   byte, and no longer read (a gzip stream cannot be cut at a line).
 * - A torn last line (a write a crash interrupted, never acknowledged) is recovered as the node does
 *   at open: copied to governance/findings/torn/, recorded, cut off (recovery.ts).
 * - After either, and for any index finding, the index is rebuilt from what the ledgers now hold;
 *   records the index holds and the ledger lost are first saved from it and imported again after.
 * - Block findings: blocks that do not hash to their CID are set aside, a store LevelDB
 *   reports damaged is salvaged block by block, and the anchors concerned are checked again (the
 *   node's `repairBlocks`, after the reindex).
 * - Views that disagree with coordination/reducers.jsonl (docs/views.md): a newest line no reduction
 *   names is set aside while it keeps its hash, and the node reduces the memories concerned again,
 *   last; the reductions whose lines were lost are settled by the objects' states after it.
 * Everything else stays `unresolved`: lost events, bad checkpoints, forks and damaged operational
 * ledgers need a person (or are facts the ledger must keep, like an equivocation).
 */

export interface PlanRepairOptions {
  /** ms since the epoch, for the plan's `ts`. */
  now: () => number
}

/** Line checks whose failure puts the whole shard in quarantine. */
const QUARANTINE_KINDS: ReadonlySet<FindingKind> = new Set<FindingKind>([
  'utf8_invalid', 'json_invalid', 'schema_invalid', 'hash_mismatch', 'lc_order', 'archive_unreadable', 'archive_header'
])

function wantsQuarantine (finding: AuditFinding): boolean {
  if (!isShardPath(finding.file)) return false
  // an archive cannot be cut back to a line boundary: a torn line inside one means a damaged archive
  return QUARANTINE_KINDS.has(finding.kind) || (finding.kind === 'torn_tail' && finding.file.endsWith('.gz'))
}

/**
 * A bad line of a live shard, located: set aside alone (docs/threat-model.md, "Damage to the data directory"). Archives cannot be cut at a
 * line, and a finding without a line and offset cannot be located: whole-file quarantine.
 */
function wantsSetAside (finding: AuditFinding): boolean {
  return QUARANTINE_KINDS.has(finding.kind) && !finding.file.endsWith('.gz') && finding.line !== undefined && finding.offset !== undefined
}

type SetAsideLine = Extract<RepairAction, { kind: 'set_aside' }>['lines'][number]

export function planRepair (report: AuditReport, options: PlanRepairOptions): RepairPlan {
  const setAside = new Map<string, Map<number, SetAsideLine>>()
  for (const finding of report.findings) {
    const unrecorded = isUnrecordedLine(finding)
    if (!isShardPath(finding.file) || !(wantsSetAside(finding) || unrecorded)) continue
    const lines = setAside.get(finding.file) ?? new Map<number, SetAsideLine>()
    setAside.set(finding.file, lines)
    const line: SetAsideLine = { line: finding.line as number, offset: finding.offset as number, reason: `${finding.kind}: ${finding.message}` }
    // a good line goes for what it is: only while it still has the hash verify saw (reduction-audit.ts: refs [id, hash, memory?])
    if (unrecorded) line.hash = finding.refs?.[1] as string
    if (!lines.has(line.line)) lines.set(line.line, line)
  }
  const quarantine = new Map<string, string>()
  for (const finding of report.findings) {
    if (wantsQuarantine(finding) && !setAside.has(finding.file) && !quarantine.has(finding.file)) quarantine.set(finding.file, `${finding.kind}: ${finding.message}`)
  }
  const tails = new Set<string>()
  for (const finding of report.findings) {
    // set_aside takes a shard's torn tail with its bad lines
    if (finding.kind === 'torn_tail' && !quarantine.has(finding.file) && !setAside.has(finding.file)) tails.add(finding.file)
  }
  const actions: RepairAction[] = [
    ...[...setAside].map(([file, lines]): RepairAction => ({ kind: 'set_aside', file, lines: [...lines.values()].sort((a, b) => a.line - b.line) })),
    ...[...quarantine].map(([file, reason]): RepairAction => ({ kind: 'quarantine', file, reason })),
    ...[...tails].map((file): RepairAction => ({ kind: 'recover_tail', file }))
  ]
  // Records the index holds and the ledger lost: saved before the reindex would drop them.
  if (report.findings.some((f) => f.kind === 'index_mismatch' && (f.refs?.length ?? 0) > 0)) actions.push({ kind: 'salvage_records' })
  const reindex = actions.length > 0 || report.findings.some((f) => INDEX_KINDS.has(f.kind))
  if (reindex) actions.push({ kind: 'reindex' })
  // After the reindex: re-checking an anchor looks it up in the index.
  const blocks = report.findings.filter((f) => BLOCK_KINDS.has(f.kind))
  if (blocks.length > 0) {
    const cids = (kind: FindingKind): string[] => [...new Set(blocks.filter((f) => f.kind === kind).flatMap((f) => cidOfBlockFile(f.file) ?? []))].sort()
    actions.push({
      kind: 'repair_blocks',
      set_aside: cids('block_corrupt'),
      salvage: blocks.some((f) => f.kind === 'blockstore_corrupt'),
      recheck: [...new Set(blocks.flatMap((f) => f.refs ?? []))].sort()
    })
  }
  // Last: the views are reduced from the store as the repair left it (records salvaged, anchors checked again).
  const views = reduceViewsOf(report.findings)
  if (views !== undefined) actions.push(views)
  // A quarantine settles the bad lines of its shard; the events they held stay lost (lc gaps, checkpoints).
  const resolved = (f: AuditFinding): boolean =>
    (quarantine.has(f.file) && (QUARANTINE_KINDS.has(f.kind) || f.kind === 'torn_tail')) ||
    (setAside.has(f.file) && (wantsSetAside(f) || f.kind === 'torn_tail')) ||
    (f.kind === 'torn_tail' && tails.has(f.file)) || (INDEX_KINDS.has(f.kind) && reindex) || BLOCK_KINDS.has(f.kind) ||
    (REDUCTION_KINDS.has(f.kind) && views !== undefined)
  const ts = new Date(options.now()).toISOString()
  const findings = report.findings.map((f) => f.id)
  return withLineHash({
    id: derivedId('plan', PLAN_DOMAIN, [ts, canonicalJson({ findings, actions })]),
    ts,
    findings,
    actions,
    unresolved: report.findings.filter((f) => !resolved(f)).map((f) => f.id)
  })
}

/** Findings about the views against the reducer lines (reduction-audit.ts): the node reduces the memories again. */
const REDUCTION_KINDS: ReadonlySet<FindingKind> = new Set<FindingKind>(['reduction_unresolved', 'reduction_unrecorded'])

/** A located view line no reduction names, with the hash verify saw: set aside, its memory reduced again. */
function isUnrecordedLine (finding: AuditFinding): boolean {
  return finding.kind === 'reduction_unrecorded' && finding.line !== undefined && finding.offset !== undefined && finding.refs?.[1] !== undefined
}

/**
 * The `reduce_views` action of the reduction findings: the memories they name (refs: `[reduction,
 * object, memory?]` of an unresolved state, `[id, hash, memory?]` of an unrecorded line), the object
 * ids whose memory no line named (the node finds it), and the unresolved reductions, which the
 * objects' states after the repair stand for.
 */
function reduceViewsOf (findings: readonly AuditFinding[]): RepairAction | undefined {
  const memories = new Set<string>()
  const objects = new Set<string>()
  const settle = new Set<string>()
  for (const f of findings) {
    if (!REDUCTION_KINDS.has(f.kind)) continue
    const [first, second, memory] = f.refs ?? []
    const object = f.kind === 'reduction_unresolved' ? second : first
    if (f.kind === 'reduction_unresolved' && first !== undefined) settle.add(first)
    if (memory !== undefined) memories.add(memory)
    else if (object !== undefined && OBJECT_ID.test(object)) objects.add(object)
  }
  if (memories.size + objects.size + settle.size === 0) return undefined
  return { kind: 'reduce_views', memories: [...memories].sort(), objects: [...objects].sort(), settle: [...settle].sort() }
}

const OBJECT_ID = /^(fac|dec|com)_[a-z2-7]{26}$/
