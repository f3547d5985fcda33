/**
 * Reputation from the node's own trust roots (DESIGN §2): personalised PageRank over the graph of
 * verified attestations. The core (graph, pagerank, reputation, paths, bound, votes) is pure; the
 * roots file and the service that keeps the table current do the I/O.
 */
export { AGREEMENT_WEIGHT, CONTRADICTION_WEIGHT, DEFAULT_DAMPING, DEFAULT_MAX_ITERATIONS, DEFAULT_TOLERANCE, UNROOTED_REPUTATION, VOTE_WEIGHTS } from './constants.js'
export { buildTrustGraph, groupsOf, type TrustGraph, type Vote, type VoteGroup } from './graph.js'
export { MAX_GRAPH_AGENTS, VoteSet } from './vote-set.js'
export { personalizedPageRank, type PageRankOptions, type PageRankResult } from './pagerank.js'
export { referenceRankOf, reputationOfRank, standingOf, trustInputsOf } from './standing.js'
export { computeReputation, debitFactor, type AgentReputation, type ReputationTable } from './reputation.js'
export { shortestPathsFrom } from './paths.js'
export { attackFlow, regionBound, sybilBound, type RegionBoundInput, type SybilBound, type SybilBoundInput } from './bound.js'
export { collectVotes, votesOf, type MemoryAttestations, type StoredAttestation } from './votes.js'
export { MAX_TRUST_ROOTS, TRUST_ROOTS_FILE, TrustRootLineSchema, changeTrustRoot, readTrustRoots, type TrustRoot } from './roots-file.js'
export { INGEST_REPUTATION_MAX_AGE_MS, ReputationService, type ReputationServiceInit } from './service.js'
export { NodeTrust, setTrustPolicy, type NodeTrustInit, type TrustSetting } from './node-trust.js'
export { AgentReputationSchema, TrustRootSchema } from './schemas.js'
