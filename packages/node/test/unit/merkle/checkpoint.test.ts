import { readFileSync, writeFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { codeOf } from '../../fixtures/error-code.js'
import { nobleVerifier, type SignatureVerifier } from '../../../src/identity/index.js'
import { nodeCryptoVerifier } from '../../../src/fast-crypto/index.js'
import { encodeCanonical } from '../../../src/record/index.js'
import { RecordSchema } from '../../../src/schema/index.js'
import {
  MerkleLog, checkpointCidOf, checkpointSigningInput, createCheckpoint, createMemoryNodeStore, hashToHex,
  signCheckpoint, verifyCheckpoint, type CheckpointRecord, type SignedCheckpoint
} from '../../../src/merkle/index.js'
import { buildCheckpointVectors, type VectorKey } from './checkpoint-vector-data.js'

/** protocols/vectors/merkle/checkpoint.json (transparency-v1 §5), with both verifiers. */

interface ValidVector { id: string, signed: SignedCheckpoint, cid: string, record_cbor_hex: string, signing_input_hex: string }
interface InvalidVector { id: string, code: string, signed: unknown }
interface CheckpointVectors { now: string, keys: VectorKey[], valid: ValidVector[], invalid: InvalidVector[] }

const FILE = new URL('../../../protocols/vectors/merkle/checkpoint.json', import.meta.url)
if (process.env.ISNAD_WRITE_VECTORS === '1') writeFileSync(FILE, JSON.stringify(buildCheckpointVectors(), null, 2) + '\n')
const vectors = JSON.parse(readFileSync(FILE, 'utf8')) as CheckpointVectors
const now = Date.parse(vectors.now)
const VERIFIERS: SignatureVerifier[] = [nodeCryptoVerifier, nobleVerifier]
const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex')
const seedOf = (did: string): Uint8Array => Buffer.from(vectors.keys.find((k) => k.did === did)?.seed ?? '', 'hex')

describe('checkpoint vectors', () => {
  it('the committed file is what the independent builder makes', () => {
    expect(vectors).toEqual(buildCheckpointVectors())
  })

  it('valid checkpoints: id, canonical bytes, signing input, the same signature again, and verification', () => {
    for (const v of vectors.valid) {
      const record = v.signed.record
      expect(hex(encodeCanonical(record)), v.id).toBe(v.record_cbor_hex)
      const cid = checkpointCidOf(record)
      expect(cid.toString(), v.id).toBe(v.cid)
      expect(hex(checkpointSigningInput(cid)), v.id).toBe(v.signing_input_hex)
      expect(signCheckpoint(record, seedOf(record.log)), v.id).toEqual({ id: v.cid, signed: v.signed })
      for (const verifier of VERIFIERS) {
        const verified = verifyCheckpoint(JSON.parse(JSON.stringify(v.signed)), verifier, { now })
        expect(verified.id, `${v.id} (${verifier.name})`).toBe(v.cid)
        expect(hashToHex(verified.root), v.id).toBe(record.root)
      }
    }
  })

  it('invalid checkpoints are refused with their code', () => {
    for (const v of vectors.invalid) {
      for (const verifier of VERIFIERS) {
        expect(codeOf(() => verifyCheckpoint(v.signed, verifier, { now })), `${v.id} (${verifier.name})`).toBe(v.code)
      }
    }
  })
})

describe('signing checkpoints', () => {
  const key = vectors.keys[0] as VectorKey
  const other = vectors.keys[1] as VectorKey

  it('signs the checkpoint of a MerkleLog, and only with the log key', async () => {
    const log = await MerkleLog.open({ store: createMemoryNodeStore() })
    await log.append([Uint8Array.of(1), Uint8Array.of(2), Uint8Array.of(3)])
    const record = createCheckpoint({ log: key.did, size: log.size, root: await log.root(), createdAt: '2026-02-05T16:00:00Z' })
    const { id, signed } = signCheckpoint(record, seedOf(key.did))
    expect(verifyCheckpoint(signed, nodeCryptoVerifier).id).toBe(id)
    expect(codeOf(() => signCheckpoint(record, seedOf(other.did)))).toBe('KEY_INVALID')
    expect(codeOf(() => signCheckpoint({ ...record, size: -1 }, seedOf(key.did)))).toBe('SCHEMA_INVALID')
    // Without a clock, freshness is not checked; with one it is (R13).
    const future = signCheckpoint({ ...record, created_at: '2030-01-01T00:00:00Z' }, seedOf(key.did)).signed
    expect(codeOf(() => verifyCheckpoint(future, nodeCryptoVerifier))).toBe('accepted')
    expect(codeOf(() => verifyCheckpoint(future, nodeCryptoVerifier, { now }))).toBe('TIMESTAMP_IN_FUTURE')
  })

  it('a checkpoint is not a record of the record store (it lives in the ledger)', () => {
    const record: CheckpointRecord = (vectors.valid[0] as ValidVector).signed.record
    expect(RecordSchema.safeParse(record).success).toBe(false)
  })
})
