import { sha256 } from '@noble/hashes/sha2.js'
import { encodeDidKey, keyPairFromSeed } from '../../../src/identity/index.js'
import { cidOfBytes } from '../../../src/record/index.js'
import type {
  AnchorRecord, AnchorState, AnchorType, AttestationRecord, AttestationVerdict, MemoryRecord
} from '../../../src/schema/index.js'
import type { AnchorEvidence, AttestationEvidence, MemoryEvidence } from '../../../src/trust/index.js'

/**
 * Evidence factories for the trust tests. The trust module treats ids and agent ids as opaque strings,
 * so tests may pass short labels; `did(label)` and `cid(label)` give real-looking values where a
 * result must also parse with TrustResultSchema.
 */

const utf8 = new TextEncoder()
const MINUTE = 60_000

/** The schema's example 2 memory time; most tests put the memory here and the clock an hour later. */
export const CREATED = '2026-02-05T11:29:38Z'
export const T0 = Date.parse(CREATED)
export const NOW = T0 + 60 * MINUTE

export function iso (ms: number): string {
  return new Date(ms).toISOString()
}

export function minutes (n: number): number {
  return n * MINUTE
}

/** A deterministic Ed25519 did:key for a label. */
export function did (label: string): string {
  return encodeDidKey(keyPairFromSeed(sha256(utf8.encode(`agent:${label}`))).publicKey)
}

/** A deterministic CIDv1 (dag-cbor, sha2-256) for a label. */
export function cid (label: string): string {
  return cidOfBytes(utf8.encode(`record:${label}`)).toString()
}

export interface MemorySpec {
  id?: string
  author?: string
  createdAt?: string
  signatureValid?: boolean
}

export function memoryEvidence ({ id = 'mem', author = 'author', createdAt = CREATED, signatureValid = true }: MemorySpec = {}): MemoryEvidence {
  const record: MemoryRecord = {
    kind: 'memory',
    version: 1,
    content: { type: 'insight', summary: 'Memory synthesis is harder than memory storage', body: '', tags: [] },
    author: { agent_id: author },
    created_at: createdAt,
    context: { confidence: 0.9 },
    lineage: { derived_from: [] }
  }
  return { id, record, signatureValid }
}

export interface AttestationSpec {
  id: string
  witness: string
  verdict?: AttestationVerdict
  /** ms since the epoch. @default T0 + 5 min */
  at?: number
  memory?: string
  signatureValid?: boolean
}

export function attestationEvidence ({
  id, witness, verdict = 'confirm', at = T0 + minutes(5), memory = 'mem', signatureValid = true
}: AttestationSpec): AttestationEvidence {
  const record: AttestationRecord = {
    kind: 'attestation', version: 1, memory, witness, attestation: verdict, witnessed_at: iso(at)
  }
  if (verdict === 'partial') record.claims = ['the summary']
  return { id, record, signatureValid }
}

export interface AnchorSpec {
  id: string
  type?: AnchorType
  reference?: string
  at?: number
  memory?: string
  state?: AnchorState
  signatureValid?: boolean
  anchoredBy?: string
}

export function anchorEvidence ({
  id, type = 'url', reference = `https://example.org/${id}`, at = T0 + minutes(10), memory = 'mem',
  state = 'verified', signatureValid = true, anchoredBy = 'anchorer'
}: AnchorSpec): AnchorEvidence {
  const record: AnchorRecord = {
    kind: 'anchor', version: 1, memory, type, reference, hash: 'sha2-256:00', created_at: iso(at), anchored_by: anchoredBy
  }
  return { id, record, signatureValid, verification: { state } }
}

/** `n` confirms by distinct witnesses `w1`…`wn`, ids `c1`…`cn`. */
export function confirms (n: number, verdict: AttestationVerdict = 'confirm', prefix = 'c'): AttestationEvidence[] {
  return Array.from({ length: n }, (_, i) => attestationEvidence({ id: `${prefix}${i + 1}`, witness: `${prefix}-witness-${i + 1}`, verdict }))
}

/** `n` verified anchors with distinct references. */
export function anchors (n: number): AnchorEvidence[] {
  return Array.from({ length: n }, (_, i) => anchorEvidence({ id: `k${i + 1}` }))
}

export function fixedReputation (value: number): () => number {
  return () => value
}
