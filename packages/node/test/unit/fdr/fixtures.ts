import {
  MerkleLog, createCheckpoint, createMemoryNodeStore, leafDataOfCid, proveRecordInclusion, signCheckpoint, type RecordInclusion
} from '../../../src/merkle/index.js'
import type { World } from '../../../src/fdr/index.js'
import { createAgent, createAnchor, createAttestation, createMemory } from '../../fixtures/records.js'

/** A world as the node's Store returns it: a memory with a confirm, a dispute, an anchor and its inclusion proof. */
export async function createWorld (summary = 'the build broke on Tuesday'): Promise<World> {
  const memory = createMemory(createAgent(10), { summary, tags: ['ops'] })
  const attestations = [createAttestation(createAgent(11), memory.id), createAttestation(createAgent(12), memory.id, 'dispute')]
  const anchors = [createAnchor(createAgent(13), memory.id)]
  const others = Array.from({ length: 6 }, () => createMemory(createAgent(14)).id)
  const log = await MerkleLog.open({ store: createMemoryNodeStore() })
  await log.append([...others.slice(0, 3), memory.id, ...others.slice(3)].map((id) => leafDataOfCid(id)))
  const node = createAgent(15)
  const checkpoint = signCheckpoint(createCheckpoint({ log: node.did, size: log.size, root: await log.root(), createdAt: '2026-02-05T19:00:00Z' }), node.secretKey).signed
  const inclusion = await proveRecordInclusion(log, memory.id, checkpoint) as RecordInclusion
  return { id: memory.id, memory: memory.signed, attestations, anchors, inclusion }
}
