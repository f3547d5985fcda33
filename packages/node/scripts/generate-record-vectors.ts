/**
 * Generates the normative record vectors of protocols/record-v1.md: protocols/vectors/records/
 * valid.json and invalid.json, and the worked example inside record-v1.md (§11).
 *
 *   node scripts/generate-record-vectors.ts           write the files
 *   node scripts/generate-record-vectors.ts --check   exit 1 if a committed file differs
 *
 * Deterministic: the keys come from fixed seeds (RFC 8032 §7.1 TEST 1–3, then labels), Ed25519 is
 * deterministic, and every record is written out below. Independent of src/: it restates the spec
 * (domain tags, limits, `now`) and builds ids and signatures with @ipld/dag-cbor, node:crypto and
 * multiformats, so test/unit/record/vectors.test.ts checks src/record against data it did not
 * produce. Imports only packages, so Node runs it with type stripping. Each invalid vector breaks
 * exactly one rule: it is signed correctly over its own (faulty) content unless the fault is the
 * signature.
 */
import * as dagCbor from '@ipld/dag-cbor'
import { base58btc } from 'multiformats/bases/base58'
import { CID } from 'multiformats/cid'
import * as Digest from 'multiformats/hashes/digest'
import { createHash, createPrivateKey, createPublicKey, sign, type KeyObject } from 'node:crypto'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'

// ---- the spec, restated (record-v1 §3.1, §4) ----

const NOW = '2026-03-01T00:00:00Z'
const DOMAIN_TAGS: Record<string, string> = {
  memory: 'isnad/memory/v1\0',
  attestation: 'isnad/attestation/v1\0',
  anchor: 'isnad/anchor/v1\0',
  witness_request: 'isnad/witness-request/v1\0'
}
const LIMIT = {
  record: 131072, body: 65536, summary: 512, tags: 32, tag: 64, notes: 4096, claims: 32, claim: 512,
  context: 1024, derivedFrom: 64, witnesses: 64, reference: 2048, hash: 256, did: 128
}
/** Records up to this size also get their canonical bytes as hex (the rest: length and CID only). */
const HEX_UP_TO = 1024

// ---- keys, encoding, ids, signatures ----

type Json = null | boolean | number | string | Json[] | { [key: string]: Json }
type Obj = { [key: string]: Json }

interface Key { name: string, seed: string, did: string, publicKey: string, privateKey: KeyObject }

const PKCS8_ED25519 = Buffer.from('302e020100300506032b657004220420', 'hex')

function didKeyOf (publicKey: Uint8Array, codec = [0xed, 0x01]): string {
  return 'did:key:' + base58btc.encode(Uint8Array.from([...codec, ...publicKey]))
}

function keyFromSeed (name: string, seedHex: string): Key {
  const privateKey = createPrivateKey({ key: Buffer.concat([PKCS8_ED25519, Buffer.from(seedHex, 'hex')]), format: 'der', type: 'pkcs8' })
  const publicKey = createPublicKey(privateKey).export({ format: 'der', type: 'spki' }).subarray(12)
  return { name, seed: seedHex, did: didKeyOf(publicKey), publicKey: publicKey.toString('hex'), privateKey }
}

const sha256 = (bytes: Uint8Array): Buffer => createHash('sha256').update(bytes).digest()
const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex')
const labelSeed = (label: string): string => sha256(Buffer.from(label)).toString('hex')

const alice = keyFromSeed('alice', '9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60')
const bob = keyFromSeed('bob', '4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb')
const carol = keyFromSeed('carol', 'c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7')
const KEYS = [alice, bob, carol]

function cidOf (value: Json): CID {
  return CID.createV1(dagCbor.code, Digest.create(0x12, sha256(dagCbor.encode(value))))
}

/** A record id to point at: the CID of some labelled content. */
const ref = (label: string): string => cidOf(`isnad vector ${label}`).toString()

function signingInput (tag: string, cid: CID): Uint8Array {
  return Uint8Array.from([...Buffer.from(tag, 'utf8'), ...cid.bytes])
}

function signRaw (key: Key, message: Uint8Array): string {
  return sign(null, message, key.privateKey).toString('base64').replace(/=+$/, '')
}

interface Signed { record: Obj, signature: string }

/** Signs with the record's own domain tag, or `tag` (null: no tag at all) to build a fault. */
function signed (record: Obj, key: Key, tag: string | null = DOMAIN_TAGS[String(record.kind)] ?? ''): Signed {
  const cid = cidOf(record)
  const message = tag === null ? cid.bytes : signingInput(tag, cid)
  return { record, signature: signRaw(key, message) }
}

// ---- records ----

function clone<T extends Json> (value: T): T {
  return structuredClone(value)
}

/** A copy with the value at `path` replaced, or removed when `value` is undefined. */
function edit (record: Obj, path: string, value: Json | undefined): Obj {
  const out = clone(record)
  const keys = path.split('.')
  const last = keys.pop() as string
  let at = out
  for (const key of keys) at = at[key] as Obj
  if (value === undefined) delete at[last]
  else at[last] = value
  return out
}

const repeat = (unit: string, count: number): string => unit.repeat(count)

function exampleMemory (): Obj {
  return {
    kind: 'memory',
    version: 1,
    content: {
      type: 'insight',
      summary: 'Memory synthesis is harder than memory storage',
      body: 'Knowing what to remember is the hard part.',
      tags: ['memory', 'synthesis']
    },
    author: { agent_id: alice.did },
    created_at: '2026-02-04T16:00:00Z',
    context: { confidence: 0.9 },
    lineage: { derived_from: [] }
  }
}
const EXAMPLE_ID = cidOf(exampleMemory()).toString()

function attestation (fields: Obj = {}): Obj {
  return { kind: 'attestation', version: 1, memory: EXAMPLE_ID, witness: bob.did, attestation: 'confirm', witnessed_at: '2026-02-05T16:05:00Z', ...fields }
}

function anchor (fields: Obj = {}): Obj {
  return {
    kind: 'anchor',
    version: 1,
    memory: EXAMPLE_ID,
    type: 'url',
    reference: 'https://moltbook.com/p/cbd6474f-8478-4894-95f1-7b104a73bcd5',
    hash: 'sha2-256:' + sha256(Buffer.from('anchored post')).toString('hex'),
    created_at: '2026-02-05T16:10:00Z',
    anchored_by: carol.did,
    ...fields
  }
}

function witnessRequest (fields: Obj = {}): Obj {
  return { kind: 'witness_request', version: 1, memory: EXAMPLE_ID, requester: alice.did, created_at: '2026-02-05T16:00:00Z', ...fields }
}

/**
 * A witness draw of `key` for `memory` (record-v1 R19) from protocols/vectors/draw/draw.json, which
 * an ECVRF independent of src/ generated (scripts/generate-draw-vectors.ts): its proof as unpadded
 * base64, the convention of `signature`.
 */
function drawProof (key: Key, memory: string): string {
  const found = drawVectors().find((v) => v.seed === key.seed && v.memory === memory)
  if (found === undefined) throw new Error(`protocols/vectors/draw/draw.json has no draw of ${key.name} for ${memory}`)
  return Buffer.from(found.proof, 'hex').toString('base64').replace(/=+$/, '')
}
const MAX_DRAW_POPULATION = 4294967295

function drawVectors (): Array<{ seed: string, memory: string, proof: string }> {
  return (JSON.parse(readFileSync(new URL('protocols/vectors/draw/draw.json', ROOT), 'utf8')) as { vectors: Array<{ seed: string, memory: string, proof: string }> }).vectors
}

const witnessDids = (count: number): string[] =>
  Array.from({ length: count }, (_, i) => keyFromSeed(`w${i}`, labelSeed(`isnad vector witness ${i}`)).did)

// ---- valid vectors ----

interface ValidVector {
  id: string
  description: string
  signer: string
  signed: Signed
  cid: string
  record_cbor_length: number
  record_cbor_hex?: string
  signing_input_hex?: string
  signed_cbor_hex?: string
}

function valid (id: string, description: string, record: Obj, key: Key): ValidVector {
  const out = signed(record, key)
  const bytes = dagCbor.encode(record)
  const cid = cidOf(record)
  const vector: ValidVector = { id, description, signer: key.name, signed: out, cid: cid.toString(), record_cbor_length: bytes.length }
  if (bytes.length <= HEX_UP_TO) {
    vector.record_cbor_hex = hex(bytes)
    vector.signing_input_hex = hex(signingInput(DOMAIN_TAGS[String(record.kind)] ?? '', cid))
    vector.signed_cbor_hex = hex(dagCbor.encode(out))
  }
  return vector
}

function validVectors (): ValidVector[] {
  const full = {
    ...exampleMemory(),
    content: { type: 'decision', summary: 'Chose provenance over permissions', body: 'Line one.\n\tLine two.\r\n', tags: ['provenance', 'trust'] },
    author: { agent_id: alice.did, platform: 'clawdbot', handle: 'Babel' },
    context: { session_id: 'session-42', trigger: 'Weekly review\nof open questions', confidence: 1 },
    lineage: { supersedes: EXAMPLE_ID, derived_from: [ref('source 1'), ref('source 2')] }
  }
  const atMax = {
    ...exampleMemory(),
    content: {
      type: 'observation',
      summary: repeat('𝄞', LIMIT.summary / 4),
      body: repeat('é', LIMIT.body / 2),
      tags: Array.from({ length: LIMIT.tags }, (_, i) => String(i).padStart(2, '0') + repeat('ü', (LIMIT.tag - 2) / 2))
    },
    author: { agent_id: alice.did, platform: repeat('p', LIMIT.context), handle: repeat('ü', LIMIT.context / 2) },
    context: { session_id: repeat('s', LIMIT.context), trigger: repeat('€', (LIMIT.context - 1) / 3) + 'x', confidence: 0.5 },
    lineage: { supersedes: EXAMPLE_ID, derived_from: Array.from({ length: LIMIT.derivedFrom }, (_, i) => ref(`source ${i}`)) }
  }
  const unicode = (summary: string): Obj => ({
    ...exampleMemory(),
    content: { type: 'encounter', summary, body: 'مرحبا — 記憶 — 🧠🔗\nÅngström', tags: ['ذاكرة', '記憶', '🧠'] }
  })
  return [
    valid('memory/example', 'The worked example of record-v1 §11: optional fields absent, confidence a float.', exampleMemory(), alice),
    valid('memory/all-optional-fields', 'Every optional field present; confidence 1 is an integer in the data model and encodes as CBOR 0x01.', full, alice),
    valid('memory/confidence-zero', 'confidence 0 (integer 0x00) and an empty body and tag list.', {
      ...exampleMemory(), content: { type: 'fact', summary: 'Empty body', body: '', tags: [] }, context: { confidence: 0 }
    }, alice),
    valid('memory/unicode-nfc', 'Non-ASCII text, surrogate pairs, right-to-left script; "é" as one code point (NFC).', unicode('Café ☕ 𝄞'), alice),
    valid('memory/unicode-nfd', 'The same visible text as memory/unicode-nfc with "é" as e + U+0301 (NFD): no normalisation, so another CID.', unicode('Cafe\u0301 ☕ 𝄞'), alice),
    valid('memory/fields-at-limits', 'Every text field at exactly its UTF-8 byte limit (multi-byte characters) and every list at its count limit.', atMax, alice),
    valid('memory/timestamp-millis', 'created_at with milliseconds.', { ...exampleMemory(), created_at: '2026-02-05T16:00:00.123Z' }, alice),
    valid('memory/timestamp-leap-day-2000', '2000-02-29 exists (divisible by 400); old records are accepted.', { ...exampleMemory(), created_at: '2000-02-29T23:59:59Z' }, alice),
    valid('memory/at-clock-skew-limit', `created_at exactly ${NOW} + 15 minutes: not more than MAX_CLOCK_SKEW_MS ahead, accepted.`, { ...exampleMemory(), created_at: '2026-03-01T00:15:00Z' }, alice),
    valid('attestation/confirm', 'Bob confirms the example memory; no notes, no claims.', attestation(), bob),
    valid('attestation/dispute-with-notes', 'A dispute with notes holding a newline and non-ASCII text.', attestation({ attestation: 'dispute', notes: 'Not what I saw.\nSiehe Protokoll — ✓' }), bob),
    valid('attestation/partial-with-claims', 'A partial attestation saying which aspects it confirms.', attestation({ attestation: 'partial', claims: ['the date', 'the participants'] }), bob),
    valid('attestation/fields-at-limits', 'notes at 4096 bytes, 32 claims of 512 bytes each.', attestation({
      attestation: 'partial',
      notes: repeat('ñ', LIMIT.notes / 2),
      claims: Array.from({ length: LIMIT.claims }, (_, i) => String(i).padStart(2, '0') + repeat('c', LIMIT.claim - 2))
    }), bob),
    valid('attestation/with-draw', 'Bob confirms the example memory as a witness the draw selected: his ECVRF proof for it (protocols/vectors/draw/draw.json bob/memory/example) and his population estimate (R19).', attestation({
      draw: { population: 100, proof: drawProof(bob, EXAMPLE_ID) }
    }), bob),
    valid('attestation/with-draw-shards', 'Bob drawn within 4 shards (R19, witness-draw-v1 W12): his population is his estimate of the agents of the author\'s shard; `shards` is part of what the signature covers.', attestation({
      draw: { population: 25, proof: drawProof(bob, EXAMPLE_ID), shards: 4 }
    }), bob),
    valid('attestation/draw-population-at-limit', 'A draw claiming MAX_DRAW_POPULATION (2³² − 1: a 4-byte CBOR integer).', attestation({
      attestation: 'dispute', draw: { population: MAX_DRAW_POPULATION, proof: drawProof(bob, EXAMPLE_ID) }
    }), bob),
    valid('anchor/url', 'A url anchor by a third party (carol).', anchor(), carol),
    valid('anchor/cid', 'A cid anchor: the reference is a canonical CIDv1 of any codec (here raw, 0x55).', anchor({
      type: 'cid', reference: CID.createV1(0x55, Digest.create(0x12, sha256(Buffer.from('blob')))).toString(), hash: 'sha2-256:' + sha256(Buffer.from('blob')).toString('hex')
    }), carol),
    valid('anchor/git-commit', 'A git_commit anchor with a sha1 hash.', anchor({ type: 'git_commit', reference: 'https://example.org/repo.git#0123456789abcdef0123456789abcdef01234567', hash: 'sha1:0123456789abcdef0123456789abcdef01234567' }), carol),
    valid('anchor/fields-at-limits', 'reference at 2048 bytes and hash at 256 bytes.', anchor({
      reference: 'https://example.org/' + repeat('r', LIMIT.reference - 20), hash: 'sha2-256:' + repeat('ab', (LIMIT.hash - 10) / 2) + 'c'
    }), carol),
    valid('witness-request/open', 'An open request: no addressed witnesses, no expiry.', witnessRequest(), alice),
    valid('witness-request/addressed', 'Addressed to bob and carol, expiring a day later.', witnessRequest({ witnesses: [bob.did, carol.did], expires_at: '2026-02-06T16:00:00Z' }), alice),
    valid('witness-request/expires-half-second-later', 'expires_at 500 ms after created_at: compared as instants, though "…00.500Z" sorts before "…00Z" as a string.', witnessRequest({ expires_at: '2026-02-05T16:00:00.500Z' }), alice),
    valid('witness-request/fields-at-limits', '64 addressed witnesses.', witnessRequest({ witnesses: witnessDids(LIMIT.witnesses) }), alice)
  ]
}

// ---- invalid vectors ----

interface InvalidVector {
  id: string
  rule: string
  code: string
  description: string
  /** verifyRecord options beyond `now`. */
  options?: { expected_kind: string }
  /** The JSON input. */
  signed?: Json
  /** Only the JSON path applies (DAG-CBOR cannot carry the fault, e.g. a lone surrogate). */
  json_only?: true
  /** The bytes input: hex, optionally followed by zero bytes up to a total length. */
  bytes?: { hex: string, zero_pad_to?: number }
  /** For bytes: what decodeSignedRecord throws (null: it decodes; verifyRecordBytes then throws `code`). */
  decode_code?: string | null
}

const invalidVectors: InvalidVector[] = []

/** A JSON vector whose record is signed over its own content by `key`. */
function bad (id: string, rule: string, code: string, description: string, record: Obj, key: Key = alice, extra: Partial<InvalidVector> = {}): void {
  invalidVectors.push({ id, rule, code, description, signed: signed(record, key) as unknown as Json, ...extra })
}

function badSigned (id: string, rule: string, code: string, description: string, value: Json, extra: Partial<InvalidVector> = {}): void {
  invalidVectors.push({ id, rule, code, description, signed: value, ...extra })
}

function badBytes (id: string, rule: string, code: string, description: string, bytes: Uint8Array | string, decodeCode: string | null, zeroPadTo?: number): void {
  invalidVectors.push({
    id, rule, code, description, bytes: { hex: typeof bytes === 'string' ? bytes : hex(bytes), ...(zeroPadTo === undefined ? {} : { zero_pad_to: zeroPadTo }) }, decode_code: decodeCode
  })
}

function schemaVectors (): void {
  const memory = exampleMemory()
  const S = 'SCHEMA_INVALID'
  bad('schema/missing-created-at', 'R2', S, 'A required field is missing.', edit(memory, 'created_at', undefined))
  bad('schema/unknown-field', 'R2', S, 'An unknown field: records are closed.', edit(memory, 'mood', 'curious'))
  bad('schema/author-signature-field', 'R2', S, 'The provenance schema puts the signature inside author; here it lives beside the record (§3).', edit(memory, 'author.signature', 'c2ln'))
  bad('schema/id-field', 'R2', S, 'The provenance schema\'s "id": "mem_…" inside the record; the id is the CID, never a field (§2.3).', edit(memory, 'id', 'mem_abc123'))
  bad('schema/null-optional-field', 'R2', S, 'An absent optional field is absent, never null.', edit(memory, 'author.platform', null))
  bad('schema/version-2', 'R2', S, 'version must be 1.', edit(memory, 'version', 2))
  bad('schema/unknown-kind', 'R2', S, 'kind must be one of the four record kinds.', edit(memory, 'kind', 'comment'))
  badSigned('schema/signed-unknown-field', 'R2', S, 'The signed form has exactly record and signature.', { ...signed(memory, alice), id: EXAMPLE_ID } as unknown as Json)
  badSigned('schema/record-not-object', 'R2', S, 'record must be an object.', { record: 'memory', signature: signed(memory, alice).signature })
  bad('schema/wrong-content-type', 'R4', S, 'content.type outside the enumeration.', edit(memory, 'content.type', 'rumor'))
  bad('schema/wrong-verdict', 'R4', S, 'attestation outside confirm/dispute/partial.', attestation({ attestation: 'maybe' }), bob)
  bad('schema/wrong-anchor-type', 'R4', S, 'anchor type outside the enumeration.', anchor({ type: 'ipfs' }), carol)
  bad('schema/confidence-above-one', 'R4', S, 'confidence above 1: a range error, not a size limit (SCHEMA_INVALID, not FIELD_TOO_LARGE).', edit(memory, 'context.confidence', 1.5))
  bad('schema/confidence-negative', 'R4', S, 'confidence below 0.', edit(memory, 'context.confidence', -0.1))
  bad('schema/confidence-string', 'R4', S, 'confidence must be a number.', edit(memory, 'context.confidence', '0.9'))
  const timestamps: Array<[string, string, string]> = [
    ['feb-30', '2026-02-30T00:00:00Z', 'February 30th does not exist (Date.parse would roll it over to March 2nd).'],
    ['no-z', '2026-02-05T16:00:00', 'No Z: a local time.'],
    ['offset', '2026-02-05T16:00:00+00:00', 'An offset instead of Z.'],
    ['space', '2026-02-05 16:00:00Z', 'A space instead of T.'],
    ['lowercase', '2026-02-05t16:00:00z', 'Lower-case t and z.'],
    ['hour-24', '2026-02-05T24:00:00Z', '24:00 is not written; the next day is.'],
    ['leap-second', '2016-12-31T23:59:60Z', 'Leap seconds are not written.'],
    ['feb-29-2100', '2100-02-29T00:00:00Z', '2100 is not a leap year (divisible by 100, not by 400).'],
    ['two-digit-millis', '2026-02-05T16:00:00.12Z', 'Fractions have exactly three digits.'],
    ['date-only', '2026-02-05', 'A date without a time.']
  ]
  for (const [name, value, why] of timestamps) bad(`schema/timestamp-${name}`, 'R5', S, `${value}: ${why}`, edit(memory, 'created_at', value))
  const target = CID.parse(EXAMPLE_ID)
  const cids: Array<[string, string, string]> = [
    ['uppercase', EXAMPLE_ID.toUpperCase(), 'The upper-case base32 spelling of the same CID.'],
    ['mixed-case', EXAMPLE_ID.slice(0, 10) + EXAMPLE_ID.slice(10, 20).toUpperCase() + EXAMPLE_ID.slice(20), 'Upper-case letters after the lower-case multibase prefix b: multiformats decodes it to the same CID.'],
    ['base58btc', target.toString(base58btc), 'The same CIDv1 in base58btc.'],
    ['v0', CID.createV0(Digest.create(0x12, target.multihash.digest)).toString(), 'A CIDv0 (Qm…).'],
    ['raw-codec', CID.createV1(0x55, target.multihash).toString(), 'Codec raw (0x55): records are dag-cbor.'],
    ['short-digest', CID.createV1(0x71, Digest.create(0x12, target.multihash.digest.subarray(0, 16))).toString(), 'A 16-byte sha2-256 digest.'],
    ['spare-bits', EXAMPLE_ID.slice(0, -1) + nextBase32(EXAMPLE_ID.slice(-1)), 'Non-zero spare bits in the last character: decodes to the same bytes, but is not the canonical string.']
  ]
  for (const [name, value, why] of cids) bad(`schema/cid-${name}`, 'R6', S, why, attestation({ memory: value }), bob)
  bad('schema/did-web', 'R7', S, 'Only did:key identities.', edit(memory, 'author.agent_id', 'did:web:example.org'))
  bad('schema/did-base32', 'R7', S, 'did:key is written in base58btc (z…).', edit(memory, 'author.agent_id', 'did:key:b' + repeat('a', 50)))
  bad('schema/tags-duplicated', 'R3', S, 'A tag appears twice.', edit(memory, 'content.tags', ['memory', 'memory']))
  bad('schema/tag-whitespace', 'R3', S, 'A tag with a space.', edit(memory, 'content.tags', ['core problem']))
  bad('schema/tag-empty', 'R3', S, 'An empty tag.', edit(memory, 'content.tags', ['']))
  bad('schema/summary-empty', 'R3', S, 'An empty summary.', edit(memory, 'content.summary', ''))
  bad('schema/summary-control', 'R3', S, 'A BEL control character in the summary.', edit(memory, 'content.summary', 'ding\u0007'))
  bad('schema/summary-newline', 'R3', S, 'The summary is one line.', edit(memory, 'content.summary', 'two\nlines'))
  bad('schema/body-nul', 'R3', S, 'A NUL in the body.', edit(memory, 'content.body', 'a\u0000b'))
  bad('schema/body-lone-surrogate', 'R3', S, 'A lone surrogate: DAG-CBOR would write U+FFFD, so two JSON texts would share one id.', edit(memory, 'content.body', 'a\ud800b'), alice, { json_only: true })
  bad('schema/claims-on-confirm', 'R12', S, 'claims only on a partial attestation.', attestation({ claims: ['the date'] }), bob)
  bad('schema/claims-empty', 'R12', S, 'claims, when present, are not empty.', attestation({ attestation: 'partial', claims: [] }), bob)
  const proof = drawProof(bob, EXAMPLE_ID)
  bad('schema/draw-population-zero', 'R4', S, 'A draw population of 0.', attestation({ draw: { population: 0, proof } }), bob)
  bad('schema/draw-population-above-limit', 'R4', S, 'A draw population of MAX_DRAW_POPULATION + 1: a range, not a size limit.', attestation({ draw: { population: MAX_DRAW_POPULATION + 1, proof } }), bob)
  bad('schema/draw-population-fraction', 'R4', S, 'A draw population of 10.5.', attestation({ draw: { population: 10.5, proof } }), bob)
  bad('schema/draw-proof-short', 'R2', S, 'A proof of 106 characters (not 80 bytes).', attestation({ draw: { population: 100, proof: proof.slice(1) } }), bob)
  bad('schema/draw-shards-one', 'R4', S, 'draw.shards 1: absent is 1, so one meaning has one encoding.', attestation({ draw: { population: 100, proof, shards: 1 } }), bob)
  bad('schema/draw-shards-not-power-of-two', 'R4', S, 'draw.shards 6: shard counts are powers of two.', attestation({ draw: { population: 100, proof, shards: 6 } }), bob)
  bad('schema/draw-shards-above-limit', 'R4', S, 'draw.shards 8192: above the largest shard count, 4096.', attestation({ draw: { population: 100, proof, shards: 8192 } }), bob)
  bad('schema/draw-unknown-field', 'R2', S, 'The draw map is closed: a fraction beside the proof is refused.', attestation({ draw: { population: 100, proof, fraction: 0.25 } }), bob)
  bad('schema/anchor-hash-uppercase', 'R13', S, 'hash is <algorithm>:<lower-case hex>.', anchor({ hash: 'SHA256:ABCDEF' }), carol)
  bad('schema/anchor-hash-no-algorithm', 'R13', S, 'hash names its algorithm.', anchor({ hash: 'abcdef' }), carol)
  bad('schema/anchor-cid-not-cid', 'R13', S, 'A cid anchor references a canonical CIDv1.', anchor({ type: 'cid', reference: 'https://example.org/' }), carol)
  const blob = CID.createV1(0x55, Digest.create(0x12, sha256(Buffer.from('blob')))).toString()
  bad('schema/anchor-cid-mixed-case', 'R13', S, 'A cid anchor whose reference is a CIDv1 with upper-case letters after the b prefix.', anchor({ type: 'cid', reference: blob.slice(0, 10) + blob.slice(10).toUpperCase(), hash: 'sha2-256:' + sha256(Buffer.from('blob')).toString('hex') }), carol)
  bad('schema/request-witnesses-duplicated', 'R14', S, 'An addressed witness appears twice.', witnessRequest({ witnesses: [bob.did, bob.did] }))
  bad('schema/request-witnesses-empty', 'R14', S, 'witnesses, when present, are not empty.', witnessRequest({ witnesses: [] }))
  bad('schema/request-expires-equal', 'R14', S, 'expires_at equal to created_at.', witnessRequest({ expires_at: '2026-02-05T16:00:00Z' }))
  bad('schema/request-expires-same-instant', 'R14', S, 'expires_at the same instant as created_at, spelled with milliseconds (as strings it would sort after).', witnessRequest({ created_at: '2026-02-05T16:00:00.000Z', expires_at: '2026-02-05T16:00:00Z' }))
  bad('schema/derived-from-duplicated', 'R15', S, 'A source listed twice.', edit(memory, 'lineage.derived_from', [EXAMPLE_ID, EXAMPLE_ID]))
  const signature = signed(memory, alice).signature
  badSigned('schema/signature-short', 'R9', S, '85 characters.', { record: memory, signature: signature.slice(1) })
  badSigned('schema/signature-padded', 'R9', S, 'Padded base64.', { record: memory, signature: signature + '==' })
  badSigned('schema/signature-base64url', 'R9', S, 'The base64url alphabet.', { record: memory, signature: signature.slice(0, -2).replace(/.$/, '-') + '_A' })
}

/** The base32 character one value up (spare bits no longer zero). */
function nextBase32 (char: string): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz234567'
  return alphabet[alphabet.indexOf(char) + 1] ?? 'b'
}

function sizeVectors (): void {
  const memory = exampleMemory()
  const F = 'FIELD_TOO_LARGE'
  bad('size/body', 'R8', F, 'body one byte over 65536 (multi-byte characters).', edit(memory, 'content.body', repeat('é', LIMIT.body / 2) + 'a'))
  bad('size/summary', 'R8', F, 'summary one byte over 512.', edit(memory, 'content.summary', repeat('𝄞', LIMIT.summary / 4) + 'a'))
  bad('size/tags-count', 'R8', F, '33 tags.', edit(memory, 'content.tags', Array.from({ length: LIMIT.tags + 1 }, (_, i) => `t${i}`)))
  bad('size/tag', 'R8', F, 'A tag of 65 bytes.', edit(memory, 'content.tags', [repeat('t', LIMIT.tag + 1)]))
  bad('size/trigger', 'R8', F, 'context.trigger one byte over 1024.', edit(memory, 'context.trigger', repeat('x', LIMIT.context + 1)))
  bad('size/derived-from-count', 'R8', F, '65 sources.', edit(memory, 'lineage.derived_from', Array.from({ length: LIMIT.derivedFrom + 1 }, (_, i) => ref(`source ${i}`))))
  bad('size/did', 'R8', F, 'A did:key of 129 characters (well-formed syntax, too long).', edit(memory, 'author.agent_id', 'did:key:z' + repeat('1', LIMIT.did + 1 - 9)))
  bad('size/notes', 'R8', F, 'notes one byte over 4096.', attestation({ notes: repeat('n', LIMIT.notes + 1) }), bob)
  bad('size/claims-count', 'R8', F, '33 claims.', attestation({ attestation: 'partial', claims: Array.from({ length: LIMIT.claims + 1 }, (_, i) => `c${i}`) }), bob)
  bad('size/claim', 'R8', F, 'A claim of 513 bytes.', attestation({ attestation: 'partial', claims: [repeat('c', LIMIT.claim + 1)] }), bob)
  bad('size/reference', 'R8', F, 'reference one byte over 2048.', anchor({ reference: repeat('r', LIMIT.reference + 1) }), carol)
  bad('size/hash', 'R8', F, 'hash one byte over 256.', anchor({ hash: 'sha2-256:' + repeat('a', LIMIT.hash - 8) }), carol)
  bad('size/witnesses-count', 'R8', F, '65 addressed witnesses.', witnessRequest({ witnesses: witnessDids(LIMIT.witnesses + 1) }))
}

const L = 2n ** 252n + 27742317777372353535851937790883648493n

/** The signature with S replaced by S + L: the same value mod L, refused by RFC 8032 §5.1.7. */
function withSPlusL (signature: string): string {
  const bytes = Buffer.from(signature, 'base64')
  let s = 0n
  for (let i = 63; i >= 32; i--) s = (s << 8n) | BigInt(bytes[i] ?? 0)
  s += L
  for (let i = 32; i < 64; i++) {
    bytes[i] = Number(s & 0xffn)
    s >>= 8n
  }
  return bytes.toString('base64').replace(/=+$/, '')
}

function signatureVectors (): void {
  const memory = exampleMemory()
  const good = signed(memory, alice)
  const I = 'SIGNATURE_INVALID'
  badSigned('signature/tampered-field', 'R11', I, 'The summary changed after signing.', { record: edit(memory, 'content.summary', 'Memory storage is harder than synthesis'), signature: good.signature })
  badSigned('signature/of-another-record', 'R11', I, 'A valid signature by the same author over another memory.', { record: memory, signature: signed(edit(memory, 'content.body', 'Another body.'), alice).signature })
  bad('signature/by-another-key', 'R11', I, 'Alice is the author; Bob signed.', memory, bob)
  badSigned('signature/no-domain-tag', 'R11', I, 'Signed over the raw CID bytes, without "isnad/memory/v1\\0": domain separation refuses it.', signed(memory, alice, null) as unknown as Json)
  badSigned('signature/other-kind-tag', 'R11', I, 'A memory signed under the attestation tag: a signature made for one kind never verifies as another.', signed(memory, alice, DOMAIN_TAGS.attestation ?? '') as unknown as Json)
  badSigned('signature/s-plus-l', 'R11', I, 'S + L: the same scalar mod L, not reduced (malleability; strict RFC 8032 §5.1.7 refuses it).', { record: memory, signature: withSPlusL(good.signature) })
  badSigned('signature/all-zero', 'R11', I, 'Sixty-four zero bytes.', { record: memory, signature: repeat('A', 86) })
  const identity = Uint8Array.from([1, ...new Uint8Array(31)])
  const smallOrder = edit(memory, 'author.agent_id', didKeyOf(identity))
  badSigned('signature/small-order-key', 'R11', I, 'The author key is the identity point and the signature is (R = identity, S = 0), which the bare cofactorless equation accepts for every message; the strict policy refuses small-order keys.', {
    record: smallOrder, signature: Buffer.concat([Buffer.from(identity), Buffer.alloc(32)]).toString('base64').replace(/=+$/, '')
  })
  const last = good.signature.slice(-1)
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'
  badSigned('signature/spare-bits', 'R9', 'SIGNATURE_MALFORMED', 'The last character\'s 4 spare bits are not zero: the same 64 bytes, a second spelling.', {
    record: memory, signature: good.signature.slice(0, -1) + (alphabet[alphabet.indexOf(last) + 1] ?? 'B')
  })
}

function didVectors (): void {
  const memory = exampleMemory()
  const D = 'DID_INVALID'
  const key = Buffer.from(alice.publicKey, 'hex')
  bad('did/secp256k1', 'R10', D, 'The author did:key holds a secp256k1 key (multicodec 0xe7).', edit(memory, 'author.agent_id', didKeyOf(Uint8Array.from([2, ...key]), [0xe7, 0x01])))
  bad('did/short-key', 'R10', D, 'An Ed25519 multicodec with 31 key bytes.', edit(memory, 'author.agent_id', didKeyOf(key.subarray(1))))
  bad('did/padded-varint', 'R10', D, 'The multicodec varint written in 3 bytes (ed 81 00): the same key, a second spelling.', edit(memory, 'author.agent_id', didKeyOf(key, [0xed, 0x81, 0x00])))
  bad('did/witness-secp256k1', 'R10', D, 'The witness of an attestation holds a secp256k1 key.', attestation({ witness: didKeyOf(Uint8Array.from([3, ...key]), [0xe7, 0x01]) }), bob)
}

function timeAndKindVectors (): void {
  const T = 'TIMESTAMP_IN_FUTURE'
  bad('time/memory-1ms-past-skew', 'R16', T, `created_at 15 minutes and 1 ms after now (${NOW}).`, { ...exampleMemory(), created_at: '2026-03-01T00:15:00.001Z' })
  bad('time/attestation-next-year', 'R16', T, 'witnessed_at next year.', attestation({ witnessed_at: '2027-03-01T00:00:00Z' }), bob)
  bad('time/request-tomorrow', 'R16', T, 'A witness request dated tomorrow.', witnessRequest({ created_at: '2026-03-02T00:00:00Z' }))
  // The other memory of draw.json: memory/all-optional-fields.
  const otherMemory = drawVectors().find((v) => v.memory !== EXAMPLE_ID)?.memory ?? ''
  const DI = 'DRAW_INVALID'
  bad('draw/proof-for-another-memory', 'R19', DI, 'Bob\'s valid proof for memory/all-optional-fields on his attestation of memory/example.', attestation({ draw: { population: 100, proof: drawProof(bob, otherMemory) } }), bob)
  bad('draw/proof-of-another-key', 'R19', DI, 'Carol\'s proof for memory/example on Bob\'s attestation of it.', attestation({ draw: { population: 100, proof: drawProof(carol, EXAMPLE_ID) } }), bob)
  const flipped = Buffer.from(drawProof(bob, EXAMPLE_ID), 'base64')
  flipped[79] = (flipped[79] as number) ^ 0x01
  bad('draw/proof-bit-flipped', 'R19', DI, 'Bob\'s proof for memory/example with the last bit of s flipped.', attestation({ draw: { population: 100, proof: flipped.toString('base64').replace(/=+$/, '') } }), bob)
  const spelled = drawProof(bob, EXAMPLE_ID)
  const spare = spelled.slice(0, -1) + (spelled.endsWith('A') ? 'B' : String.fromCharCode(spelled.charCodeAt(spelled.length - 1) ^ 1))
  bad('draw/proof-spare-bits', 'R19', DI, 'The proof\'s last base64 character with a spare bit set: the same bytes another way (one proof, one spelling).', attestation({ draw: { population: 100, proof: spare } }), bob)
  bad('kind/attestation-as-memory', 'R17', 'WRONG_KIND', 'A valid attestation where the caller expects a memory.', attestation(), bob, { options: { expected_kind: 'memory' } })
}

function bytesVectors (): void {
  const memory = { ...exampleMemory(), context: { confidence: 0.5 } }
  const good = dagCbor.encode(signed(memory, alice))
  const goodHex = hex(good)
  const R = 'RECORD_TOO_LARGE'
  const DF = 'DECODE_FAILED'
  badBytes('bytes/too-large', 'R8', R, 'A valid signed memory followed by zero bytes up to MAX_RECORD_BYTES + 1: refused before decoding.', good, R, LIMIT.record + 1)
  badBytes('bytes/at-limit-trailing-bytes', 'R18', DF, 'The same padded to exactly MAX_RECORD_BYTES: passes the size step, then trailing bytes fail the decoder.', good, DF, LIMIT.record)
  badBytes('bytes/truncated', 'R18', DF, 'The last byte missing.', good.subarray(0, -1), DF)
  badBytes('bytes/not-cbor', 'R18', DF, 'A lone CBOR break byte.', 'ff', DF)
  badBytes('bytes/non-minimal-integer', 'R18', DF, 'version written as 18 01 instead of 01 (strict decoding).', replaceOnce(goodHex, hex(Buffer.from('gversion\x01', 'latin1')), hex(Buffer.from('gversion\x18\x01', 'latin1'))), DF)
  badBytes('bytes/indefinite-map', 'R18', DF, 'The outer map with indefinite length (bf … ff).', 'bf' + goodHex.slice(2) + 'ff', DF)
  const signatureEntry = goodHex.slice(goodHex.indexOf(hex(Buffer.from('isignature', 'latin1'))))
  badBytes('bytes/duplicate-key', 'R18', DF, 'signature twice in the outer map.', 'a3' + goodHex.slice(2) + signatureEntry, DF)
  const recordEntry = goodHex.slice(2, goodHex.length - signatureEntry.length)
  badBytes('bytes/keys-unsorted', 'R18', DF, 'signature before record: decodes, but is not the canonical form, so the same record would travel under another message id.', 'a2' + signatureEntry + recordEntry, null)
  badBytes('bytes/float32', 'R18', DF, 'confidence 0.5 as a 32-bit float (fa 3f000000) instead of 64 bits: decodes to the same value, not canonical.', replaceOnce(goodHex, 'fb3fe0000000000000', 'fa3f000000'), null)
  badBytes('bytes/cbor-undefined', 'R2', 'SCHEMA_INVALID', 'version written as CBOR undefined (f7), which DAG-CBOR decodes as null.', replaceOnce(goodHex, hex(Buffer.from('gversion\x01', 'latin1')), hex(Buffer.from('gversion\xf7', 'latin1'))), 'SCHEMA_INVALID')
  const att = signed(attestation(), bob)
  const attHex = hex(dagCbor.encode(att))
  const cidText = hex(dagCbor.encode(EXAMPLE_ID))
  const cidTag = 'd82a' + hex(dagCbor.encode(Uint8Array.from([0, ...CID.parse(EXAMPLE_ID).bytes])))
  badBytes('bytes/cid-tag', 'R6', 'SCHEMA_INVALID', 'memory as a DAG-CBOR link (tag 42) instead of the CID string: records hold CIDs as strings.', replaceOnce(attHex, cidText, cidTag), 'SCHEMA_INVALID')
}

function replaceOnce (text: string, from: string, to: string): string {
  const at = text.indexOf(from)
  if (at < 0 || text.indexOf(from, at + 1) >= 0) throw new Error(`expected exactly one ${from}`)
  return text.slice(0, at) + to + text.slice(at + from.length)
}

// ---- files ----

const ROOT = new URL('../', import.meta.url)
const VALID_FILE = new URL('protocols/vectors/records/valid.json', ROOT)
const INVALID_FILE = new URL('protocols/vectors/records/invalid.json', ROOT)
const SPEC_FILE = new URL('protocols/record-v1.md', ROOT)
const GENERATOR = 'scripts/generate-record-vectors.ts (do not edit by hand; run it to regenerate)'

function keysSection (): Json {
  return KEYS.map((k) => ({ name: k.name, seed: k.seed, public_key: k.publicKey, did: k.did }))
}

function validFile (vectors: ValidVector[]): string {
  return JSON.stringify({
    description: 'Valid records of protocols/record-v1.md: every one verifies with the given CID on every verifier; signing it again with the signer\'s seed gives the same signature (Ed25519 is deterministic).',
    generator: GENERATOR,
    now: NOW,
    keys: keysSection(),
    fields: {
      signed: 'the JSON signed form { record, signature } (§3)',
      cid: 'the record id: CIDv1 (dag-cbor, sha2-256) of the canonical DAG-CBOR of the unsigned record (§2.3)',
      record_cbor_hex: 'canonical DAG-CBOR of the record, for records up to ' + HEX_UP_TO + ' bytes',
      signing_input_hex: 'domain tag ‖ CID bytes: what the signature covers (§3.1)',
      signed_cbor_hex: 'canonical DAG-CBOR of { record, signature }: the wire form (§2.4)'
    },
    vectors
  }, null, 2) + '\n'
}

function invalidFile (): string {
  return JSON.stringify({
    description: 'Invalid inputs of protocols/record-v1.md, each breaking one rule: verifyRecord (JSON input) or verifyRecordBytes (bytes input) throws `code` on every verifier, with `now` as the clock.',
    generator: GENERATOR,
    now: NOW,
    keys: keysSection(),
    fields: {
      rule: 'the rule of record-v1 §5 that refuses it',
      signed: 'JSON input for verifyRecord; unless json_only, its DAG-CBOR encoding fails decodeSignedRecord with `code` when the rule is a schema rule, else decodes and fails verifyRecordBytes with `code`',
      bytes: 'bytes input: hex, then zero bytes up to zero_pad_to when given',
      decode_code: 'for bytes: the code of decodeSignedRecord, or null when it decodes (size, DAG-CBOR, schema only)',
      options: 'verifyRecord options beyond now (expected_kind)'
    },
    vectors: invalidVectors
  }, null, 2) + '\n'
}

/** The worked example block of record-v1.md §11, between its markers. */
function workedExample (example: ValidVector): string {
  const wrap = (text: string): string => (text.match(/.{1,64}/g) ?? []).join('\n')
  return [
    '<!-- worked-example:start (generated by scripts/generate-record-vectors.ts) -->',
    `Key: the RFC 8032 §7.1 TEST 1 seed \`${alice.seed}\`, public key \`${alice.publicKey}\`, so the author is \`${alice.did}\`.`,
    '',
    'The record (JSON; the signed form is `{ "record": …, "signature": … }`):',
    '',
    '```json',
    JSON.stringify(example.signed.record, null, 2),
    '```',
    '',
    `Canonical DAG-CBOR of the unsigned record, ${example.record_cbor_length} bytes (hex):`,
    '',
    '```',
    wrap(example.record_cbor_hex ?? ''),
    '```',
    '',
    `id = CIDv1(dag-cbor, sha2-256) of those bytes: \`${example.cid}\``,
    '',
    'Signing input = `"isnad/memory/v1\\0"` ‖ CID bytes (hex):',
    '',
    '```',
    wrap(example.signing_input_hex ?? ''),
    '```',
    '',
    `signature (unpadded base64 of the 64-byte Ed25519 signature): \`${example.signed.signature}\``,
    '',
    `Wire form, canonical DAG-CBOR of \`{ record, signature }\`, ${(example.signed_cbor_hex ?? '').length / 2} bytes = ${example.record_cbor_length} + 106 (§2.4) (hex):`,
    '',
    '```',
    wrap(example.signed_cbor_hex ?? ''),
    '```',
    '<!-- worked-example:end -->'
  ].join('\n')
}

function specWithExample (spec: string, block: string): string {
  const start = spec.indexOf('<!-- worked-example:start')
  const endMarker = '<!-- worked-example:end -->'
  const end = spec.indexOf(endMarker)
  if (start < 0 || end < start) throw new Error('protocols/record-v1.md has no worked-example markers')
  return spec.slice(0, start) + block + spec.slice(end + endMarker.length)
}

function main (): void {
  const valids = validVectors()
  schemaVectors()
  sizeVectors()
  signatureVectors()
  didVectors()
  timeAndKindVectors()
  bytesVectors()
  const example = valids.find((v) => v.id === 'memory/example')
  if (example === undefined) throw new Error('memory/example missing')
  const outputs: Array<[URL, string]> = [
    [VALID_FILE, validFile(valids)],
    [INVALID_FILE, invalidFile()],
    [SPEC_FILE, specWithExample(readFileSync(SPEC_FILE, 'utf8'), workedExample(example))]
  ]
  const check = process.argv.includes('--check')
  let stale = 0
  for (const [file, text] of outputs) {
    let current: string | null = null
    try { current = readFileSync(file, 'utf8') } catch { current = null }
    if (current === text) continue
    if (check) {
      console.error(`${file.pathname} is stale: run node scripts/generate-record-vectors.ts`)
      stale++
    } else {
      mkdirSync(new URL('.', file), { recursive: true })
      writeFileSync(file, text)
      console.error(`wrote ${file.pathname}`)
    }
  }
  console.error(`${valids.length} valid and ${invalidVectors.length} invalid record vectors${check && stale === 0 ? ', up to date' : ''}`)
  if (stale > 0) process.exitCode = 1
}

main()
