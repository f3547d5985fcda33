import { z } from 'zod'
import type { AnchorCheck } from '../../anchor/index.js'
import { AnchorSourceSchema } from '../../anchor/anchor-source.js'
import { SignedCheckpointSchema } from '../../merkle/index.js'
import { ANCHOR_TYPES, BundleSchema, MAX_BUNDLE_BYTES, MAX_BUNDLE_RECORDS, isoTimestamp, recordCid } from '../../schema/index.js'
import { MAX_BUNDLE_REQUEST_BYTES } from '../constants.js'
import {
  BundleResponseSchema, DocumentReportSchema, FdrReportSchema, IngestResultSchema, MemoryViewResponseSchema, ObserveResultSchema,
  RecordInclusionResponseSchema, ReindexResultSchema, SignedCheckpointResponseSchema
} from '../response-shapes.js'
import { bundleEnvelopeError } from '../../memory-view/index.js'
import { isShardCount, SHARDS } from '../../shard/index.js'
import { renderView } from '../render-text.js'
import { ingestLine, reportLines } from './command-text.js'
import { ANCHOR_SOURCE_OPTIONS, assertAnchorable, assertBundleVerifies } from './command-steps.js'
import { cidField, MEMORY_ARGUMENT, NoInput, OLD_NAME_MEMORY, signerFields } from './fields.js'
import { defineOperation } from './spec.js'

/* Evidence and its transport: anchors (anchors-v1), verify / export / import (record-v1 §6), the ledger (transparency-v1). */

const checkedState = z.enum(['verified', 'mismatch', 'unreachable', 'unverifiable'])

export const AnchorCheckSchema = z.strictObject({
  id: recordCid,
  memory: recordCid,
  type: z.enum(ANCHOR_TYPES),
  reference: z.string(),
  state: checkedState,
  reason: z.string(),
  checked_at: isoTimestamp,
  drift: z.boolean().optional(),
  previous: checkedState.optional()
}).meta({ id: 'AnchorCheck' })

export const addAnchor = defineOperation({
  name: 'addAnchor',
  summary: 'Sign an anchor tying a stored memory to outside evidence (a file, a CID, a git commit, a URL, a Moltbook post, a blockchain reference); returns the anchor id and the memory\'s new view with each anchor\'s verification state.',
  input: z.strictObject({
    id: cidField(`the id of the stored memory to anchor${OLD_NAME_MEMORY}`),
    anchor: AnchorSourceSchema.describe('where the evidence comes from, by `source`: file {path}, cid {cid}, git {repository, commit, path?}, url {url}, moltbook {url}, blockchain {…}'),
    ...signerFields
  }),
  output: z.strictObject({
    anchor: recordCid.describe('the new anchor\'s id'),
    memory: MemoryViewResponseSchema
  }),
  errors: ['SCHEMA_INVALID', 'FIELD_TOO_LARGE', 'CID_INVALID', 'NOT_FOUND', 'USAGE', 'PATH_FORBIDDEN', 'UNKNOWN_KEY', 'PASSPHRASE_REQUIRED', 'PASSPHRASE_WRONG'],
  signs: true,
  aliases: { memory: 'id' },
  http: { method: 'post', path: '/v1/memories/{id}/anchors', status: 201, in: 'body' },
  cli: {
    command: 'anchor add',
    args: ['id'],
    fields: { id: MEMORY_ARGUMENT, anchor: { from: ANCHOR_SOURCE_OPTIONS }, as: { value: 'did' } },
    quiet: 'anchor',
    before: assertAnchorable,
    render: ({ anchor, memory }) => `anchor ${anchor}\n\n${renderView(memory)}`
  },
  mcp: { tool: 'anchor', title: 'Anchor' },
  run: async (node, { id, anchor }, signer) => await node.addAnchor({ ...anchor, memory: id }, signer!)
})

export const checkAnchors = defineOperation({
  name: 'checkAnchors',
  summary: 'Check a memory\'s anchors (or every anchor) against their evidence now: verified, mismatch, unreachable or unverifiable, and why.',
  input: z.strictObject({ id: cidField(`only the anchors of the memory with this id; absent: every anchor${OLD_NAME_MEMORY}`).optional() }),
  aliases: { memory: 'id' },
  output: z.strictObject({ checks: z.array(AnchorCheckSchema) }),
  errors: ['CID_INVALID', 'NOT_FOUND'],
  http: { method: 'post', path: '/v1/anchors/check', in: 'body', optionalBody: true },
  cli: {
    command: 'anchor check',
    args: ['id'],
    fields: { id: { value: 'memory', description: 'the memory whose anchors to check (default: every anchor)' } },
    render: ({ checks }) => checks.length === 0
      ? 'no anchors'
      : checks.map((c) => {
        const change = c.previous !== undefined && c.previous !== c.state ? ` (was ${c.previous})` : ''
        return `${c.state}${change}  ${c.type} ${c.reference}\n    ${c.reason}\n    anchor ${c.id} of ${c.memory}, checked ${c.checked_at}`
      }).join('\n')
  },
  mcp: { tool: 'check_anchors', title: 'Check anchors' },
  run: async (node, { id }) => ({ checks: await node.checkAnchors(id) satisfies AnchorCheck[] })
})

export const verify = defineOperation({
  name: 'verify',
  summary: 'Check a memory view, an export bundle, a record inclusion proof, or an FDR proof or selection with nothing but the document itself: ids, signatures, anchors, evidence. An invalid document is a report with `valid: false` and a reason per record (per selected memory).',
  input: z.strictObject({
    document: z.union([z.record(z.string(), z.unknown()), z.array(z.unknown())]).describe('a memory view (show), an export bundle (exportBundle), a record inclusion proof (proveRecord), or an FDR selection (select) or proof, as JSON')
  }),
  output: z.union([DocumentReportSchema, FdrReportSchema]),
  errors: ['SCHEMA_INVALID', 'FIELD_TOO_LARGE', 'BUNDLE_INVALID', 'PROOF_MALFORMED'],
  readOnly: true,
  http: {
    method: 'post', path: '/v1/verify', in: 'body', bodyField: 'document', maxBodyBytes: MAX_BUNDLE_REQUEST_BYTES,
    description: 'The body is the document itself. An invalid document is a 200 with `valid: false`; only a body that is not such a document at all is a 400.'
  },
  opens: 'nothing',
  cli: {
    command: 'verify',
    args: ['document'],
    fields: { document: { value: 'file', file: { maxBytes: MAX_BUNDLE_BYTES, json: true }, description: 'a JSON file from `show --json`, `export`, `ledger prove`, `query --select --json`' } },
    fails: (report) => !report.valid,
    render: reportLines
  },
  mcp: { tool: 'verify', title: 'Verify' },
  run: async (node, { document }) => await node.verify(document)
})

export const exportBundle = defineOperation({
  name: 'exportBundle',
  summary: 'A bundle of memories with all their witnesses, anchors and requests, checkable offline with verify and loadable with importBundle.',
  input: z.strictObject({
    ids: z.array(cidField('a memory id')).min(1).max(MAX_BUNDLE_RECORDS).describe(`the memory ids to export, 1 to ${MAX_BUNDLE_RECORDS}`)
  }),
  output: BundleResponseSchema,
  errors: ['CID_INVALID', 'FIELD_TOO_LARGE', 'NOT_FOUND'],
  readOnly: true,
  http: { method: 'post', path: '/v1/export', in: 'body' },
  cli: { command: 'export', args: ['ids'], fields: { ids: { value: 'memory', description: 'memory ids (CIDs)' } }, out: (bundle) => `${bundle.records.length} records` },
  mcp: { tool: 'export_bundle', title: 'Export a bundle' },
  run: async (node, { ids }) => await node.exportBundle(ids)
})

export const importBundle = defineOperation({
  name: 'importBundle',
  summary: 'Verify a bundle and store its records, all or nothing: one bad record refuses the whole bundle.',
  input: z.strictObject({
    bundle: BundleSchema.describe(`an export bundle {format, records[]}: at most ${MAX_BUNDLE_RECORDS} records; more is FIELD_TOO_LARGE`)
  }),
  output: IngestResultSchema,
  errors: ['SCHEMA_INVALID', 'FIELD_TOO_LARGE', 'BUNDLE_INVALID', 'SIGNATURE_INVALID', 'CID_MISMATCH', 'TIMESTAMP_IN_FUTURE', 'SELF_ATTESTATION'],
  // The envelope's faults have the codes verify and the CLI give (view/verify-document.ts); a bad record keeps its own.
  inputError: (error) => {
    // An unknown key beside the bundle is the input's fault, SCHEMA_INVALID as everywhere.
    if (error.issues.some((i) => i.path[0] !== 'bundle')) return undefined
    const envelope = error.issues.filter((i) => !(i.path[1] === 'records' && typeof i.path[2] === 'number'))
    return envelope.length === 0 ? undefined : bundleEnvelopeError(new z.ZodError(envelope))
  },
  http: { method: 'post', path: '/v1/import', in: 'body', bodyField: 'bundle', maxBodyBytes: MAX_BUNDLE_REQUEST_BYTES, description: 'The body is the bundle itself.' },
  cli: {
    command: 'import',
    args: ['bundle'],
    fields: { bundle: { value: 'file', file: { maxBytes: MAX_BUNDLE_BYTES, json: true }, description: 'a bundle (from `isnad export`)' } },
    before: assertBundleVerifies,
    render: ingestLine
  },
  mcp: { excluded: 'bundles reach 8 MiB and write other nodes\' records: an operator\'s act (`isnad import`), not a model\'s' },
  run: async (node, { bundle }) => await node.importBundle(bundle)
})

const ReindexInput = z.strictObject({
  shardCount: z.number().int().refine(isShardCount, `must be a power of two from 1 to ${SHARDS.maxCount}`)
    .describe('the shard count memories are scored with, as `isnad start --shard-count` (witness-draw-v1 W12); default: the running daemon\'s (another is USAGE through a daemon), else the home\'s `shard-count` setting, else from the network\'s size')
    .optional()
})

export const reindex = defineOperation({
  name: 'reindex',
  summary: 'Rebuild the LevelDB index from the ledgers alone, scoring memories as the node does; other requests wait meanwhile.',
  input: ReindexInput,
  output: ReindexResultSchema,
  errors: ['STORE_LOCKED', 'LEDGER_LOCKED', 'LEDGER_CORRUPT', 'CONFIG_INVALID'],
  opens: 'ledgers',
  http: { method: 'post', path: '/v1/ledger/reindex', in: 'body', optionalBody: true, description: 'Other requests wait while the index is rebuilt. The daemon scores with its own shard count; a `shardCount` other than it is USAGE.' },
  cli: {
    command: 'ledger reindex',
    fields: { shardCount: { value: 'count', description: 'a power of two 1-4096: score with this shard count (default: the home\'s `shard-count` setting, $ISNAD_SHARD_COUNT or .memory/config.json, as `isnad start` takes it; else from the network\'s size)' } },
    render: (r) => `reindexed ${r.events} events (${r.records} records, ${r.memories} memories) up to lc ${r.lastLc} in ${r.ms} ms`
  },
  mcp: { excluded: 'maintenance of the data directory is the operator\'s' },
  run: async (node, { shardCount }) => await node.reindex(shardCount === undefined ? {} : { shardCount })
})

export const proveRecord = defineOperation({
  name: 'proveRecord',
  summary: 'A self-contained proof that a record is in this node\'s signed Merkle log, against a checkpoint that covers it (signed now if the log grew since); check it with verify.',
  input: z.strictObject({ id: cidField('the record id (a CID, bafyrei…)') }),
  output: RecordInclusionResponseSchema,
  errors: ['CID_INVALID', 'NOT_FOUND'],
  opens: 'ledgers',
  http: { method: 'get', path: '/v1/ledger/prove/{id}', in: 'none' },
  // No rendering: the proof is a document, printed as JSON for `isnad verify`.
  cli: { command: 'ledger prove', args: ['id'], fields: { id: { value: 'record' } } },
  mcp: { tool: 'prove_record', title: 'Prove a record is in the log' },
  run: async (node, { id }) => await node.proveRecord(id)
})

export const latestCheckpoint = defineOperation({
  name: 'latestCheckpoint',
  summary: 'The newest checkpoint this node signed over its log (signed now if the log grew since).',
  input: NoInput,
  output: SignedCheckpointResponseSchema,
  errors: ['NOT_FOUND'],
  opens: 'ledgers',
  http: { method: 'get', path: '/v1/ledger/checkpoint', in: 'none' },
  cli: {
    command: 'ledger checkpoint',
    render: ({ record }) => `log ${record.log}\nsize ${record.size}\nroot ${record.root}\nat   ${record.created_at}`
  },
  mcp: { tool: 'latest_checkpoint', title: 'Latest checkpoint' },
  run: async (node) => await node.latestCheckpoint()
})

export const observeCheckpoint = defineOperation({
  name: 'observeCheckpoint',
  summary: 'Keep a signed checkpoint of some log; one that conflicts with a kept checkpoint of the same size is recorded as proof of misbehaviour.',
  input: z.strictObject({ checkpoint: SignedCheckpointSchema.describe('a signed checkpoint (latestCheckpoint of some node)') }),
  output: ObserveResultSchema,
  errors: ['SCHEMA_INVALID', 'SIGNATURE_INVALID', 'TIMESTAMP_IN_FUTURE'],
  http: { method: 'post', path: '/v1/ledger/observe', in: 'body', bodyField: 'checkpoint', description: 'The body is the checkpoint itself.' },
  cli: {
    command: 'ledger observe',
    args: ['checkpoint'],
    fields: { checkpoint: { value: 'file', file: { maxBytes: MAX_BUNDLE_BYTES, json: true }, description: 'a signed checkpoint (from `isnad ledger checkpoint --json`)' } },
    render: ({ outcome }) => outcome === 'conflict'
      ? 'CONFLICT: this log signed another root for the same size; recorded in coordination/conflicts.jsonl'
      : outcome === 'known' ? 'already known' : 'kept'
  },
  mcp: { excluded: 'what the node keeps as evidence of other logs is the operator\'s choice' },
  run: async (node, { checkpoint }) => ({ outcome: await node.observeCheckpoint(checkpoint) })
})
