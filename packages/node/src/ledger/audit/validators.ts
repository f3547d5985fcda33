import { z } from 'zod'
import { lineHash, ViewObjectSchema } from '../../schema/index.js'
import {
  hashedLineValidator, LEDGER_FILES, validateInstanceLine, validateLeaseLine, type LineValidator
} from '../index.js'
import { AnyAttachmentSchema, AnyReductionRecordSchema } from '../object-views/index.js'
import type { ViewFolder } from './walk.js'
import { ExecutionSchema, FindingsLineSchema, RepairPlanSchema, ScorecardSchema } from './governance-lines.js'

/**
 * The line check of each ledger file (spec §8: every line's hash verifies; docs/architecture.md: every
 * ledger line carries one). Files whose contract this code knows are checked against its schema; any
 * other operational ledger (cursors, conflicts, files added later) must hold JSON objects with a
 * `hash` that verifies.
 */

/** A JSON object carrying a spec §8 hash: the contract every ledger line meets. */
export const validateHashedObject: LineValidator<Record<string, unknown>> =
  hashedLineValidator(z.looseObject({ hash: lineHash })) as LineValidator<Record<string, unknown>>

const byFile: ReadonlyMap<string, LineValidator<unknown>> = new Map<string, LineValidator<unknown>>([
  [LEDGER_FILES.instances, validateInstanceLine],
  [LEDGER_FILES.leases, validateLeaseLine],
  // Both forms: the compact lines and those written before it (docs/views.md).
  [LEDGER_FILES.reducers, hashedLineValidator(AnyReductionRecordSchema)],
  [LEDGER_FILES.findings, hashedLineValidator(FindingsLineSchema)],
  [LEDGER_FILES.scorecards, hashedLineValidator(ScorecardSchema)],
  [LEDGER_FILES.plans, hashedLineValidator(RepairPlanSchema)],
  [LEDGER_FILES.executions, hashedLineValidator(ExecutionSchema)]
])

/** The validator of an operational ledger, by its path relative to the data directory. */
export function operationalValidator (rel: string): LineValidator<unknown> {
  return byFile.get(rel) ?? validateHashedObject
}

const validateViewObject = hashedLineValidator(ViewObjectSchema)
// Both forms: the compact lines and those written before it (docs/views.md).
const validateAttachment = hashedLineValidator(AnyAttachmentSchema) as LineValidator<ViewLinePlace>

/**
 * What placing a view line in its shard reads (operational.ts), a compact attachment has none of it;
 * and what checking it against the reducer lines reads: its id, hash and memory.
 */
export interface ViewLinePlace { id: string, hash: string, scope?: string, ts?: string, type?: string, source?: string, memory?: string }

/**
 * spec §6 objects in facts/, decisions/, commitments/; isnad's attachments in attach/ (a compact one
 * names no scope or time: its shard is its object's).
 */
export function viewValidator (folder: ViewFolder): LineValidator<ViewLinePlace> {
  return folder === 'attach' ? validateAttachment : validateViewObject
}
