import { createHash } from 'node:crypto'
import { encodeDidKey, keyPairFromSeed } from '../../identity/index.js'
import { encodeSignedRecord, signRecord } from '../../record/index.js'
import type { AttestationRecord, MemoryRecord, WitnessRequestRecord } from '../../schema/index.js'
import type { PlannedVerdict } from '../behaviour.js'

/*
 * The model engine's agents and records: real did:key identities (Ed25519 keys derived from the
 * scenario's seed, so two runs sign the same bytes) and real signed records built as a node builds
 * them (src/node/local-node.ts: remember, requestWitnesses, attest), each signed once by its agent
 * with the project's signRecord; every observer that receives a record gets these very bytes.
 */

/** A node's default confidence for a memory (src/node/local-node.ts DEFAULT_CONFIDENCE). */
const CONFIDENCE = 0.8

export interface Agent {
  did: string
  secretKey: Uint8Array
}

export interface SignedBytes {
  id: string
  bytes: Uint8Array
}

/** One agent per node, its key a hash of the seed and the node's index. */
export function agentsOf (seed: number, count: number): Agent[] {
  return Array.from({ length: count }, (_, i) => {
    const keySeed = createHash('sha256').update(`isnad-sim-model-agent|${seed}|${i}`).digest()
    const { secretKey, publicKey } = keyPairFromSeed(new Uint8Array(keySeed.buffer, keySeed.byteOffset, keySeed.length))
    return { did: encodeDidKey(publicKey), secretKey }
  })
}

function signed<R extends MemoryRecord | AttestationRecord | WitnessRequestRecord> (record: R, agent: Agent): SignedBytes {
  const { id, signed } = signRecord(record, agent.secretKey)
  return { id, bytes: encodeSignedRecord(signed) }
}

export function memoryRecord (agent: Agent, scenario: string, serial: number, at: string): SignedBytes {
  const summary = `simulated memory ${serial} of ${scenario}`
  return signed<MemoryRecord>({
    kind: 'memory',
    version: 1,
    content: { type: 'observation', summary, body: summary, tags: ['sim', scenario] },
    author: { agent_id: agent.did },
    created_at: at,
    context: { confidence: CONFIDENCE },
    lineage: { derived_from: [] }
  }, agent)
}

export function witnessRequestRecord (agent: Agent, memory: string, witnesses: readonly string[], at: string): SignedBytes {
  const to = [...new Set(witnesses)]
  return signed<WitnessRequestRecord>({
    kind: 'witness_request',
    version: 1,
    memory,
    requester: agent.did,
    ...(to.length === 0 ? {} : { witnesses: to }),
    created_at: at
  }, agent)
}

export function attestationRecord (agent: Agent, memory: string, verdict: PlannedVerdict, at: string): SignedBytes {
  return signed<AttestationRecord>({
    kind: 'attestation',
    version: 1,
    memory,
    witness: agent.did,
    attestation: verdict,
    witnessed_at: at
  }, agent)
}
