import { join } from 'node:path'
import { isIsnadError } from '../../errors/index.js'
import { dataRelative, readEntries, type EntryLocation, type LedgerEntry, type LineValidator } from '../index.js'
import { draftOfEntry, FindingSink } from './findings.js'

/** What one audit run carries along: the directory, the findings so far, and the counts of the scorecard. */

export interface AuditStats {
  files_checked: number
  lines_checked: number
  /** Event lines that passed every line check. */
  events: number
  /** Record events (leaves of the Merkle log). */
  records: number
  /** `memory.checkpointed` events. */
  checkpoints: number
}

export interface AuditContext {
  dataDir: string
  sink: FindingSink
  stats: AuditStats
}

export function createAuditContext (dataDir: string): AuditContext {
  return { dataDir, sink: new FindingSink(), stats: { files_checked: 0, lines_checked: 0, events: 0, records: 0, checkpoints: 0 } }
}

export function relativeTo (ctx: AuditContext, path: string): string {
  return dataRelative(ctx.dataDir, path)
}

/** Counts and reports every entry a reader yields; passes the good ones on. */
export function checkEntry<T> (ctx: AuditContext, entry: LedgerEntry<T>): entry is EntryLocation & { kind: 'record', value: T } {
  ctx.stats.lines_checked++
  if (entry.kind === 'record') return true
  ctx.sink.add(draftOfEntry(ctx.dataDir, entry))
  return false
}

/**
 * Reads one whole file (relative path) and yields its good lines with their location; bad lines
 * become findings, and a file that cannot be read at all an `io_error` finding.
 */
export async function * scanFile<T> (ctx: AuditContext, rel: string, validate: LineValidator<T>): AsyncGenerator<EntryLocation & { value: T }> {
  ctx.stats.files_checked++
  try {
    for await (const entry of readEntries(join(ctx.dataDir, rel), validate)) {
      if (checkEntry(ctx, entry)) yield { file: entry.file, offset: entry.offset, line: entry.line, value: entry.value }
    }
  } catch (err) {
    if (!isIsnadError(err, 'IO_ERROR')) throw err
    ctx.sink.add({ kind: 'io_error', file: rel, message: err.message })
  }
}
