/*
 * The node's transparency log (protocols/transparency-v1.md): the pure RFC 6962 core
 * (hashing, roots, proofs and their verification), the persistent append-only log over a key-value
 * store, and signed checkpoints with misbehaviour evidence.
 */
export { CHECKPOINT_DOMAIN_TAG, HASH_BYTES, MAX_PROOF_HASHES, MAX_TREE_SIZE } from './constants.js'
export { DEFAULT_HASHER, EMPTY_ROOT, equalHashes, hashChildren, hashFromHex, hashLeaf, hashToHex, isHash, merkleHasherOf, type MerkleHasher } from './hash.js'
export type { ConsistencyProof, InclusionProof } from './types.js'
export { computeRoot, proveConsistency, proveInclusion } from './tree.js'
export { rootFromInclusionProof, verifyConsistency, verifyInclusion } from './verify-proof.js'
export { consistencyRanges, inclusionRanges } from './subtree-ranges.js'
export { perfectNodesOf, splitPoint, type LeafRange, type PerfectNode } from './tree-math.js'
export {
  ConsistencyProofJsonSchema, InclusionProofJsonSchema, consistencyProofFromJson, consistencyProofToJson,
  inclusionProofFromJson, inclusionProofToJson, type ConsistencyProofJson, type InclusionProofJson
} from './proof-json.js'
export { createLevelNodeStore, createMemoryNodeStore, IDENTITY_LEAF_CODEC, type LeafCodec, type LevelNodeDb, type MerkleNodeStore, type NodePut } from './node-store.js'
export { MerkleLog, openMerkleLog, type AppendResult, type MerkleLogInit } from './log.js'
export { cidOfLeafData, leafDataOfCid, RECORD_LEAF_CODEC } from './leaf.js'
export {
  CheckpointRecordSchema, SignedCheckpointSchema, checkpointCidOf, checkpointSigningInput, createCheckpoint,
  signCheckpoint, verifyCheckpoint, type CheckpointFields, type CheckpointRecord, type SignedCheckpoint,
  type VerifiedCheckpoint, type VerifyCheckpointOptions
} from './checkpoint.js'
export {
  RecordInclusionSchema, proveRecordInclusion, verifyRecordInclusion, type RecordInclusion
} from './record-proof.js'
export {
  detectEquivocation, verifyMisbehaviourEvidence, type EquivocationEvidence, type InconsistencyEvidence,
  type MisbehaviourEvidence
} from './equivocation.js'
