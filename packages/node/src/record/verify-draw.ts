import { CID } from 'multiformats/cid'
import { IsnadError } from '../errors/index.js'
import type { IsnadRecord } from '../schema/index.js'
import { decodeBase64 } from './multibase.js'
import { signingInputWithTag } from './encoding.js'
import type { RecordFastPaths } from './fast-paths.js'

/*
 * record-v1 R19, the last step of the verification pipeline: an attestation's witness draw is the
 * witness's own ECVRF proof for the attested memory. Whether the draw selected the witness, and
 * whether its population is believable, depend on the reader's estimate of the network and are the
 * trust policy's (src/trust drawn-witnesses.ts). src/draw holds the draw itself (proving, the
 * fraction, the rule), above this folder, and takes the draw input's tag from here, so the tag is
 * declared once; test/unit/record/verify-draw.test.ts checks the verifier's input is the prover's.
 */

/** witness-draw-v1 §3: the draw input's tag, then the memory's CID bytes (src/draw re-exports it as DRAW_INPUT_TAG). */
export const DRAW_INPUT_TAG = 'isnad/draw/v1\0'

/** An 80-byte ECVRF proof (RFC 9381 §5.5) is 107 unpadded base64 characters. */
const PROOF_BYTES = 80

/**
 * Throws DRAW_INVALID unless `record` is no attestation, carries no draw, or its draw's proof decodes
 * (unpadded base64, zero spare bits, 80 bytes) and verifies under `publicKey`, the witness's key, for
 * the draw input of `record.memory` (record-v1 R19).
 */
export function assertDrawValid (record: IsnadRecord, id: string, publicKey: Uint8Array, paths: Pick<RecordFastPaths, 'vrfVerify'>): void {
  if (record.kind !== 'attestation' || record.draw === undefined) return
  const proof = decodeProof(record.draw.proof)
  const alpha = signingInputWithTag(DRAW_INPUT_TAG, CID.parse(record.memory))
  if (proof === undefined || paths.vrfVerify(publicKey, proof, alpha) === undefined) {
    throw new IsnadError('DRAW_INVALID', `the witness draw of attestation ${id} is not ${record.witness}'s proof for memory ${record.memory}`, {
      details: { id, witness: record.witness, memory: record.memory }
    })
  }
}

function decodeProof (text: string): Uint8Array | undefined {
  try {
    const proof = decodeBase64(text)
    return proof.length === PROOF_BYTES ? proof : undefined
  } catch {
    return undefined // non-zero spare bits: one proof, one spelling
  }
}
