import type { DrawPaths } from '../draw/index.js'
import type { PrivateCheckState, TrustPolicyName } from '../schema/index.js'
import { computeTrust, type ComputeTrustOptions, type KeyIdentities, type ReputationLookup, type TrustInput, type TrustResult } from '../trust/index.js'
import type { PageRankOptions } from './pagerank.js'
import { computeReputation, type ReputationTable } from './reputation.js'
import { collectVotes, type MemoryAttestations } from './votes.js'

/*
 * The one way a memory is scored (docs/trust.md §1, "One scoring entry point"): under a node's policy, with the reputation its roots
 * give over the votes it holds. The node (ingest, `show`, `explain`, views, key-event rescoring), an
 * offline rebuild (reindex, in its reader thread) and the simulator's observers all build their
 * setting here and score through scoreWithSetting, so a stored score, a rebuilt one and a simulated
 * one are the same function of the same evidence.
 */

/** What a memory is scored with: the node's policy, reputation from its roots, its keyring. */
export interface TrustSetting {
  /** @default the schema's algorithm (SCHEMA_TRUST_POLICY) */
  policy?: TrustPolicyName
  /** Absent when the node has no trust roots: every agent then has the default 0.5. */
  reputation?: ReputationLookup
  /** The node's keyring (docs/trust.md §1a): witnesses count per identity, refused keys not at all. */
  identities?: KeyIdentities
  /** Who vouches for whom in the reputation graph (TrustInput.endorses). */
  endorses?: (from: string, to: string) => boolean
  /** A witness's confirm record with an author (TrustInput.confirmRecord). */
  confirmRecord?: (witness: string, author: string, memory: string) => number
  /** Whose witness requests are the node's own: its roots (TrustInput.ownRequesters). */
  ownRequesters?: (did: string) => boolean
  /**
   * N̂, the node's estimate of the agents the witness draw chooses from (TrustInput.populationEstimate):
   * its graph's agents or the reputable drawn witnesses' median stated population, the larger
   * (populationOf). Absent without roots.
   */
  populationEstimate?: number
  /** The node's shard count when its operator set one (TrustInput.shardCount); absent: derived from N̂. */
  shardCount?: number
  /**
   * Whether this node made a private check of a memory (TrustInput.privateCheck), by memory id: the
   * daemon's private checks say it (protocols/witness-draw-v1.md); for the explanation only.
   */
  privateCheckOf?: (memoryId: string) => PrivateCheckState | undefined
}

/** What a setting is built from: plain data (it crosses to the reindex reader thread) plus the keyring. */
export interface TrustSpec {
  policy: TrustPolicyName
  /** Every root the reputation walks from: the operator's roots and the node's own agents. */
  roots: readonly string[]
  identities?: KeyIdentities
  pageRank?: PageRankOptions
  /** How stored draws' fractions are read for N̂ (populationOf). @default the portable ECVRF */
  drawPaths?: DrawPaths
  /** The node's shard count when its operator set one (ReputationOptions.shardCount). */
  shardCount?: number
}

/** The setting of a computed reputation table (absent: the node has no roots). */
export function settingOfTable (policy: TrustPolicyName, table: ReputationTable | undefined, identities?: KeyIdentities, paths?: DrawPaths): TrustSetting {
  const setting: TrustSetting = { policy }
  if (identities !== undefined) setting.identities = identities
  if (table !== undefined && table.rooted) {
    setting.reputation = table.lookup
    setting.endorses = table.endorses
    setting.confirmRecord = table.confirmRecord
    setting.ownRequesters = ownRequestersOf(table.roots, identities)
    setting.populationEstimate = populationOf(table, paths)
  }
  return setting
}

/**
 * N̂ (docs/trust.md §5a, protocols/witness-draw-v1.md §6): the larger of the distinct agent identities
 * of a reputation table's graph — the roots, every witness and every attested author of the records
 * the node holds, one per identity when a keyring maps keys to identities — and the median of the
 * populations the newest POPULATION_CLAIM_WINDOW reputable drawn witnesses stated (src/draw
 * populationEstimate). Read from what the table already holds, once per table: nothing is rebuilt.
 * `paths` reads stored proofs' fractions (the node's native path; every implementation agrees).
 */
export function populationOf (table: Pick<ReputationTable, 'populationEstimate'>, paths?: DrawPaths): number {
  return table.populationEstimate(paths)
}

/**
 * The node's own requesters: its roots (its agents and the operator's roots), by key or identity. A
 * private check they asked for is one the author did not choose (src/trust independent-witnesses.ts).
 */
export function ownRequestersOf (roots: readonly string[], identities?: KeyIdentities): (did: string) => boolean {
  const own = new Set(roots)
  if (identities === undefined) return (did) => own.has(did)
  for (const root of roots) own.add(identities.identityOf(root))
  return (did) => own.has(did) || own.has(identities.identityOf(did))
}

/** The reputation table of `spec`'s roots over the memories' votes, or undefined without roots. */
export function reputationFor (memories: Iterable<MemoryAttestations>, spec: TrustSpec): ReputationTable | undefined {
  // Without roots there is nothing to compute: the graph is not even built.
  if (spec.roots.length === 0) return undefined
  const options = spec.shardCount === undefined ? spec.pageRank : { ...spec.pageRank, shardCount: spec.shardCount }
  return computeReputation(collectVotes(memories, spec.identities, spec.drawPaths), spec.roots, options)
}

/** The setting a node with `spec` scores with, given every memory's votes it holds. */
export function trustSettingFrom (memories: Iterable<MemoryAttestations>, spec: TrustSpec): TrustSetting {
  const setting = settingOfTable(spec.policy, reputationFor(memories, spec), spec.identities, spec.drawPaths)
  if (spec.shardCount !== undefined) setting.shardCount = spec.shardCount
  return setting
}

/** The evidence part of a TrustInput: what the setting adds is taken from the setting only. */
export type ScoringInput = Omit<TrustInput, 'reputation' | 'identities' | 'endorses' | 'confirmRecord' | 'rooted' | 'ownRequesters' | 'populationEstimate' | 'shardCount'>

/** Scores one memory's evidence under a setting: the single scoring entry point. */
export function scoreWithSetting (evidence: ScoringInput, setting: TrustSetting): TrustResult {
  const input: TrustInput = { ...evidence }
  if (setting.reputation !== undefined) input.reputation = setting.reputation
  if (setting.identities !== undefined) input.identities = setting.identities
  if (setting.endorses !== undefined) input.endorses = setting.endorses
  if (setting.confirmRecord !== undefined) input.confirmRecord = setting.confirmRecord
  if (setting.ownRequesters !== undefined) input.ownRequesters = setting.ownRequesters
  if (setting.populationEstimate !== undefined) input.populationEstimate = setting.populationEstimate
  if (setting.shardCount !== undefined) input.shardCount = setting.shardCount
  if (input.privateCheck === undefined && setting.privateCheckOf !== undefined) {
    const check = setting.privateCheckOf(evidence.memory.id)
    if (check !== undefined) input.privateCheck = check
  }
  return computeTrust(input, setting.policy === undefined ? NO_OPTIONS : { policy: setting.policy })
}

/** computeTrust's defaults: one object for every call that sets no policy. */
const NO_OPTIONS: ComputeTrustOptions = Object.freeze({})
