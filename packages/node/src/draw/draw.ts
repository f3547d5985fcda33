import { CID } from 'multiformats/cid'
import { IsnadError } from '../errors/index.js'
import { ECVRF_OUTPUT_BYTES } from '../identity/index.js'
import { PORTABLE_FAST_PATHS, signingInputWithTag, type RecordFastPaths } from '../record/index.js'
import { isRecordCid } from '../schema/index.js'
import { DRAW_INPUT_TAG } from './constants.js'
import { isDrawn } from './rule.js'

/*
 * A witness's draw for one memory (protocols/witness-draw-v1.md §3–§5): an ECVRF proof under its own
 * key of the memory's draw input, and the fraction in [0, 1) that the proof's output gives. Whether
 * that fraction draws the witness is rule.ts's.
 */

/** The ECVRF operations the draw uses: the platform's (src/native, libsodium) or the portable ones. */
export type DrawPaths = Pick<RecordFastPaths, 'vrfProve' | 'vrfVerify' | 'vrfProofToHash'>

/** What proveDraw gives: the attestation's `draw` ({ population, proof }) and what it decided. */
export interface DrawProof {
  /** The population the witness states (its estimate of the agents that could be drawn). */
  population: number
  /** The 80-byte ECVRF proof (RFC 9381 §5.1) of the memory's draw input. */
  proof: Uint8Array
  /** The draw's fraction in [0, 1) (drawFraction of the proof's output). */
  fraction: number
  /** Whether the fraction draws the witness at that population (isDrawn, default size). */
  drawn: boolean
}

/** 2^53: the fraction keeps the top 53 bits of beta, the precision of a double (witness-draw-v1 §4). */
const FRACTION_SCALE = 2 ** 53

/**
 * alpha_string of a memory's draw (witness-draw-v1 §3): the UTF-8 bytes of `isnad/draw/v1\0`, then
 * the bytes of the memory's CID (the construction of record-v1 §3.1's signing inputs, under a tag
 * no record kind uses). Throws CID_INVALID unless `memoryCid` is a canonical record CID (record-v1 R6).
 */
export function drawInput (memoryCid: string): Uint8Array {
  if (typeof memoryCid !== 'string' || !isRecordCid(memoryCid)) {
    throw new IsnadError('CID_INVALID', 'a witness draw is for a memory: a canonical record CID', { details: { memory: String(memoryCid).slice(0, 128) } })
  }
  return signingInputWithTag(DRAW_INPUT_TAG, CID.parse(memoryCid))
}

/**
 * The draw's fraction of a VRF output (witness-draw-v1 §4): the first 8 bytes of beta as a big-endian
 * integer over 2^64, keeping its top 53 bits so the double is exact — m / 2^53 with m the first 53
 * bits of beta. In [0, 1). Throws PROOF_MALFORMED unless beta is 64 bytes.
 */
export function drawFraction (beta: Uint8Array): number {
  if (!(beta instanceof Uint8Array) || beta.length !== ECVRF_OUTPUT_BYTES) {
    throw new IsnadError('PROOF_MALFORMED', `an ECVRF output has 64 bytes, got ${beta?.length}`)
  }
  const view = new DataView(beta.buffer, beta.byteOffset, 8)
  // m = the high 32 bits · 2^21 + the next 21 bits: at most 2^53 − 1, exact in a double.
  const m = view.getUint32(0) * 2 ** 21 + (view.getUint32(4) >>> 11)
  return m / FRACTION_SCALE
}

/**
 * The witness's draw for a memory (witness-draw-v1 §5): the ECVRF proof under `seed` (its Ed25519
 * seed: the VRF key is the agent key, §2) of drawInput(memoryCid), its fraction, and whether that
 * draws it at `population` (a safe integer ≥ 1, the witness's own estimate). Throws KEY_INVALID (a
 * seed not of 32 bytes), CID_INVALID or USAGE (population).
 */
export function proveDraw (seed: Uint8Array, memoryCid: string, population: number, paths: DrawPaths = PORTABLE_FAST_PATHS): DrawProof {
  if (!Number.isSafeInteger(population) || population < 1) {
    throw new IsnadError('USAGE', `a draw's population is an integer of at least 1, got ${String(population)}`)
  }
  const proof = paths.vrfProve(seed, drawInput(memoryCid))
  const fraction = drawFraction(paths.vrfProofToHash(proof))
  return { population, proof, fraction, drawn: isDrawn(fraction, population) }
}

/**
 * The fraction of a witness's draw for a memory if `proof` is its valid ECVRF proof of the memory's
 * draw input under `publicKey` (RFC 9381 §5.3, key validated), else undefined. Throws only on
 * malformed input: PROOF_MALFORMED (not 80 bytes), KEY_INVALID (not 32 bytes), CID_INVALID.
 */
export function verifyDraw (publicKey: Uint8Array, memoryCid: string, proof: Uint8Array, paths: DrawPaths = PORTABLE_FAST_PATHS): number | undefined {
  const beta = paths.vrfVerify(publicKey, proof, drawInput(memoryCid))
  return beta === undefined ? undefined : drawFraction(beta)
}

/**
 * The fraction of a proof verified before (a stored attestation passed verifyDraw at ingest,
 * record-v1 R19): proof to hash alone (RFC 9381 §5.2), without the verification's cost. Never use
 * it on a proof that has not been verified. Throws PROOF_MALFORMED for a proof that does not decode.
 */
export function drawFractionOfProof (proof: Uint8Array, paths: DrawPaths = PORTABLE_FAST_PATHS): number {
  return drawFraction(paths.vrfProofToHash(proof))
}
