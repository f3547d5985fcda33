import { z } from 'zod'
import { SelectRequestSchema, SelectedMemorySchema } from '../../fdr/index.js'
import { IsnadError } from '../../errors/index.js'
import {
  AttestationRecordSchema, CONTENT_TYPES, MAX_BODY_BYTES, MemoryAuthorSchema, MemoryContentSchema, MemoryContextSchema, MemoryLineageSchema, TRUST_LEVELS,
  TrustResultSchema, didKey, isoTimestamp, recordCid, type MemoryView, type TrustLevel
} from '../../schema/index.js'
import { DEFAULT_QUERY_LIMIT, MAX_QUERY_LIMIT } from '../../record-index/constants.js'
import { bottomOfLevel } from '../../trust/index.js'
import type { AgentReputation } from '../../reputation/index.js'
import { MAX_CURSOR_LENGTH } from '../constants.js'
import {
  AttestResultSchema, MemoryViewResponseSchema, QueryPageSchema, TrustExplanationSchema, type TrustExplanation
} from '../response-shapes.js'
import { renderExplanation, renderView } from '../render-text.js'
import { queryPageLines, selectionLines } from './command-text.js'
import { assertMemoryStored } from './command-steps.js'
import { cidField, didField, MEMORY_ARGUMENT, OLD_NAME_MEMORY, signerFields, timeField } from './fields.js'
import { defineOperation, type OperationNode } from './spec.js'

/* The memory operations: remember, show, explain, query, attest, select, history (record-v1, docs/fdr-compliance.md). */

const SIGNING = ['SCHEMA_INVALID', 'FIELD_TOO_LARGE', 'CID_INVALID', 'DID_INVALID', 'UNKNOWN_KEY', 'PASSPHRASE_REQUIRED', 'PASSPHRASE_WRONG', 'KEY_ROTATED', 'KEY_REVOKED', 'KEY_INACTIVE'] as const
const tag = MemoryContentSchema.shape.tags.element
/** The operations that read one stored memory, named by its id. */
const MemoryInput = z.strictObject({ id: cidField('the memory id (a CID, bafyrei…)') })

export const remember = defineOperation({
  name: 'remember',
  summary: 'Create, sign and store a memory as a local agent; returns the new memory\'s view (id, content, provenance, trust).',
  input: z.strictObject({
    type: z.enum(CONTENT_TYPES).default('observation').describe(`what kind of memory: ${CONTENT_TYPES.join(', ')}; default observation`),
    summary: MemoryContentSchema.shape.summary.describe('one line saying what the memory holds (required, at most 512 UTF-8 bytes, no line breaks)'),
    body: MemoryContentSchema.shape.body.describe('the full content, line breaks allowed; absent: the summary').optional(),
    tags: MemoryContentSchema.shape.tags.describe('lower-level labels to find it by (each without whitespace; see record-v1 R4)').optional(),
    confidence: MemoryContextSchema.shape.confidence.describe('how sure the author is, 0 to 1; default 1').optional(),
    trigger: MemoryContextSchema.shape.trigger.describe('what prompted the memory (free text)'),
    sessionId: MemoryContextSchema.shape.session_id.describe('the author\'s session the memory comes from'),
    platform: MemoryAuthorSchema.shape.platform.describe('the platform the author runs on (e.g. a model or an app)'),
    handle: MemoryAuthorSchema.shape.handle.describe('the author\'s human-readable name on that platform'),
    supersedes: cidField('id of an earlier memory this one corrects (corrections never edit)').optional(),
    derivedFrom: MemoryLineageSchema.shape.derived_from.describe('ids of memories this one builds on (unique)').optional(),
    ...signerFields
  }),
  output: MemoryViewResponseSchema,
  errors: [...SIGNING, 'NOT_FOUND'],
  signs: true,
  http: { method: 'post', path: '/v1/memories', status: 201, in: 'body' },
  cli: {
    command: 'remember',
    args: ['summary'],
    fields: {
      type: { short: 't' },
      body: { short: 'b', value: 'text', file: { maxBytes: MAX_BODY_BYTES } },
      tags: { flag: 'tag', value: 'tag', description: 'a tag (repeatable)' },
      confidence: { short: 'c', value: '0..1' },
      sessionId: { flag: 'session', value: 'id' },
      supersedes: { value: 'memory' },
      derivedFrom: { value: 'memory', description: 'id of a source memory (repeatable)' },
      as: { value: 'did' }
    },
    quiet: 'id',
    render: (view) => renderView(view)
  },
  mcp: { tool: 'remember', title: 'Remember' },
  run: async (node, { as: _as, passphrase: _p, ...input }, signer) => await node.remember(input, signer!)
})

export const show = defineOperation({
  name: 'show',
  summary: 'One memory with its witnesses, anchors, lineage and trust, as evidence (not as instructions).',
  input: MemoryInput,
  output: MemoryViewResponseSchema,
  errors: ['CID_INVALID', 'NOT_FOUND'],
  readOnly: true,
  http: { method: 'get', path: '/v1/memories/{id}', in: 'none' },
  cli: { command: 'show', args: ['id'], fields: { id: MEMORY_ARGUMENT }, render: (view) => renderView(view, { explain: true }) },
  mcp: { tool: 'show_memory', title: 'Show a memory' },
  run: async (node, { id }) => await node.show(id)
})

export const explainTrust = defineOperation({
  name: 'explainTrust',
  summary: 'Why a memory has its trust score: each factor\'s points, the witnesses and anchors that counted, and those refused and why, with the trust roots and the reputation of the author and every witness.',
  input: MemoryInput,
  output: TrustExplanationSchema,
  errors: ['CID_INVALID', 'NOT_FOUND'],
  readOnly: true,
  http: { method: 'get', path: '/v1/memories/{id}/trust', in: 'none' },
  cli: { command: 'trust explain', args: ['id'], fields: { id: MEMORY_ARGUMENT }, render: renderExplanation },
  mcp: { tool: 'explain_trust', title: 'Explain trust' },
  run: async (node, { id }) => await explanationOf(node, id)
})

/** `minLevel` of query and select: a level bound, which the handlers turn into a score bound (`withLevelBound`). */
const minLevelField = z.enum(TRUST_LEVELS).describe(`only memories at this trust level or above: ${TRUST_LEVELS.join(' < ')}`).optional()

/** One scale (docs/trust.md §1): a level is the scores from its lower bound up, so a level bound is a score bound, the stricter of the two. */
function withLevelBound<T extends { minTrust?: number | undefined, minLevel?: TrustLevel | undefined }> (input: T): Omit<T, 'minLevel'> {
  const { minLevel, ...rest } = input
  return minLevel === undefined ? rest : { ...rest, minTrust: Math.max(input.minTrust ?? 0, bottomOfLevel(minLevel)) }
}

export const query = defineOperation({
  name: 'query',
  summary: 'Memories by tags, minimum trust, type, author and time; most trusted and newest first, one page at a time.',
  input: z.strictObject({
    tags: z.array(tag).max(16).describe('only memories carrying every one of these tags (old name: `tag`, still accepted)').optional(),
    minTrust: z.number().min(0).max(1).describe('only memories whose trust score is at least this, 0 to 1 (the score is held within its level\'s band, so 0.6 means Anchored or above)').optional(),
    minLevel: minLevelField,
    type: z.enum(CONTENT_TYPES).describe(`only this kind of memory: ${CONTENT_TYPES.join(', ')}`).optional(),
    author: didField('only memories signed by this did:key').optional(),
    since: timeField('only memories created at or after this time').optional(),
    until: timeField('only memories created before this time').optional(),
    limit: z.number().int().min(1).max(MAX_QUERY_LIMIT).describe(`page size, 1 to ${MAX_QUERY_LIMIT}; default ${DEFAULT_QUERY_LIMIT}`).optional(),
    cursor: z.string().min(1).max(MAX_CURSOR_LENGTH).describe('the `next` of the previous page, to continue after it').optional()
  }),
  output: QueryPageSchema,
  errors: ['SCHEMA_INVALID', 'FIELD_TOO_LARGE', 'DID_INVALID', 'USAGE'],
  readOnly: true,
  aliases: { tag: 'tags' },
  http: { method: 'get', path: '/v1/memories', in: 'query' },
  cli: {
    command: 'query',
    fields: {
      tags: { flag: 'tag', value: 'tag', description: 'required tag (repeatable: all must match)' },
      minTrust: { value: '0..1' },
      type: { short: 't' },
      author: { value: 'did' },
      since: { value: 'time' },
      until: { value: 'time' },
      limit: { value: 'n' }
    },
    render: queryPageLines
  },
  mcp: { tool: 'query_memories', title: 'Query memories' },
  run: async (node, input) => await node.query(withLevelBound(input))
})

const attestInput = z.strictObject({
  id: cidField(`the id of the stored memory to witness${OLD_NAME_MEMORY}`),
  verdict: AttestationRecordSchema.shape.attestation.describe('confirm: it is right; dispute: it is wrong; partial: only the `claims` hold'),
  notes: AttestationRecordSchema.shape.notes.describe('why, in the witness\'s words'),
  claims: AttestationRecordSchema.shape.claims.describe('with partial only: the aspects the witness confirms'),
  ...signerFields
}).refine((b) => b.claims === undefined || b.verdict === 'partial', {
  message: 'claims are only allowed on a partial attestation', path: ['claims']
})

export const attest = defineOperation({
  name: 'attest',
  summary: 'Witness a stored memory as a local agent: confirm, dispute, or partial (with the claims it covers); returns the attestation id and the memory\'s new view.',
  input: attestInput,
  output: AttestResultSchema,
  errors: [...SIGNING, 'NOT_FOUND', 'SELF_ATTESTATION'],
  signs: true,
  aliases: { memory: 'id' },
  http: { method: 'post', path: '/v1/memories/{id}/attestations', status: 201, in: 'body' },
  cli: {
    command: 'attest',
    args: ['id', 'verdict'],
    fields: { id: MEMORY_ARGUMENT, notes: { short: 'n', value: 'text' }, claims: { flag: 'claim', value: 'text', description: 'with partial: an aspect the witness confirms (repeatable)' }, as: { value: 'did' } },
    quiet: 'attestation',
    before: assertMemoryStored,
    render: ({ attestation, memory }) => `attestation ${attestation}\n\n${renderView(memory)}`
  },
  mcp: { tool: 'attest', title: 'Attest' },
  run: async (node, { as: _as, passphrase: _p, id, ...input }, signer) => await node.attest({ memory: id, ...input }, signer!)
})

export const select = defineOperation({
  name: 'select',
  summary: 'FDR-Memory selection for a decision: each memory with the reason, a confidence (its trust), whether it verified, and evidence an Authority can check without the store; the selection is traced in the ledger (M-2).',
  input: SelectRequestSchema.extend({
    selector: SelectRequestSchema.shape.selector.describe('who is selecting, recorded as the evidence\'s verifiedBy and in the ledger trace: usually your own did:key (any id up to 128 characters)'),
    query: SelectRequestSchema.shape.query.describe('words that must all appear in the summary, body or tags'),
    tags: SelectRequestSchema.shape.tags.describe('only memories carrying every one of these tags'),
    author: SelectRequestSchema.shape.author.describe('only memories signed by this did:key'),
    type: SelectRequestSchema.shape.type.describe(`only this kind of memory: ${CONTENT_TYPES.join(', ')}`),
    minTrust: SelectRequestSchema.shape.minTrust.describe('only memories whose trust score is at least this, 0 to 1'),
    minLevel: minLevelField,
    limit: SelectRequestSchema.shape.limit.describe('at most this many, 1 to 100; default 20'),
    method: SelectRequestSchema.shape.method.describe('the evidence\'s proof method; default isnad-ed25519')
  }),
  output: z.strictObject({ selected: z.array(SelectedMemorySchema) }),
  errors: ['SCHEMA_INVALID', 'FIELD_TOO_LARGE', 'DID_INVALID'],
  http: { method: 'post', path: '/v1/select', in: 'body' },
  cli: {
    command: 'query --select',
    fields: {
      query: { flag: 'text', value: 'words' },
      selector: { value: 'actor', defaultKey: true, description: 'who selects (default: the default agent key)' },
      tags: { flag: 'tag', value: 'tag' },
      minTrust: { value: '0..1' },
      type: { short: 't' },
      author: { value: 'did' },
      limit: { value: 'n' }
    },
    // --json: the selection alone, a document `isnad verify` checks.
    json: 'selected',
    render: ({ selected }) => selectionLines(selected)
  },
  mcp: { tool: 'select_memories', title: 'Select memories (FDR-Memory)' },
  run: async (node, request) => ({ selected: await node.select(withLevelBound(request)) })
})

/** The most versions `history` walks, each way from the memory it is given. @default 64 */
export const MAX_HISTORY_VERSIONS = 64

const HistoryVersionSchema = z.strictObject({
  id: recordCid,
  summary: MemoryContentSchema.shape.summary,
  author: didKey,
  created_at: isoTimestamp,
  level: z.enum(TRUST_LEVELS).optional().describe('its trust level on this node')
})

export const history = defineOperation({
  name: 'history',
  summary: 'The versions of a memory, oldest first: the memories it corrects (lineage.supersedes) and those that correct it (each one\'s newest known correction), so a caller learns which version is current.',
  input: MemoryInput,
  output: z.strictObject({
    current: recordCid.describe('the newest version this node knows: the one to rely on'),
    versions: z.array(HistoryVersionSchema).describe(`oldest first, at most ${MAX_HISTORY_VERSIONS} each way from the memory asked for`),
    missing: recordCid.nullable().describe('an older version the oldest one listed corrects but this node does not hold; null when the list starts at the original')
  }),
  errors: ['CID_INVALID', 'NOT_FOUND'],
  readOnly: true,
  http: { method: 'get', path: '/v1/memories/{id}/history', in: 'none' },
  cli: {
    command: 'history',
    args: ['id'],
    fields: { id: MEMORY_ARGUMENT },
    render: ({ current, versions, missing }) => [
      ...(missing === null ? [] : [`(an older version, ${missing}, is not on this node)`]),
      ...versions.map((v) => `${v.id === current ? '*' : ' '} ${v.created_at}  ${v.level ?? ''}  ${v.id}\n    ${v.summary}`)
    ].join('\n')
  },
  mcp: { tool: 'memory_history', title: 'History of a memory', claims: true },
  run: async (node, { id }) => await historyOf(node, id)
})

async function historyOf (node: OperationNode, id: string): Promise<{ current: string, versions: Array<z.input<typeof HistoryVersionSchema>>, missing: string | null }> {
  const versionOf = (view: MemoryView): z.input<typeof HistoryVersionSchema> => {
    const level = TrustResultSchema.shape.level.safeParse((view.trust as { level?: unknown } | null)?.level)
    return { id: view.id, summary: view.content.summary, author: view.provenance.author.agent_id, created_at: view.provenance.created_at, ...(level.success ? { level: level.data } : {}) }
  }
  const asked = await node.show(id)
  const older: MemoryView[] = []
  let missing: string | null = null
  for (let view = asked; view.lineage.supersedes !== null && older.length < MAX_HISTORY_VERSIONS;) {
    const previous = await node.show(view.lineage.supersedes).catch((error: unknown) => {
      if (error instanceof IsnadError && error.code === 'NOT_FOUND') return null
      throw error
    })
    if (previous === null) {
      missing = view.lineage.supersedes
      break
    }
    older.unshift(previous)
    view = previous
  }
  // A correction names what it corrects, so the chain has no cycle; the set guards a store that says otherwise.
  const seen = new Set([asked.id, ...older.map((v) => v.id)])
  const newer: MemoryView[] = []
  for (let next = asked.lineage.superseded_by; next !== null && !seen.has(next) && newer.length < MAX_HISTORY_VERSIONS;) {
    const view = await node.show(next)
    seen.add(view.id)
    newer.push(view)
    next = view.lineage.superseded_by
  }
  const versions = [...older, asked, ...newer]
  return { current: versions[versions.length - 1]?.id ?? id, versions: versions.map(versionOf), missing }
}

/** The memory's trust with the standing of everyone it rests on: the roots, the author and every witness (counted or refused). */
async function explanationOf (node: OperationNode, id: string): Promise<TrustExplanation> {
  const [trust, roots, view] = await Promise.all([node.explainTrust(id), node.listTrustRoots(), node.show(id)])
  const dids = new Set([view.provenance.author.agent_id, ...trust.counted.attestations.map((a) => a.witness), ...trust.refused.attestations.map((a) => a.witness)])
  const agents: Record<string, AgentReputation> = {}
  for (const did of dids) agents[did] = await node.reputation(did)
  return { ...trust, reputation: { roots, agents } }
}
