import { dataRelative, derivedId, withLineHash, type CorruptReason, type LedgerEntry } from '../index.js'
import { AUDIT_FINDING_DOMAIN, MAX_FINDING_REFS } from './constants.js'
import type { AuditFinding, FindingKind, Severity } from './governance-lines.js'

/**
 * Building findings. A finding's id is derived from what was found (kind, file, offset,
 * message), not from when: the same problem seen by two audits has one id, so findings.jsonl takes
 * it once (writeAuditResults) and a repair plan names it stably.
 */

export interface FindingDraft {
  kind: FindingKind
  /** @default severityOf(kind) */
  severity?: Severity
  /** Relative to the data directory. */
  file: string
  offset?: number
  line?: number
  message: string
  /** What the finding is about when file and offset do not say it (AuditFinding.refs). */
  refs?: string[]
}

/** Kinds that are warnings unless a draft says otherwise: nothing acknowledged is lost or wrong. */
const WARNING_KINDS: ReadonlySet<FindingKind> = new Set<FindingKind>(['unknown_file'])

export function severityOf (kind: FindingKind): Severity {
  return WARNING_KINDS.has(kind) ? 'warning' : 'error'
}

export function buildFinding (draft: FindingDraft, ts: string): AuditFinding {
  const parts = [draft.kind, draft.file, draft.offset === undefined ? '' : String(draft.offset), draft.message]
  return withLineHash({
    id: derivedId('finding', AUDIT_FINDING_DOMAIN, parts),
    kind: draft.kind,
    severity: draft.severity ?? severityOf(draft.kind),
    file: draft.file,
    ...(draft.offset === undefined ? {} : { offset: draft.offset }),
    ...(draft.line === undefined ? {} : { line: draft.line }),
    message: draft.message,
    ...(draft.refs === undefined || draft.refs.length === 0 ? {} : { refs: draft.refs.slice(0, MAX_FINDING_REFS) }),
    ts
  })
}

const KIND_OF_REASON: Readonly<Record<CorruptReason, FindingKind>> = {
  utf8: 'utf8_invalid',
  json: 'json_invalid',
  schema: 'schema_invalid',
  hash: 'hash_mismatch',
  order: 'lc_order',
  archive: 'archive_unreadable'
}

/** The finding of a line a reader could not accept (spec §8: a mismatch is a validation error); undefined for a good line. */
export function draftOfEntry<T> (dataDir: string, entry: LedgerEntry<T>): FindingDraft | undefined {
  if (entry.kind === 'record') return undefined
  const where = { file: dataRelative(dataDir, entry.file), offset: entry.offset, line: entry.line }
  if (entry.kind === 'torn_tail') {
    return { kind: 'torn_tail', ...where, message: `the last line (${entry.length} bytes) has no newline: a write that never completed` }
  }
  return { kind: KIND_OF_REASON[entry.reason], ...where, message: `line ${entry.line}: ${entry.message}` }
}

/** Collects drafts; one per id, in the order found. */
export class FindingSink {
  private readonly drafts: FindingDraft[] = []

  add (draft: FindingDraft | undefined): void {
    if (draft !== undefined) this.drafts.push(draft)
  }

  build (ts: string): AuditFinding[] {
    const seen = new Map<string, AuditFinding>()
    for (const draft of this.drafts) {
      const finding = buildFinding(draft, ts)
      if (!seen.has(finding.id)) seen.set(finding.id, finding)
    }
    return [...seen.values()]
  }
}
