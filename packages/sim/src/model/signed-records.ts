import { createHash, createPublicKey, sign, type KeyObject } from 'node:crypto'
import { type AttestationRecord, encodeDidKey, encodeSignature, encodeSignedRecord, type MemoryRecord, privateKeyOfSeed, recordCidOf, schemaError, SCHEMAS_BY_KIND, signingInputFor, type WitnessRequestRecord } from 'isnad/engine'
import type { PlannedVerdict } from '../scenario/index.js'

/*
 * The model engine's agents and records: real did:key identities (Ed25519 keys derived from the
 * scenario's seed, so two runs sign the same bytes) and real signed records built as a node builds
 * them (src/node/local-node.ts: remember, requestWitnesses, attest), each signed once by its agent
 * and shared: every observer that receives a record gets these very bytes.
 *
 * Signing takes signRecord's steps (src/record/sign.ts: the kind's schema, the CID, the domain-
 * separated signing input, the signature's encoding) with the Ed25519 signature from OpenSSL
 * (node:crypto) rather than noble's JavaScript: Ed25519 is deterministic (RFC 8032 §5.1.6), so the
 * bytes are the same, ~20× sooner, which matters at 50,000 records (test/unit/sim/model/records.test.ts
 * checks both against signRecord and keyPairFromSeed).
 */

/** Bytes of an Ed25519 SubjectPublicKeyInfo before the 32 key bytes (RFC 8410 §4). */
const SPKI_ED25519_PREFIX_BYTES = 12

/** A node's default confidence for a memory (src/node/local-inputs.ts DEFAULT_CONFIDENCE). */
const CONFIDENCE = 0.8

export interface Agent {
  did: string
  /** The agent's Ed25519 key (its 32-byte seed inside), for node:crypto's sign. */
  key: KeyObject
}

export interface SignedBytes<R extends MemoryRecord | AttestationRecord | WitnessRequestRecord = MemoryRecord | AttestationRecord | WitnessRequestRecord> {
  id: string
  bytes: Uint8Array
  /** The record signed, as built (what a node's reputation reads during the run, private-checks.ts). */
  record: R
}

/** One agent per node, its key seed a hash of the scenario's seed and the node's index. */
export function agentSeedOf (seed: number, index: number): Uint8Array {
  return new Uint8Array(createHash('sha256').update(`isnad-sim-model-agent|${seed}|${index}`).digest())
}

/** One agent per node, its key seed from agentSeedOf. */
export function agentsOf (seed: number, count: number): Agent[] {
  return Array.from({ length: count }, (_, i) => {
    const keySeed = agentSeedOf(seed, i)
    const key = privateKeyOfSeed(keySeed)
    const spki = createPublicKey(key).export({ format: 'der', type: 'spki' })
    return { did: encodeDidKey(new Uint8Array(spki.subarray(SPKI_ED25519_PREFIX_BYTES))), key }
  })
}

function signed<R extends MemoryRecord | AttestationRecord | WitnessRequestRecord> (record: R, agent: Agent): SignedBytes<R> {
  const parsed = SCHEMAS_BY_KIND[record.kind].safeParse(record)
  if (!parsed.success) throw schemaError(parsed.error, record.kind)
  const cid = recordCidOf(record)
  const signature = sign(null, signingInputFor(record.kind, cid), agent.key)
  return { id: cid.toString(), bytes: encodeSignedRecord({ record, signature: encodeSignature(signature) }), record }
}

export function memoryRecord (agent: Agent, scenario: string, serial: number, at: string): SignedBytes<MemoryRecord> {
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

export function witnessRequestRecord (agent: Agent, memory: string, witnesses: readonly string[], at: string): SignedBytes<WitnessRequestRecord> {
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

export function attestationRecord (agent: Agent, memory: string, verdict: PlannedVerdict, at: string): SignedBytes<AttestationRecord> {
  return signed<AttestationRecord>({
    kind: 'attestation',
    version: 1,
    memory,
    witness: agent.did,
    attestation: verdict,
    witnessed_at: at
  }, agent)
}
