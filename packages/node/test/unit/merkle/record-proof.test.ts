import { describe, expect, it } from 'vitest'
import { codeOf } from '../../fixtures/error-code.js'
import { nobleVerifier } from '../../../src/identity/index.js'
import { nodeCryptoVerifier } from '../../../src/fast-crypto/index.js'
import {
  MerkleLog, createCheckpoint, createMemoryNodeStore, leafDataOfCid, proveRecordInclusion, signCheckpoint,
  verifyRecordInclusion, type RecordInclusion
} from '../../../src/merkle/index.js'
import { createAgent, createMemory } from '../../fixtures/records.js'

/** A stored record proven by its id against a signed checkpoint (transparency-v1 §4.4). */

async function setup (): Promise<{ log: MerkleLog, ids: string[], checkpointAt: (size: number) => Promise<ReturnType<typeof signCheckpoint>['signed']> }> {
  const author = createAgent(3)
  const node = createAgent(4)
  const ids = Array.from({ length: 13 }, () => createMemory(author).id)
  const log = await MerkleLog.open({ store: createMemoryNodeStore() })
  await log.append(ids.map((id) => leafDataOfCid(id)))
  const checkpointAt = async (size: number): Promise<ReturnType<typeof signCheckpoint>['signed']> => signCheckpoint(createCheckpoint({
    log: node.did, size, root: await log.root(size), createdAt: '2026-02-05T16:00:00Z'
  }), node.secretKey).signed
  return { log, ids, checkpointAt }
}

describe('record inclusion', () => {
  it('proves every record against the current checkpoint, and survives JSON', async () => {
    const { log, ids, checkpointAt } = await setup()
    const checkpoint = await checkpointAt(13)
    for (const id of ids) {
      const proven = await proveRecordInclusion(log, id, checkpoint)
      expect(proven?.proof.tree_size).toBe(13)
      for (const verifier of [nodeCryptoVerifier, nobleVerifier]) {
        expect(verifyRecordInclusion(JSON.parse(JSON.stringify(proven)), verifier), id).toBe(true)
      }
    }
  })

  it('against an older checkpoint only records already in it', async () => {
    const { log, ids, checkpointAt } = await setup()
    const older = await checkpointAt(5)
    expect(verifyRecordInclusion(await proveRecordInclusion(log, ids[4] as string, older), nodeCryptoVerifier)).toBe(true)
    expect(await proveRecordInclusion(log, ids[5] as string, older)).toBeUndefined()
  })

  it('refuses another record, another size, a forged checkpoint and malformed input', async () => {
    const { log, ids, checkpointAt } = await setup()
    const checkpoint = await checkpointAt(13)
    const proven = await proveRecordInclusion(log, ids[2] as string, checkpoint) as RecordInclusion
    expect(verifyRecordInclusion({ ...proven, record: ids[3] }, nodeCryptoVerifier)).toBe(false)
    const older = await checkpointAt(12)
    expect(verifyRecordInclusion({ ...proven, checkpoint: older }, nodeCryptoVerifier)).toBe(false)
    const forged = { ...checkpoint, record: { ...checkpoint.record, root: older.record.root } }
    expect(codeOf(() => verifyRecordInclusion({ ...proven, checkpoint: forged }, nodeCryptoVerifier))).toBe('SIGNATURE_INVALID')
    expect(codeOf(() => verifyRecordInclusion({ ...proven, record: 'not-a-cid' }, nodeCryptoVerifier))).toBe('SCHEMA_INVALID')
    expect(codeOf(() => verifyRecordInclusion({ ...proven, proof: { ...proven.proof, leaf_index: 13 } }, nodeCryptoVerifier))).toBe('SCHEMA_INVALID')
  })
})
