import { z } from 'zod'
import { IsnadError } from '../../errors/index.js'
import { TRUST_POLICY_NAMES, VISIBILITIES, scopeName } from '../../schema/index.js'
import {
  DEFAULT_DISPUTED_BELOW, DEFAULT_FACT_REVIEW_DAYS, DEFAULT_VIEW_VISIBILITY, VIEW_REDUCER, VIEW_RULES_VERSION,
  type ViewRules
} from '../object-views/index.js'
import {
  DEFAULT_ARCHIVE_AFTER_DAYS, DEFAULT_MAX_FLUSH_BYTES, DEFAULT_MAX_LINE_BYTES, DEFAULT_SCOPE, POLICY_FORMAT
} from './constants.js'

/**
 * `_meta/policy.json` (Memory Format Spec V3.1 §3): the node's settings that change the data it
 * writes, so a reader of the directory (or an audit) knows how its trust scores, archives and views
 * were produced. Settings that change nothing on disk (ports, peers, log level) do not belong here.
 */
export const NodePolicySchema = z.strictObject({
  format: z.literal(POLICY_FORMAT),
  default_scope: scopeName,
  /** The trust policy (docs/trust.md §1) behind every score in the views and attachments. */
  trust_policy: z.enum(TRUST_POLICY_NAMES),
  /** Shards older than this are moved to archive/ as .jsonl.gz. */
  archive_after_days: z.number().int().min(1),
  group_commit: z.strictObject({
    max_line_bytes: z.number().int().min(1),
    max_flush_bytes: z.number().int().min(1)
  }),
  views: z.strictObject({
    reducer: z.literal(VIEW_REDUCER),
    rules_version: z.literal(VIEW_RULES_VERSION),
    fact_review_days: z.number().int().min(1).max(36_500),
    disputed_below: z.number().min(0).max(1),
    default_visibility: z.enum(VISIBILITIES)
  })
})
export type NodePolicy = z.infer<typeof NodePolicySchema>

/** What a caller may set; everything else takes its default. */
export interface PolicyInput {
  default_scope?: string
  trust_policy?: NodePolicy['trust_policy']
  archive_after_days?: number
  group_commit?: Partial<NodePolicy['group_commit']>
  views?: Partial<Pick<NodePolicy['views'], 'fact_review_days' | 'disputed_below' | 'default_visibility'>>
}

export function buildPolicy (input: PolicyInput = {}): NodePolicy {
  const parsed = NodePolicySchema.safeParse({
    format: POLICY_FORMAT,
    default_scope: input.default_scope ?? DEFAULT_SCOPE,
    // src/trust DEFAULT_TRUST_POLICY (docs/trust.md §1): a new node weighs witnesses by reputation.
    trust_policy: input.trust_policy ?? 'isnad-reputation',
    archive_after_days: input.archive_after_days ?? DEFAULT_ARCHIVE_AFTER_DAYS,
    group_commit: {
      max_line_bytes: input.group_commit?.max_line_bytes ?? DEFAULT_MAX_LINE_BYTES,
      max_flush_bytes: input.group_commit?.max_flush_bytes ?? DEFAULT_MAX_FLUSH_BYTES
    },
    views: {
      reducer: VIEW_REDUCER,
      rules_version: VIEW_RULES_VERSION,
      fact_review_days: input.views?.fact_review_days ?? DEFAULT_FACT_REVIEW_DAYS,
      disputed_below: input.views?.disputed_below ?? DEFAULT_DISPUTED_BELOW,
      default_visibility: input.views?.default_visibility ?? DEFAULT_VIEW_VISIBILITY
    }
  })
  if (parsed.success) return parsed.data
  const issue = parsed.error.issues[0]
  throw new IsnadError('USAGE', `invalid node policy: ${issue?.path.join('.') ?? ''}: ${issue?.message ?? ''}`)
}

/** The reducer settings of a policy (pass as `reduceMemory(input, { rules })`). */
export function viewRulesOf (policy: NodePolicy): ViewRules {
  return { factReviewDays: policy.views.fact_review_days, disputedBelow: policy.views.disputed_below }
}
