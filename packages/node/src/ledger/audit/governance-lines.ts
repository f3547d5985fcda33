import { z } from 'zod'
import { ID_PREFIXES, isoTimestamp, lineHash, scopeName, typedId, viewObjectId } from '../../schema/index.js'
import { TornTailFindingSchema } from '../coordination-schema.js'
import { MAX_FINDING_REFS } from './constants.js'

/**
 * The lines the audit and repair write to the governance ledgers (spec §10): findings in
 * `governance/findings/findings.jsonl`, health scorecards in `governance/health/scorecards.jsonl`,
 * repair plans and their executions in `governance/actions/`. Each carries a spec §8 `hash`.
 */

export const SEVERITIES = ['error', 'warning'] as const
export type Severity = (typeof SEVERITIES)[number]

/** What a finding is about; README.md in this folder lists what each means and what repair does. */
export const FINDING_KINDS = [
  // one line of one file (spec §2, §8)
  'torn_tail', 'utf8_invalid', 'json_invalid', 'schema_invalid', 'hash_mismatch', 'lc_order',
  'archive_unreadable', 'archive_header', 'io_error', 'unknown_file',
  // the events of a scope (spec §4, §5)
  'misplaced_line', 'duplicate_event', 'lc_gap', 'lc_duplicate', 'lc_regressed',
  'instance_unregistered', 'run_unregistered',
  // the Merkle log (transparency-v1)
  'record_invalid', 'pack_invalid', 'checkpoint_invalid', 'checkpoint_size', 'checkpoint_root', 'equivocation',
  // the views against coordination/reducers.jsonl (docs/views.md, "Reductions")
  'reduction_unresolved', 'reduction_unrecorded',
  // the rest of the directory
  'evidence_missing', 'index_mismatch', 'index_missing', 'index_corrupt',
  // the blockstore of anchored content, evidence/blocks
  'block_corrupt', 'block_missing', 'blockstore_corrupt'
] as const
export type FindingKind = (typeof FINDING_KINDS)[number]

export const AuditFindingSchema = z.strictObject({
  id: typedId(ID_PREFIXES.finding),
  kind: z.enum(FINDING_KINDS),
  severity: z.enum(SEVERITIES),
  /** Relative to the data directory (`index` for the LevelDB index). */
  file: z.string().min(1),
  /** Byte offset of the line (decompressed offset in an archive). */
  offset: z.number().int().min(0).optional(),
  /** 1-based line number. */
  line: z.number().int().min(1).optional(),
  message: z.string().min(1),
  /** The records a finding is about, where a file and offset do not say it (the anchors whose blocks a block finding concerns). */
  refs: z.array(z.string().min(1)).max(MAX_FINDING_REFS).optional(),
  ts: isoTimestamp,
  hash: lineHash
})
export type AuditFinding = z.infer<typeof AuditFindingSchema>

/** A line of findings.jsonl: an audit finding, or a torn tail cut off by recovery at open. */
export const FindingsLineSchema = z.union([AuditFindingSchema, TornTailFindingSchema])

/** The highest lc the audit saw of one instance in one scope: the next audit's regression baseline. */
export const LcMarkSchema = z.strictObject({
  scope: scopeName,
  instance: typedId(ID_PREFIXES.instance),
  lc: z.number().int().min(1)
})
export type LcMark = z.infer<typeof LcMarkSchema>

export const HEALTH_STATUSES = ['healthy', 'degraded', 'corrupt'] as const
export type HealthStatus = (typeof HEALTH_STATUSES)[number]

const count = z.number().int().min(0)

export const ScorecardSchema = z.strictObject({
  id: typedId(ID_PREFIXES.scorecard),
  ts: isoTimestamp,
  files_checked: count,
  lines_checked: count,
  events: count,
  records: count,
  checkpoints: count,
  errors: count,
  warnings: count,
  /** 1 / (1 + errors + 0.25 × warnings), 3 decimals (constants.ts WARNING_WEIGHT). */
  score: z.number().min(0).max(1),
  status: z.enum(HEALTH_STATUSES),
  /** Per scope and instance, the highest lc seen: losing trailing events shows against it. */
  high_water: z.array(LcMarkSchema),
  hash: lineHash
})
export type Scorecard = z.infer<typeof ScorecardSchema>

export const RepairActionSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('reindex') }),
  z.strictObject({ kind: z.literal('quarantine'), file: z.string().min(1), reason: z.string().min(1) }),
  /**
   * Single bad lines of a live shard: 1-based line numbers with their byte offsets. A line that passes
   * its checks (a view line no reduction names) carries the `hash` it had, which it must still have.
   */
  z.strictObject({
    kind: z.literal('set_aside'),
    file: z.string().min(1),
    lines: z.array(z.strictObject({
      line: z.number().int().min(1), offset: z.number().int().min(0), reason: z.string().min(1), hash: lineHash.optional()
    })).min(1)
  }),
  z.strictObject({ kind: z.literal('recover_tail'), file: z.string().min(1) }),
  /** Records the index holds and the ledger lost: saved from the index before the reindex, imported again after it. */
  z.strictObject({ kind: z.literal('salvage_records') }),
  /**
   * The blockstore: blocks that do not hash to their CID set aside to
   * archive/quarantine/blocks/, a store LevelDB reports damaged salvaged block by block, then the
   * anchors concerned checked again (a node with peers fetches good copies; without, they are
   * `unreachable` until one does).
   */
  z.strictObject({
    kind: z.literal('repair_blocks'),
    set_aside: z.array(z.string().min(1)),
    salvage: z.boolean(),
    recheck: z.array(z.string().min(1))
  }),
  /**
   * Views the reducer lines and the view lines disagree on (docs/views.md): the memories reduced
   * again by the node (those named, and those whose object ids are named where no line named the
   * memory), which writes their lines and records their states; `settle` the reductions whose
   * lines were lost, which the object's state after the repair stands for from then on.
   */
  z.strictObject({
    kind: z.literal('reduce_views'),
    memories: z.array(z.string().min(1)),
    objects: z.array(viewObjectId),
    settle: z.array(typedId(ID_PREFIXES.reduction))
  })
])
export type RepairAction = z.infer<typeof RepairActionSchema>

export const RepairPlanSchema = z.strictObject({
  id: typedId(ID_PREFIXES.plan),
  ts: isoTimestamp,
  /** Every finding the plan was made from. */
  findings: z.array(typedId(ID_PREFIXES.finding)),
  actions: z.array(RepairActionSchema),
  /** The findings no action addresses: lost events, bad checkpoints, damaged operational ledgers. */
  unresolved: z.array(typedId(ID_PREFIXES.finding)),
  hash: lineHash
})
export type RepairPlan = z.infer<typeof RepairPlanSchema>

export const ExecutionSchema = z.strictObject({
  id: typedId(ID_PREFIXES.execution),
  plan: typedId(ID_PREFIXES.plan),
  action: RepairActionSchema,
  status: z.enum(['done', 'failed']),
  detail: z.string(),
  ts: isoTimestamp,
  hash: lineHash
})
export type Execution = z.infer<typeof ExecutionSchema>
