import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import {
  buildMetaFiles, buildPolicy, metaFileText, NodePolicySchema, viewRulesOf
} from '../../../src/ledger/meta/index.js'
import { DEFAULT_VIEW_RULES, VIEW_REDUCER, VIEW_RULES_VERSION } from '../../../src/ledger/object-views/index.js'
import { EVENT_TYPES, EventSchema, ID_PREFIXES, ViewObjectSchema } from '../../../src/schema/index.js'

/** `_meta/` contents (spec §3): what each of the four files says. */

// Spec §5 and §6, copied here so a contract drifting from the spec fails here.
const SPEC_EVENT_FIELDS = ['schema_version', 'event_id', 'type', 'scope', 'instance_id', 'run_id', 'actor', 'ts_wall', 'lc',
  'causal_refs', 'visibility', 'owner', 'payload', 'idempotency_key', 'hash']
const SPEC_OBJECT_REQUIRED = ['schema_version', 'id', 'type', 'scope', 'ts', 'summary', 'status', 'horizon', 'salience',
  'confidence', 'tags', 'event_refs', 'visibility', 'owner', 'hash']
const SPEC_OBJECT_OPTIONAL = ['project', 'source', 'review_at', 'due_at', 'evidence_ref', 'supersedes', 'decision_key', 'why', 'assumptions']
const SPEC_EVENT_TYPES = ['memory.instance.started', 'memory.instance.heartbeat', 'memory.instance.stopped', 'memory.captured',
  'memory.distilled', 'memory.published', 'memory.reduced', 'memory.reconciled', 'memory.checkpointed', 'memory.handoff']

const files = buildMetaFiles({ scope: 'proj' })

describe('_meta/event_schema.json and object_schema.json', () => {
  const generate = (schema: z.ZodType): Record<string, unknown> =>
    z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input', unrepresentable: 'throw' }) as Record<string, unknown>

  it('are the zod contracts, generated (draft 2020-12, closed), plus a title and description', () => {
    for (const [name, schema] of [['event_schema.json', EventSchema], ['object_schema.json', ViewObjectSchema]] as const) {
      const { title, description, ...rest } = files[name]
      expect(rest, name).toEqual(generate(schema))
      expect(rest.$schema, name).toBe('https://json-schema.org/draft/2020-12/schema')
      expect(rest.additionalProperties, name).toBe(false)
      expect(typeof title === 'string' && typeof description === 'string', name).toBe(true)
    }
  })

  it('require exactly the spec\'s fields', () => {
    expect(files['event_schema.json'].required).toEqual(SPEC_EVENT_FIELDS)
    expect(files['object_schema.json'].required).toEqual(SPEC_OBJECT_REQUIRED)
    expect(Object.keys(files['object_schema.json'].properties as object)).toEqual([...SPEC_OBJECT_REQUIRED, ...SPEC_OBJECT_OPTIONAL])
  })
})

describe('_meta/spec.json', () => {
  const spec = files['spec.json']
  it('names the spec, its profile and isnad\'s additions', () => {
    expect(spec).toMatchObject({
      spec: { name: 'Memory Format Spec', version: 'V3.1', profile: 'diasync-v1' },
      event_schema_version: 'diasync-v1-event',
      object_schema_version: 'diasync-v1-object',
      event_types: { spec: SPEC_EVENT_TYPES, isnad: ['memory.witness_requested', 'memory.attested', 'memory.anchored', 'memory.packed', 'memory.anchor_checked', 'memory.selected'] },
      sharding: { packs: expect.stringContaining('packs/<scope>/<pack CID>.car') },
      ids: { prefixes: ID_PREFIXES },
      records: { spec: 'isnad record-v1' },
      views: { reducer: VIEW_REDUCER, rules_version: VIEW_RULES_VERSION }
    })
    expect(JSON.stringify(spec)).toContain('RFC 8785')
  })

  it('lists every event type once', () => {
    const types = spec.event_types as { spec: string[], isnad: string[] }
    expect([...types.spec, ...types.isnad].sort()).toEqual([...EVENT_TYPES].sort())
  })
})

describe('_meta/policy.json', () => {
  it('has the defaults', () => {
    expect(buildPolicy()).toEqual({
      format: 'isnad-policy/v1',
      default_scope: 'default',
      trust_policy: 'isnad-reputation',
      archive_after_days: 30,
      group_commit: { max_line_bytes: 1024 * 1024, max_flush_bytes: 4 * 1024 * 1024 },
      views: { reducer: 'isnad-views/v1', rules_version: 1, fact_review_days: 90, disputed_below: 0.3, default_visibility: 'shared' }
    })
    expect(viewRulesOf(buildPolicy())).toEqual(DEFAULT_VIEW_RULES)
  })

  it('takes the scope and overrides, and refuses bad ones with USAGE', () => {
    expect(files['policy.json'].default_scope).toBe('proj')
    const policy = buildPolicy({ archive_after_days: 7, group_commit: { max_flush_bytes: 1024 }, views: { fact_review_days: 30 } })
    expect(policy).toMatchObject({ archive_after_days: 7, group_commit: { max_line_bytes: 1024 * 1024, max_flush_bytes: 1024 } })
    expect(viewRulesOf(policy).factReviewDays).toBe(30)
    expect(NodePolicySchema.safeParse(policy).success).toBe(true)
    expect(() => buildPolicy({ archive_after_days: 0 })).toThrow(expect.objectContaining({ code: 'USAGE' }))
    expect(() => buildMetaFiles({ scope: 'Not/A/Scope' })).toThrow(expect.objectContaining({ code: 'USAGE' }))
  })

  it('is written as 2-space JSON with a final newline', () => {
    expect(metaFileText({ a: 1 })).toBe('{\n  "a": 1\n}\n')
  })
})
