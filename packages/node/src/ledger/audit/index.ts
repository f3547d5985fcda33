/**
 * Audit, repair and archive of the `.memory/` ledger (Memory Format Spec
 * V3.1 §8–§10, docs/architecture.md): `auditDataDir` checks every ledger file and the Merkle log and reports findings,
 * `writeAuditResults` records them with a health scorecard, `planRepair` / `executeRepair` quarantine
 * corrupt shards, recover torn tails and rebuild the index, `archiveShards` compresses old shards.
 * README.md in this folder lists the findings, the score formula and what cannot be detected.
 */
export {
  auditDataDir, INDEX_KINDS, scoreOf, statusOf,
  type AuditInit, type AuditReport, type IndexCheck, type IndexFindingKind, type IndexIssue
} from './audit.js'
export type { LedgerFacts, SampledRecord } from './ledger-facts.js'
export {
  BLOCK_KINDS, blockFindingFile, cidOfBlockFile,
  type BlockCheck, type BlockCheckResult, type BlockFindingKind, type BlockIssue, type BlockScan, type VerifiedCidAnchor
} from './blockstore-audit.js'
export type { AuditStats } from './audit-context.js'
export { writeAuditResults, scorecardOf, type AuditResults, type WriteAuditResultsOptions } from './results.js'
export { planRepair, type PlanRepairOptions } from './repair-plan.js'
export { executeRepair, type BlockRepair, type ExecuteRepairInit, type RepairOutcome, type ViewRepair } from './repair-execute.js'
export { archiveShards, type ArchiveInit, type ArchiveResult, type ArchivedShard } from './archive.js'
export { withWriterLock } from './repair-lock.js'
export { restoreSetAside, type RestoreInit, type RestoreResult } from './restore.js'
export { SetAsideLineSchema, type SetAsideLine } from './set-aside.js'
export {
  AuditFindingSchema, ExecutionSchema, FindingsLineSchema, FINDING_KINDS, HEALTH_STATUSES, LcMarkSchema, RepairActionSchema,
  RepairPlanSchema, ScorecardSchema, SEVERITIES,
  type AuditFinding, type Execution, type FindingKind, type HealthStatus, type LcMark, type RepairAction, type RepairPlan,
  type Scorecard, type Severity
} from './governance-lines.js'
export * from './constants.js'
