import fc from 'fast-check'
import { encodeDidKey, keyPairFromSeed } from '../../../src/identity/index.js'
import { proveDraw } from '../../../src/draw/index.js'
import { cidOfBytes, encodeSignature } from '../../../src/record/index.js'
import {
  ANCHOR_TYPES, MAX_DRAW_POPULATION, type AttestationDraw, ATTESTATION_VERDICTS, CONTENT_TYPES, type AnchorRecord, type AttestationRecord, type IsnadRecord,
  type MemoryRecord, type WitnessRequestRecord
} from '../../../src/schema/index.js'

/** fast-check arbitraries of schema-valid records (record-v1 §1), signed by one of three fixed keys. */

export const SIGNERS = [1, 2, 3].map((n) => {
  const { secretKey, publicKey } = keyPairFromSeed(new Uint8Array(32).fill(n))
  return { secretKey, seed: new Uint8Array(32).fill(n), did: encodeDidKey(publicKey) }
})

/** Well-formed Unicode with the control characters replaced (record-v1 R3). */
function text (minLength: number, maxLength: number, newlines = false): fc.Arbitrary<string> {
  const control = newlines ? /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/gu : /[\u0000-\u001F\u007F]/gu
  return fc.string({ unit: fc.oneof(fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }), fc.constantFrom('a', 'é', '𝄞', '\n', ' ')), minLength, maxLength })
    .map((s) => s.replace(control, '·'))
}

const tag = text(1, 8).map((s) => s.replace(/\s/gu, '_'))
const recordCid = fc.uint8Array({ minLength: 1, maxLength: 8 }).map((bytes) => cidOfBytes(bytes).toString())
const timestamp = fc.tuple(fc.date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2026-02-28T00:00:00Z'), noInvalidDate: true }), fc.boolean())
  .map(([date, millis]) => millis ? date.toISOString() : date.toISOString().slice(0, 19) + 'Z')
const confidence = fc.double({ min: 0, max: 1, noNaN: true }).map((x) => x === 0 ? 0 : x)
const signer = fc.nat({ max: SIGNERS.length - 1 })

/** Copies `fields` without its undefined entries: absent optional fields are absent (record-v1 §2.2). */
function present<T extends object> (fields: T): T {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as T
}

const opt = <T>(arb: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> => fc.option(arb, { nil: undefined })

const memory = fc.record({
  signer, type: fc.constantFrom(...CONTENT_TYPES), summary: text(1, 20), body: text(0, 60, true),
  tags: fc.uniqueArray(tag, { maxLength: 4 }), platform: opt(text(1, 10)), handle: opt(text(1, 10)), created_at: timestamp,
  session_id: opt(text(1, 10)), trigger: opt(text(1, 20, true)), confidence, supersedes: opt(recordCid),
  derived_from: fc.uniqueArray(recordCid, { maxLength: 3 })
}).map((f): MemoryRecord => ({
  kind: 'memory',
  version: 1,
  content: { type: f.type, summary: f.summary, body: f.body, tags: f.tags },
  author: present({ agent_id: SIGNERS[f.signer]!.did, platform: f.platform, handle: f.handle }),
  created_at: f.created_at,
  context: present({ session_id: f.session_id, trigger: f.trigger, confidence: f.confidence }),
  lineage: present({ supersedes: f.supersedes, derived_from: f.derived_from })
}))

/** A draw's population: small, at the 1-, 2- and 4-byte CBOR boundaries, up to MAX_DRAW_POPULATION. */
const population = fc.oneof(fc.integer({ min: 1, max: 30 }), fc.constantFrom(23, 24, 255, 256, 65535, 65536, MAX_DRAW_POPULATION))

const attestation = fc.record({
  signer, memory: recordCid, verdict: fc.constantFrom(...ATTESTATION_VERDICTS), witnessed_at: timestamp,
  notes: opt(text(0, 30, true)), claims: opt(fc.array(text(1, 10), { minLength: 1, maxLength: 3 })),
  population: opt(population)
}).map((f): AttestationRecord => present({
  kind: 'attestation' as const,
  version: 1 as const,
  memory: f.memory,
  witness: SIGNERS[f.signer]!.did,
  attestation: f.verdict,
  witnessed_at: f.witnessed_at,
  notes: f.notes,
  claims: f.verdict === 'partial' ? f.claims : undefined,
  // record-v1 R19: a real proof by the witness's key for this memory, so the record verifies.
  draw: f.population === undefined ? undefined : drawOf(SIGNERS[f.signer]!.seed, f.memory, f.population)
}))

const anchor = fc.record({
  signer, memory: recordCid, type: fc.constantFrom(...ANCHOR_TYPES), reference: text(1, 30), cid: recordCid,
  hash: fc.uint8Array({ minLength: 1, maxLength: 32 }), created_at: timestamp
}).map((f): AnchorRecord => ({
  kind: 'anchor',
  version: 1,
  memory: f.memory,
  type: f.type,
  reference: f.type === 'cid' ? f.cid : f.reference,
  hash: 'sha2-256:' + Buffer.from(f.hash).toString('hex'),
  created_at: f.created_at,
  anchored_by: SIGNERS[f.signer]!.did
}))

const witnessRequest = fc.record({
  signer, memory: recordCid, witnesses: opt(fc.uniqueArray(fc.constantFrom(...SIGNERS.map((s) => s.did)), { minLength: 1 })),
  created_at: timestamp, ttl: opt(fc.integer({ min: 1, max: 10 ** 9 }))
}).map((f): WitnessRequestRecord => present({
  kind: 'witness_request' as const,
  version: 1 as const,
  memory: f.memory,
  requester: SIGNERS[f.signer]!.did,
  witnesses: f.witnesses,
  created_at: f.created_at,
  expires_at: f.ttl === undefined ? undefined : new Date(Date.parse(f.created_at) + f.ttl).toISOString()
}))

export const anyRecord: fc.Arbitrary<IsnadRecord> = fc.oneof(memory, attestation, anchor, witnessRequest)

export function secretKeyOf (record: IsnadRecord): Uint8Array {
  const did = record.kind === 'memory'
    ? record.author.agent_id
    : record.kind === 'attestation' ? record.witness : record.kind === 'anchor' ? record.anchored_by : record.requester
  const found = SIGNERS.find((s) => s.did === did)
  if (found === undefined) throw new Error('record signed by an unknown key')
  return found.secretKey
}

/** A witness draw (record-v1 R19) with a proof by `seed` for `memory`. */
export function drawOf (seed: Uint8Array, memory: string, population: number): AttestationDraw {
  return { population, proof: encodeSignature(proveDraw(seed, memory, population).proof) }
}

