/**
 * Reputation from the node's own trust roots (docs/trust.md §3): personalised PageRank over the graph of
 * verified attestations, pure. The roots file, the service that keeps the table current and the
 * node's trust setting do the I/O and live in src/node.
 */
export { AGREEMENT_WEIGHT, CONTRADICTION_WEIGHT, EVIDENCE_PRIOR, DEFAULT_DAMPING, DEFAULT_MAX_ITERATIONS, DEFAULT_TOLERANCE, UNROOTED_REPUTATION, VOTE_WEIGHTS } from './constants.js'
export { buildTrustGraph, groupsOf, type TrustGraph, type Vote, type VoteGroup } from './vote-graph.js'
export { MAX_GRAPH_AGENTS, VoteSet } from './vote-set.js'
export { personalizedPageRank, type PageRankOptions, type PageRankResult } from './pagerank.js'
export { referenceRankOf, reputationOfRank, standingOf, trustInputsOf } from './standing.js'
export { computeReputation, debitFactor, type AgentReputation, type ReputationOptions, type ReputationTable } from './reputation.js'
export { shortestPathsFrom } from './shortest-paths.js'
export { attackFlow, regionBound, sybilBound, type RegionBoundInput, type SybilBound, type SybilBoundInput } from './bound.js'
export { collectVotes, votesOf, type MemoryAttestations, type StoredAttestation } from './votes.js'
export { AgentReputationSchema, TRUST_ROOT_SOURCES, TrustRootSchema, type TrustRoot } from './trust-route-shapes.js'
export { ownRequestersOf, populationOf, reputationFor, scoreWithSetting, settingOfTable, trustSettingFrom, type ScoringInput, type TrustSetting, type TrustSpec } from './scoring.js'
export { evidenceFactor, evidenceOf } from './evidence-factor.js'
export { agentLines, rootLines, rootsHeadline } from './explanation-text.js'
