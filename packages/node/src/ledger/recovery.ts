import { createHash } from 'node:crypto'
import { dirname } from 'node:path'
import { FINDING_ID_DOMAIN } from './constants.js'
import { type TornTailFinding } from './coordination-schema.js'
import type { LineValidator } from './entries.js'
import { ensureDirectory, syncDirectory, withFile } from '../fs/index.js'
import { withLineHash } from './line-hash.js'
import { derivedId } from './ids.js'
import { dataRelative, tornEvidencePath } from './layout.js'
import { inspectTail, type TailState } from './tail.js'

/**
 * Crash recovery of one ledger file at open (docs/architecture.md, "The data directory": "a torn last line after a crash
 * is detected and recovered, never silently dropped with acknowledged data").
 *
 * Why cutting the torn tail is not rewriting history (spec §9): history is what was acknowledged,
 * and a line is acknowledged only after the write carrying it and an fdatasync have completed
 * (appender.ts). Bytes that do not form a complete, valid line at the end of the file are the
 * remains of a write whose sync never returned, so nobody was ever told they exist, and no reader
 * ever returned them as an event (readers stop at the durable size or report a `torn_tail`). Every
 * line before them is left exactly as it was. And nothing is thrown away: the bytes are first copied
 * to `governance/findings/torn/` and a finding records where they were and their SHA-256. Appending
 * after them instead would glue the next line onto the fragment and make both unreadable.
 */

export interface RecoveryContext {
  dataDir: string
  /** The clock, for the finding's `ts`. */
  now: () => string
  /** Appends a finding durably to governance/findings/findings.jsonl. */
  recordFinding: (finding: TornTailFinding) => Promise<void>
  /** Ids of the findings already recorded, so a recovery interrupted by a second crash does not record twice. */
  recordedFindingIds: () => Promise<ReadonlySet<string>>
}

export interface Recovered<T> {
  tail: TailState<T>
  /** Present when a torn tail was cut off. */
  finding: TornTailFinding | undefined
}

/**
 * Checks the tail of `path` and, when torn: copies the torn bytes, records the finding, truncates the
 * file to its last valid line. `truncateFirst` is for findings.jsonl itself, which can only take the
 * finding once its own torn tail is gone.
 */
export async function recoverTail<T> (
  path: string, validate: LineValidator<T>, ctx: RecoveryContext, { truncateFirst = false } = {}
): Promise<Recovered<T>> {
  const tail = await inspectTail(path, validate)
  if (tail.validEnd === tail.size) return { tail, finding: undefined }
  const torn = await readRange(path, tail.validEnd, tail.size)
  const file = dataRelative(ctx.dataDir, path)
  const sha256 = createHash('sha256').update(torn).digest('hex')
  const evidence = tornEvidencePath(ctx.dataDir, path, tail.validEnd)
  await writeEvidence(evidence, torn)
  const finding = withLineHash({
    // Derived from what was found, so recovering the same tail twice names the same finding.
    id: derivedId('finding', FINDING_ID_DOMAIN, ['torn_tail', file, String(tail.validEnd), sha256]),
    kind: 'torn_tail' as const,
    file,
    offset: tail.validEnd,
    bytes: torn.length,
    reason: tail.reason ?? 'unterminated',
    evidence: dataRelative(ctx.dataDir, evidence),
    sha256,
    ts: ctx.now()
  })
  if (truncateFirst) await truncate(path, tail.validEnd)
  if (!(await ctx.recordedFindingIds()).has(finding.id)) await ctx.recordFinding(finding)
  if (!truncateFirst) await truncate(path, tail.validEnd)
  return { tail: { ...tail, size: tail.validEnd }, finding }
}

async function readRange (path: string, from: number, to: number): Promise<Buffer> {
  return await withFile(path, { flags: 'r', action: 'read' }, async (handle) => {
    const buffer = Buffer.alloc(to - from)
    let filled = 0
    while (filled < buffer.length) {
      const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, from + filled)
      if (bytesRead === 0) break
      filled += bytesRead
    }
    return buffer.subarray(0, filled)
  })
}

async function writeEvidence (path: string, bytes: Buffer): Promise<void> {
  await ensureDirectory(dirname(path))
  // 'w': a recovery interrupted earlier may have left the same copy; it is rewritten identically.
  await withFile(path, { flags: 'w', mode: 0o644, action: 'write' }, async (handle) => {
    await handle.writeFile(bytes)
    await handle.sync()
  })
  await syncDirectory(dirname(path))
}

/**
 * The one non-append operation on a ledger: cutting an unacknowledged tail (see the header). The
 * file is opened read-write only for ftruncate; no byte before `length` is touched.
 */
async function truncate (path: string, length: number): Promise<void> {
  await withFile(path, { flags: 'r+', action: 'truncate' }, async (handle) => {
    await handle.truncate(length)
    await handle.sync()
  })
}
