import { z } from 'zod'
import { RecordInclusionSchema, SignedCheckpointSchema } from '../merkle/index.js'
import { AgentReputationSchema, TrustRootSchema } from '../reputation/index.js'
import {
  BundleSchema, CONTENT_TYPES, MemoryViewSchema, RECORD_KINDS, TRUST_LEVELS, TrustResultSchema, didKey, isoTimestamp,
  recordCid
} from '../schema/index.js'

/*
 * Response shapes: the same JSON as the CLI's --json for the same operation, so a script can switch
 * between `isnad … --json` and the API without changing its parser. They document the API (OpenAPI);
 * the node builds the values, so they are not re-validated on the way out.
 */

/** `isnad id list`, `id new`, `id show`: a key as the keystore describes it, never its secret. */
export const KeyInfoSchema = z.strictObject({
  did: didKey,
  label: z.string().optional(),
  created_at: z.string(),
  encrypted: z.boolean(),
  default: z.boolean(),
  file: z.string()
}).meta({ id: 'KeyInfo' })

/** `isnad status`; `network` only from a running daemon. */
export const NodeStatusSchema = z.strictObject({
  home: z.string(),
  agents: z.array(z.strictObject({ did: didKey, label: z.string().optional(), default: z.boolean() })),
  records: z.record(z.enum(RECORD_KINDS), z.number().int().min(0)),
  network: z.strictObject({
    peer_id: z.string().meta({ description: 'the node\'s libp2p peer id' }),
    addrs: z.array(z.string()).meta({ description: 'the multiaddrs it listens on' }),
    peers: z.number().int().min(0).meta({ description: 'peers connected now' })
  }).optional().meta({ description: 'the network as the running daemon sees it; absent without a daemon' })
}).meta({ id: 'NodeStatus' })

export const MemoryViewResponseSchema = MemoryViewSchema.meta({ id: 'MemoryView' })
export const TrustResultResponseSchema = TrustResultSchema.meta({ id: 'TrustResult' })

/** `isnad trust explain --json`: the TrustResult, plus the standing of everyone the score rests on. */
export const TrustExplanationSchema = TrustResultSchema.extend({
  reputation: z.strictObject({
    roots: z.array(TrustRootSchema),
    /** The author and every witness, counted or refused, by did. */
    agents: z.record(z.string(), AgentReputationSchema)
  }).describe('the node\'s trust roots, and the author\'s and every witness\'s reputation, rank and path from a root')
}).meta({ id: 'TrustExplanation' })
export type TrustExplanation = z.infer<typeof TrustExplanationSchema>

/** `isnad attest --json`. */
export const AttestResultSchema = z.strictObject({
  attestation: recordCid,
  memory: MemoryViewResponseSchema
}).meta({ id: 'AttestResult' })

export const QueryResultItemSchema = z.strictObject({
  id: recordCid,
  trust: z.number().min(0).max(1),
  level: z.enum(TRUST_LEVELS),
  type: z.enum(CONTENT_TYPES),
  summary: z.string(),
  tags: z.array(z.string()),
  author: didKey,
  created_at: isoTimestamp
})

/** `isnad query --json`: most trusted and newest first; `next` is the cursor of the following page. */
export const QueryPageSchema = z.strictObject({
  items: z.array(QueryResultItemSchema),
  next: z.string().optional()
}).meta({ id: 'QueryPage' })

/** Why a check of `verify` failed: the error code and its reason (absent when it passed). */
const checkFailure = { code: z.string().optional(), reason: z.string().optional() }

/** `isnad verify --json`. */
export const DocumentReportSchema = z.strictObject({
  valid: z.boolean(),
  document: z.enum(['memory-view', 'bundle', 'record-inclusion']),
  records: z.array(z.strictObject({ id: z.string().nullable(), kind: z.string(), valid: z.boolean(), ...checkFailure })),
  trust: TrustResultResponseSchema.optional()
}).meta({ id: 'DocumentReport' })

/** `isnad verify --json` of an FDR document: an Authority's verdict per selected memory, or a bare proof's. */
export const FdrReportSchema = z.strictObject({
  valid: z.boolean(),
  document: z.enum(['fdr-selection', 'fdr-proof']),
  verdicts: z.array(z.strictObject({ worldId: z.string().nullable(), accepted: z.boolean(), proofChecked: z.boolean(), ...checkFailure })).optional(),
  proof: z.strictObject({ valid: z.boolean(), ...checkFailure }).optional()
}).meta({ id: 'FdrReport' })

export const BundleResponseSchema = BundleSchema.meta({ id: 'Bundle' })

/** `isnad import --json`. */
export const IngestResultSchema = z.strictObject({
  stored: z.array(recordCid),
  duplicates: z.array(recordCid),
  rescored: z.array(recordCid)
}).meta({ id: 'IngestResult' })

/** `isnad ledger reindex --json`. */
export const ReindexResultSchema = z.strictObject({
  events: z.number().int().min(0),
  records: z.number().int().min(0),
  memories: z.number().int().min(0),
  lastLc: z.number().int().min(0),
  ms: z.number().min(0)
}).meta({ id: 'ReindexResult' })

export const RecordInclusionResponseSchema = RecordInclusionSchema.meta({ id: 'RecordInclusion' })
export const SignedCheckpointResponseSchema = SignedCheckpointSchema.meta({ id: 'SignedCheckpoint' })

/** `isnad ledger observe --json`. */
export const ObserveResultSchema = z.strictObject({
  outcome: z.enum(['new', 'known', 'conflict'])
}).meta({ id: 'ObserveResult' })

export type KeyInfoJson = z.infer<typeof KeyInfoSchema>
export type NodeStatus = z.infer<typeof NodeStatusSchema>
export type QueryPageJson = z.infer<typeof QueryPageSchema>
export type ReindexResult = z.infer<typeof ReindexResultSchema>
export type ObserveOutcome = z.infer<typeof ObserveResultSchema>['outcome']
