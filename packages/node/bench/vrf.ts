import { drawInput, ecvrfProofToHash, ecvrfProve, ecvrfVerify, recordCidOf } from '../src/index.js'
import { vrfBackend, vrfProofToHashNative, vrfProveNative, vrfVerifyNative } from '../src/fast-crypto/index.js'
import { createSignedInputs, rawVerifyMeasure } from './crypto.js'
import { createAgent, memoryRecord, type BenchAgent } from './fixtures.js'
import { createRandom, interleave, timeBoxed, type Measure, type RoundResult } from './stats.js'

/*
 * Figure 16: the witness draw's ECVRF (RFC 9381 ECVRF-EDWARDS25519-SHA512-TAI, protocols/witness-draw-v1.md)
 * per second, portable (@noble/curves) and the node's (libsodium, src/fast-crypto/vrf-native.ts). A node
 * proves once per memory it receives (is it drawn?) and verifies every drawn attestation it ingests;
 * proof to hash is the fraction of a stored attestation. Inputs are real draw inputs (the tag and a
 * memory's CID) over a few keys. The baseline is figure 1's: OpenSSL Ed25519 verifications.
 */

interface DrawCase {
  agent: BenchAgent
  alpha: Uint8Array
  proof: Uint8Array
}

/** `count` draw inputs of distinct memories, proved by `keys` agents. */
function createDrawCases (count: number, keys = 8): DrawCase[] {
  const agents = Array.from({ length: keys }, (_, n) => createAgent(15, n))
  const author = createAgent(16, 0)
  const random = createRandom(15)
  return Array.from({ length: count }, (_, i) => {
    const agent = agents[i % keys] as BenchAgent
    const memory = recordCidOf(memoryRecord(random, { author, serial: i, createdMillis: Date.UTC(2026, 0, 1) + i, tags: ['bench'] })).toString()
    const alpha = drawInput(memory)
    return { agent, alpha, proof: vrfProveNative(agent.secretKey, alpha) }
  })
}

export const VRF_SUBJECTS = [
  'prove (noble)', 'prove (libsodium)', 'verify (noble)', 'verify (libsodium)', 'proof to hash (noble)', 'proof to hash (libsodium)'
] as const

export interface VrfOptions {
  rounds: number
  budgetMs: number
}

export async function benchVrf (options: VrfOptions): Promise<RoundResult> {
  if (vrfBackend !== 'libsodium') throw new Error('sodium-native did not load: the libsodium figures would measure the portable path')
  const cases = createDrawCases(64)
  const { budgetMs } = options
  const at = (i: number): DrawCase => cases[i % cases.length] as DrawCase
  const subjects = new Map<string, Measure>([
    ['prove (noble)', () => timeBoxed((i) => { ecvrfProve(at(i).agent.secretKey, at(i).alpha) }, budgetMs)],
    ['prove (libsodium)', () => timeBoxed((i) => { vrfProveNative(at(i).agent.secretKey, at(i).alpha) }, budgetMs)],
    ['verify (noble)', () => timeBoxed((i) => {
      if (ecvrfVerify(at(i).agent.publicKey, at(i).proof, at(i).alpha) === undefined) throw new Error('noble ECVRF verify failed')
    }, budgetMs)],
    ['verify (libsodium)', () => timeBoxed((i) => {
      if (vrfVerifyNative(at(i).agent.publicKey, at(i).proof, at(i).alpha) === undefined) throw new Error('libsodium ECVRF verify failed')
    }, budgetMs)],
    ['proof to hash (noble)', () => timeBoxed((i) => { ecvrfProofToHash(at(i).proof) }, budgetMs)],
    ['proof to hash (libsodium)', () => timeBoxed((i) => { vrfProofToHashNative(at(i).proof) }, budgetMs)]
  ])
  return await interleave(rawVerifyMeasure(createSignedInputs(256), budgetMs), subjects, options.rounds)
}
