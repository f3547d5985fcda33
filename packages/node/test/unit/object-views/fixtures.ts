import { recordCidOf } from '../../../src/record/index.js'
import type { ContentType, MemoryRecord } from '../../../src/schema/index.js'
import type { ReduceInput, ReducibleMemory, ViewEvidence, ViewTrust } from '../../../src/ledger/object-views/index.js'

/**
 * Small factories for reducer tests. Memories carry their real CID (record-v1 §2.3) and a dummy
 * signature: the reducer never checks signatures (the node verified the record before storing it).
 */

export const AUTHOR = 'did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK'
export const WITNESS = 'did:key:z6MkjchhfUsD6mmvni8mCdXHw216Xrm9bQe2mBH1P5RDjVJG'
export const SIGNATURE = 'A'.repeat(86)
export const EVENT = 'evt_aaaaaaaaaaaaaaaaaaaaaaaaaa'
export const EVENT2 = 'evt_bbbbbbbbbbbbbbbbbbbbbbbbbb'
export const CREATED = '2026-02-05T16:00:00Z'
export const SCOPE = 'default'

export interface MemoryFields {
  type?: ContentType
  summary?: string
  body?: string
  tags?: string[]
  created_at?: string
  confidence?: number
  supersedes?: string
}

export function memoryOf (fields: MemoryFields = {}): ReducibleMemory {
  const record: MemoryRecord = {
    kind: 'memory',
    version: 1,
    content: {
      type: fields.type ?? 'observation',
      summary: fields.summary ?? 'New agents ask about memory within 24 hours',
      body: fields.body ?? '',
      tags: fields.tags ?? []
    },
    author: { agent_id: AUTHOR },
    created_at: fields.created_at ?? CREATED,
    context: { confidence: fields.confidence ?? 0.8 },
    lineage: fields.supersedes === undefined ? { derived_from: [] } : { supersedes: fields.supersedes, derived_from: [] }
  }
  return { id: recordCidOf(record).toString(), signed: { record, signature: SIGNATURE } }
}

export const TRUST: ViewTrust = { score: 0.5, level: 'Attested', dispute_count: 0 }

/** A CID that is not any memory above: the record CID of a fixed anchor-like value. */
export function cidOf (label: string): string {
  return memoryOf({ summary: `cid ${label}` }).id
}

export const EVIDENCE: ViewEvidence = {
  attestations: [{ id: cidOf('att-2'), verdict: 'confirm', witness: WITNESS }, { id: cidOf('att-1'), verdict: 'partial' }],
  anchors: [{
    id: cidOf('anchor-1'),
    type: 'url',
    reference: 'https://example.org/evidence',
    hash: 'sha2-256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
    state: 'unchecked'
  }]
}

export function inputOf (memory: ReducibleMemory, extra: Partial<ReduceInput> = {}): ReduceInput {
  return { memory, scope: SCOPE, eventRefs: [EVENT], trust: TRUST, ...extra }
}
