/*
 * The node's engine for the simulator (the isnad-sim package imports the node only from here, as
 * `isnad/engine`, and from cli-entry.ts, `isnad/cli`): the parts of the node a simulation runs
 * (daemons, their HTTP APIs, records, the witness draw, trust and reputation, the network's link
 * model). Loading it loads libp2p and the rest. Not a stable API for other programs: it follows the
 * simulator.
 */
export { type Daemon, startDaemon } from './daemon/index.js'
export { drawFractionOfProof, holdersEstimate, privateCheckProbability, WITNESS_DRAW, type WitnessDrawConstants } from './draw/index.js'
export { isIsnadError, IsnadError } from './errors/index.js'
export { NODE_RECORD_FAST_PATHS, nodeCryptoVerifier, privateKeyOfSeed } from './fast-crypto/index.js'
export { API_TOKEN_BYTES, API_TOKEN_MODE, API_TOKEN_PATTERN, ApiError, apiTokenPath, createHttpOperations, type HttpOperations, loadOrCreateApiToken, readApiToken } from './api-access/index.js'
export { errorResponseOf, listen, requireBearer } from './http/index.js'
export { encodeDidKey, keyPairFromSeed } from './identity/index.js'
export { createLogger } from './log/index.js'
export { type ConnectionMonitorSettings, type LinkConditions, type NetStats, type Network, retransmissionDelayMs, retransmissionTimeoutMs, SEGMENT_BYTES, shapesTraffic, streamSeed, type Topic, TOPICS } from './net/index.js'
export { evidenceAgentsNeeded, initHome } from './node/index.js'
export { nodePaths } from './home/index.js'
export { AttestationNoticeSchema, type InboxItem, InboxItemSchema } from './operations/index.js'
export { decodeSignature, decodeSignedRecord, encodeSignature, encodeSignedRecord, recordCidOf, schemaError, signingInputFor, signRecord, type VerifiedRecord, verifyRecord, verifyRecordBytes } from './record/index.js'
export { type MemoryAttestations, reputationFor, scoreWithSetting, type StoredAttestation, trustSettingFrom } from './reputation/index.js'
export { type AttestationRecord, type MemoryRecord, SCHEMAS_BY_KIND, type WitnessRequestRecord } from './schema/index.js'
export { shardCountFor, shardCountsAccepted, shardOf } from './shard/index.js'
export { DEFAULT_TRUST_POLICY, SCHEMA_TRUST_POLICY, TRUST_POLICIES, type TrustLevel, type TrustPolicy } from './trust/index.js'
