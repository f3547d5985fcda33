export * from './local-node.js'
export * from './pipeline/index.js'
export * from './trust/memory-evidence.js'
export * from './anchors/anchors.js'
export * from './records/bundle.js'
export * from './home/init-home.js'
export * from './audit/ledger-ops.js'
// The FDR Selector on this node (the pure Verifier and Selector are src/fdr's).
export { selectOnNode, traceEntryOf } from './records/select.js'
// Reputation's I/O: the trust roots file, the service that keeps the table current, the trust setting.
export { MAX_TRUST_ROOTS, TRUST_ROOTS_FILE, TrustRootLineSchema, changeTrustRoot, readTrustRoots } from './trust/trust-roots-file.js'
export { INGEST_REPUTATION_MAX_AGE_MS, ReputationService, type ReputationServiceInit } from './trust/reputation-service.js'
export { NodeTrust, setTrustPolicy, type EvidenceFetching, type NodeTrustInit } from './trust/node-trust.js'
export { EVIDENCE_FETCH, evidenceAgentsNeeded, type EvidenceFetchLimits, type EvidenceNeedInput } from './trust/evidence-needs.js'
export { EvidenceLedger } from './trust/evidence-ledger.js'
/** The policy and reputation a node scores with (scoreWithSetting's). */
export type { TrustSetting } from '../reputation/index.js'
export type { RecordSource } from './journal/record-events.js'
// The node as the network layer's host (src/net NetHost), which the daemon hands its network.
export { createNodeHost } from './net-host.js'
export { FollowStore, MAX_FOLLOWS, followedAuthors, followedTags, type Interest } from './follows.js'
