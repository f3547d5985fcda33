import { join } from 'node:path'
import { IsnadError } from '../../errors/index.js'
import { withFile } from '../../fs/index.js'
import { lastLineEnded } from '../tail.js'
import { JsonlAppender, readEntries, recoverTail, validateOperationalLine, type RecoveryContext } from '../index.js'

/**
 * Appending to the governance ledgers (spec §10) through the durable appender: a line is written
 * only once it can be acknowledged (JsonlAppender: write + fdatasync). A file that ends in a torn
 * line must not be appended to (the new line would be glued to the fragment and both lost): with the
 * node's RecoveryContext (EventLedger.recovery, under its writer lock) the tail is recovered first,
 * otherwise the append is refused with LEDGER_CORRUPT until `isnad ledger repair` recovers it.
 */

async function assertTailIntact (path: string): Promise<void> {
  if (!await withFile(path, { flags: 'r', action: 'read', ifMissing: true }, lastLineEnded)) {
    throw new IsnadError('LEDGER_CORRUPT', `${path} ends in a torn line: run \`isnad ledger repair\` before appending to it`, { details: { file: path } })
  }
}

/** Appends `lines` (objects with their hash) to `rel` durably; nothing to append opens nothing. */
export async function appendLedgerLines (dataDir: string, rel: string, lines: readonly object[], recovery?: RecoveryContext): Promise<void> {
  if (lines.length === 0) return
  const path = join(dataDir, rel)
  if (recovery === undefined) await assertTailIntact(path)
  else await recoverTail(path, validateOperationalLine, recovery)
  const appender = new JsonlAppender(path)
  try {
    await appender.appendObjects(lines)
  } finally {
    await appender.close()
  }
}

/** The `id`s of the good lines of an operational ledger (already recorded findings, plans). */
export async function recordedIds (dataDir: string, rel: string): Promise<Set<string>> {
  const ids = new Set<string>()
  for await (const entry of readEntries(join(dataDir, rel), validateOperationalLine)) {
    if (entry.kind === 'record' && typeof entry.value.id === 'string') ids.add(entry.value.id)
  }
  return ids
}
