import { describe, expect, it } from 'vitest'
import { DRAW_INPUT_TAG, drawInput, proveDraw } from '../../../src/draw/index.js'
import { isIsnadError } from '../../../src/errors/index.js'
import { nobleVerifier } from '../../../src/identity/index.js'
import { nodeCryptoVerifier } from '../../../src/fast-crypto/index.js'
import {
  encodeCanonical, encodeSignature, encodeSignedRecord, RECORD_DRAW_INPUT_TAG, recordCidOf, signingInputWithTag, signRecord,
  verifyRecord, verifyRecordAsync, verifyRecordBytes, verifyRecordBytesAsync, type RecordVerifier
} from '../../../src/record/index.js'
import { MAX_DRAW_POPULATION, type AttestationRecord, type SignedRecord } from '../../../src/schema/index.js'
import { CID } from 'multiformats/cid'
import { NOW, seedOf, VALID, validVector } from './fixtures.js'

/*
 * record-v1 R19: an attestation's witness draw is its witness's ECVRF proof for the attested memory,
 * checked last in the pipeline (after freshness) with DRAW_INVALID, on every verifier and form; an
 * attestation without one encodes, and is identified, exactly as before the field existed.
 */

const VERIFIERS: Array<[string, RecordVerifier]> = [['nodeCryptoVerifier', nodeCryptoVerifier], ['nobleVerifier', nobleVerifier]]
const MEMORY = validVector('memory/example').cid
const OTHER_MEMORY = validVector('memory/all-optional-fields').cid

/** Bob's confirm of the example memory with a draw proved for `proofFor` by `proverSeed`, signed by Bob. */
function drawnConfirm ({ population = 10, proofFor = MEMORY, prover = 'bob', proof }: { population?: number, proofFor?: string, prover?: string, proof?: string } = {}): SignedRecord<AttestationRecord> {
  const record = structuredClone(validVector('attestation/confirm').signed.record) as AttestationRecord
  expect(record.memory).toBe(MEMORY)
  record.draw = { population, proof: proof ?? encodeSignature(proveDraw(seedOf(prover), proofFor, population).proof) }
  return signRecord(record, seedOf('bob')).signed as SignedRecord<AttestationRecord>
}

function codeOf (run: () => unknown): string {
  try {
    run()
    return 'accepted'
  } catch (err) {
    return isIsnadError(err) ? err.code : String(err)
  }
}

async function codeOfAsync (run: () => Promise<unknown>): Promise<string> {
  try {
    await run()
    return 'accepted'
  } catch (err) {
    return isIsnadError(err) ? err.code : String(err)
  }
}

describe('record-v1 R19: the witness draw', () => {
  it('spells the draw input as src/draw does', () => {
    expect(RECORD_DRAW_INPUT_TAG).toBe(DRAW_INPUT_TAG)
    expect(signingInputWithTag(RECORD_DRAW_INPUT_TAG, CID.parse(MEMORY))).toEqual(drawInput(MEMORY))
  })

  it('accepts the witness\'s own proof for the memory, as data and as bytes, on every verifier', async () => {
    const signed = drawnConfirm()
    for (const [name, verifier] of VERIFIERS) {
      const options = { verifier, now: NOW }
      const id = verifyRecord(structuredClone(signed), options).id
      expect(verifyRecordBytes(encodeSignedRecord(signed), options).id, name).toBe(id)
      expect((await verifyRecordAsync(structuredClone(signed), options)).id, name).toBe(id)
      expect((await verifyRecordBytesAsync(encodeSignedRecord(signed), options)).id, name).toBe(id)
    }
  })

  const refused: Array<[string, () => SignedRecord<AttestationRecord>]> = [
    ['a proof for another memory', () => drawnConfirm({ proofFor: OTHER_MEMORY })],
    ['another key\'s proof for the memory', () => drawnConfirm({ prover: 'carol' })],
    ['a proof with one bit flipped', () => {
      const proof = proveDraw(seedOf('bob'), MEMORY, 10).proof
      proof[40] = (proof[40] as number) ^ 0x01
      return drawnConfirm({ proof: encodeSignature(proof) })
    }],
    ['a proof whose last character has spare bits set', () => {
      const text = encodeSignature(proveDraw(seedOf('bob'), MEMORY, 10).proof)
      return drawnConfirm({ proof: text.slice(0, -1) + (text.endsWith('A') ? 'B' : 'A') })
    }]
  ]

  it.each(refused)('refuses %s with DRAW_INVALID, on every verifier and form', async (_, make) => {
    const signed = make()
    for (const [name, verifier] of VERIFIERS) {
      const options = { verifier, now: NOW }
      expect(codeOf(() => verifyRecord(structuredClone(signed), options)), name).toBe('DRAW_INVALID')
      expect(codeOf(() => verifyRecordBytes(encodeSignedRecord(signed), options)), name).toBe('DRAW_INVALID')
      expect(await codeOfAsync(async () => await verifyRecordBytesAsync(encodeSignedRecord(signed), options)), name).toBe('DRAW_INVALID')
    }
  })

  it('checks the draw last: a bad signature, or a record from the future, gives its own code first', () => {
    const signed = drawnConfirm({ proofFor: OTHER_MEMORY })
    const options = { verifier: nodeCryptoVerifier, now: NOW }
    expect(codeOf(() => verifyRecord({ ...signed, signature: validVector('attestation/dispute-with-notes').signed.signature }, options))).toBe('SIGNATURE_INVALID')
    const future = structuredClone(signed.record)
    future.witnessed_at = '2027-01-01T00:00:00Z'
    expect(codeOf(() => verifyRecord(signRecord(future, seedOf('bob')).signed, options))).toBe('TIMESTAMP_IN_FUTURE')
  })

  it.each([0, -1, 1.5, MAX_DRAW_POPULATION + 1])('refuses population %s by the schema (record-v1 R4)', (population) => {
    const signed = drawnConfirm()
    signed.record.draw = { population, proof: signed.record.draw?.proof ?? '' }
    expect(codeOf(() => verifyRecord(signed, { verifier: nodeCryptoVerifier, now: NOW }))).toBe('SCHEMA_INVALID')
  })

  it('refuses a proof that is not 107 base64 characters, and unknown fields in the draw, by the schema', () => {
    const signed = drawnConfirm()
    const proof = signed.record.draw?.proof ?? ''
    for (const draw of [{ population: 10, proof: proof + 'A' }, { population: 10, proof: proof.slice(1) }, { population: 10 }, { population: 10, proof, fraction: 0.1 }]) {
      const changed = structuredClone(signed) as unknown as { record: { draw: unknown } }
      changed.record.draw = draw
      expect(codeOf(() => verifyRecord(changed, { verifier: nodeCryptoVerifier, now: NOW })), JSON.stringify(Object.keys(draw))).toBe('SCHEMA_INVALID')
    }
  })

  it('a population at MAX_DRAW_POPULATION is valid', () => {
    expect(codeOf(() => verifyRecord(drawnConfirm({ population: MAX_DRAW_POPULATION }), { verifier: nodeCryptoVerifier, now: NOW }))).toBe('accepted')
  })

  it('leaves every attestation vector without a draw encoded and identified as before', () => {
    const attestations = VALID.vectors.filter((v) => v.signed.record.kind === 'attestation' && !('draw' in v.signed.record))
    expect(attestations.length).toBeGreaterThan(3)
    for (const vector of attestations) {
      expect(recordCidOf(vector.signed.record).toString(), vector.id).toBe(vector.cid)
      expect(verifyRecord(structuredClone(vector.signed), { verifier: nodeCryptoVerifier, now: NOW }).id, vector.id).toBe(vector.cid)
      // The same attestation with a draw is another record: the draw is signed with it.
      const withDraw = { ...vector.signed.record, draw: { population: 10, proof: encodeSignature(new Uint8Array(80)) } }
      expect(recordCidOf(withDraw as AttestationRecord).toString(), vector.id).not.toBe(vector.cid)
      expect(encodeCanonical(withDraw).length, vector.id).toBeGreaterThan(encodeCanonical(vector.signed.record).length)
    }
  })
})
