import { verify as opensslVerify } from 'node:crypto'
import {
  createNobleVerifier, decodeSignature, nodeCryptoVerifier, recordCidOf, signBytes, signingInputFor, signRecord,
  type AttestationRecord
} from '../src/index.js'
import { attestationRecord, createAgent, memoryRecord, signFast, type BenchAgent } from './fixtures.js'
import { createRandom, interleave, timeBoxed, type Measure, type RoundResult, type Sample } from './stats.js'

/*
 * Figure 1: Ed25519 signatures per second. Every message is a real signing input (the domain tag
 * and CID of an attestation, record-v1 §3.1), every signature valid, over a few keys, as a node
 * verifying gossip sees them. The baseline is OpenSSL alone: `crypto.verify` with a KeyObject made
 * once per key, no policy checks.
 */

export interface SignedInput {
  message: Uint8Array
  signature: Uint8Array
  agent: BenchAgent
  /** The attestation whose signing input `message` is. */
  record: AttestationRecord
}

/** `count` valid (message, signature) pairs from `keys` agents. */
export function createSignedInputs (count: number, keys = 8): SignedInput[] {
  const agents = Array.from({ length: keys }, (_, n) => createAgent(1, n))
  const author = createAgent(2, 0)
  const memory = recordCidOf(memoryRecord(createRandom(1), { author, serial: 0, createdMillis: Date.UTC(2026, 0, 1), tags: ['bench'] })).toString()
  return Array.from({ length: count }, (_, i) => {
    const agent = agents[i % keys] as BenchAgent
    const record = attestationRecord(memory, agent, 'confirm', Date.UTC(2026, 0, 1) + i * 1000)
    const { signed } = signFast(record, agent)
    const message = signingInputFor('attestation', recordCidOf(signed.record))
    return { message, signature: decodeSignature(signed.signature), agent, record }
  })
}

/** The baseline of figures 1–3: raw OpenSSL verifications per `budgetMs`. */
export function rawVerifyMeasure (inputs: readonly SignedInput[], budgetMs: number): Measure {
  return (): Sample => timeBoxed((i) => {
    const input = inputs[i % inputs.length] as SignedInput
    if (!opensslVerify(null, input.message, input.agent.publicKeyObject, input.signature)) throw new Error('baseline verify failed')
  }, budgetMs)
}

export interface CryptoOptions {
  rounds: number
  budgetMs: number
}

export const CRYPTO_SUBJECTS = ['sign (noble)', 'signRecord (noble)', 'verify (noble)', 'verify (node:crypto)'] as const

export async function benchCrypto (options: CryptoOptions): Promise<RoundResult> {
  const inputs = createSignedInputs(256)
  const { budgetMs } = options
  // The noble verifier with its own memo of decoded keys, as a caller verifying many signatures keeps one.
  const nobleVerifier = createNobleVerifier()
  const subjects = new Map<string, Measure>([
    ['sign (noble)', () => timeBoxed((i) => {
      const input = inputs[i % inputs.length] as SignedInput
      signBytes(input.message, input.agent.secretKey)
    }, budgetMs)],
    // signBytes plus what signRecord adds: the schema check, the signer check, the CID.
    ['signRecord (noble)', () => timeBoxed((i) => {
      const input = inputs[i % inputs.length] as SignedInput
      signRecord(input.record, input.agent.secretKey, nodeCryptoVerifier.recordFastPaths)
    }, budgetMs)],
    ['verify (noble)', () => timeBoxed((i) => {
      const input = inputs[i % inputs.length] as SignedInput
      if (!nobleVerifier.verify(input.signature, input.message, input.agent.publicKey)) throw new Error('noble verify failed')
    }, budgetMs)],
    ['verify (node:crypto)', () => timeBoxed((i) => {
      const input = inputs[i % inputs.length] as SignedInput
      if (!nodeCryptoVerifier.verify(input.signature, input.message, input.agent.publicKey)) throw new Error('node:crypto verify failed')
    }, budgetMs)]
  ])
  return await interleave(rawVerifyMeasure(inputs, budgetMs), subjects, options.rounds)
}
