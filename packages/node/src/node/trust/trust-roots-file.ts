import { stat } from 'node:fs/promises'
import { join } from 'node:path'
import { z } from 'zod'
import { IsnadError } from '../../errors/index.js'
import { JsonlAppender, hashedLineValidator, readEntries, withLineHash } from '../../ledger/index.js'
import type { TrustRoot } from '../../reputation/index.js'
import { didKey, isoTimestamp, lineHash } from '../../schema/index.js'

/**
 * The operator's trust roots (docs/trust.md §2), kept as an append-only operational ledger beside the
 * others of spec §10: `coordination/trust-roots.jsonl`, one hashed line per change, so the history
 * of whom this node trusted and when is auditable. The current set is the replay of the lines.
 */
export const TRUST_ROOTS_FILE = 'coordination/trust-roots.jsonl'

/** @default 256 — roots beyond this make the teleport set meaningless (and explain unreadable). */
export const MAX_TRUST_ROOTS = 256

export const TrustRootLineSchema = z.strictObject({
  kind: z.enum(['added', 'removed']),
  did: didKey,
  ts: isoTimestamp,
  hash: lineHash
})
export type TrustRootLine = z.infer<typeof TrustRootLineSchema>

const validate = hashedLineValidator(TrustRootLineSchema)

/**
 * The current roots, oldest first. A missing file is no roots; a line that fails its schema or
 * hash is LEDGER_CORRUPT (a root set read wrong would silently change every score). A torn last
 * line is a write that never completed and was never acknowledged: it does not count.
 */
export async function readTrustRoots (dataDir: string): Promise<TrustRoot[]> {
  const file = join(dataDir, TRUST_ROOTS_FILE)
  if (!await exists(file)) return []
  const roots = new Map<string, TrustRoot>()
  for await (const entry of readEntries(file, validate)) {
    if (entry.kind === 'torn_tail') continue
    if (entry.kind === 'corrupt') {
      throw new IsnadError('LEDGER_CORRUPT', `${TRUST_ROOTS_FILE} line ${entry.line} is corrupt (${entry.reason}: ${entry.message})`, {
        details: { file: TRUST_ROOTS_FILE, line: entry.line, reason: entry.reason }
      })
    }
    const { kind, did, ts } = entry.value
    if (kind === 'added') roots.set(did, { did, source: 'added', added_at: ts })
    else roots.delete(did)
  }
  return [...roots.values()]
}

/**
 * Appends one change durably. ALREADY_EXISTS when adding a root that is one, NOT_FOUND when
 * removing one that is not, USAGE past MAX_TRUST_ROOTS: the file only records real changes.
 */
export async function changeTrustRoot (dataDir: string, kind: TrustRootLine['kind'], did: string, now: number): Promise<TrustRoot[]> {
  if (!didKey.safeParse(did).success) throw new IsnadError('DID_INVALID', `${did} is not an Ed25519 did:key`)
  const roots = await readTrustRoots(dataDir)
  const present = roots.some((r) => r.did === did)
  if (kind === 'added' && present) throw new IsnadError('ALREADY_EXISTS', `${did} is already a trust root`, { details: { did } })
  if (kind === 'removed' && !present) throw new IsnadError('NOT_FOUND', `${did} is not a trust root`, { details: { did } })
  if (kind === 'added' && roots.length >= MAX_TRUST_ROOTS) {
    throw new IsnadError('USAGE', `a node has at most ${MAX_TRUST_ROOTS} trust roots`)
  }
  const ts = new Date(now).toISOString()
  const appender = new JsonlAppender(join(dataDir, TRUST_ROOTS_FILE))
  try {
    await appender.appendObjects([withLineHash({ kind, did, ts })])
  } finally {
    await appender.close()
  }
  return kind === 'added' ? [...roots, { did, source: 'added', added_at: ts }] : roots.filter((r) => r.did !== did)
}

async function exists (path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile()
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false
    throw new IsnadError('IO_ERROR', `cannot read ${path}`, { cause: err })
  }
}
