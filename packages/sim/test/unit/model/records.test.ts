import { describe, expect, it } from 'vitest'
import { decodeSignedRecord, encodeDidKey, encodeSignedRecord, keyPairFromSeed, nodeCryptoVerifier, signRecord, verifyRecordBytes } from 'isnad/engine'
import { agentSeedOf, agentsOf, attestationRecord, memoryRecord, witnessRequestRecord } from '../../../src/model/signed-records.js'


/*
 * The model engine's records are the project's records: its identities are the did:keys the
 * project derives from the same seeds, and its fast signing gives the bytes signRecord gives, which
 * the node's verifier accepts.
 */

describe('model engine records', () => {
  const agents = agentsOf(42, 3)
  const at = '2026-01-01T00:01:00.000Z'

  it('derives each agent did:key as keyPairFromSeed does, deterministically', () => {
    agents.forEach((agent, i) => {
      expect(agent.did).toBe(encodeDidKey(keyPairFromSeed(agentSeedOf(42, i)).publicKey))
    })
    expect(agentsOf(42, 3).map((a) => a.did)).toEqual(agents.map((a) => a.did))
    expect(new Set(agents.map((a) => a.did)).size).toBe(3)
  })

  it('signs memories, witness requests and attestations byte for byte as signRecord does', () => {
    const memory = memoryRecord(agents[0]!, 'unit', 7, at)
    const request = witnessRequestRecord(agents[0]!, memory.id, [agents[1]!.did, agents[2]!.did], at)
    const attestation = attestationRecord(agents[1]!, memory.id, 'dispute', at)
    for (const [made, signer] of [[memory, 0], [request, 0], [attestation, 1]] as const) {
      const { record } = decodeSignedRecord(made.bytes)
      const reference = signRecord(record, agentSeedOf(42, signer))
      expect(made.id).toBe(reference.id)
      expect(made.bytes).toEqual(encodeSignedRecord(reference.signed))
      const verified = verifyRecordBytes(made.bytes, { verifier: nodeCryptoVerifier, now: Date.parse(at) })
      expect(verified.id).toBe(made.id)
    }
  })

  it('refuses a record its schema refuses, as signRecord does', () => {
    expect(() => attestationRecord(agents[1]!, 'not-a-cid', 'confirm', at)).toThrow(expect.objectContaining({ code: 'SCHEMA_INVALID' }))
  })
})
