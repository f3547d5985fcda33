import { IsnadError } from '../../errors/index.js'

/*
 * A LevelDB that reports damage (a table whose block checksum fails, a missing table file, a
 * mangled MANIFEST) is named as such, with the command that repairs it, rather than surfacing as a
 * bare IO_ERROR (docs/threat-model.md, "Damage to the data directory"). The index is derived from the ledgers (docs/architecture.md): `isnad ledger
 * reindex` rebuilds it from nothing, whatever state it is in.
 */

/** @default 8 — causes followed when looking for LevelDB's corruption code (a loop guard). */
const MAX_CAUSES = 8

/** classic-level's code for "Corruption: …" from LevelDB (a checksum, a missing table, a bad MANIFEST). */
const CORRUPTION_CODE = 'LEVEL_CORRUPTION'

/** Whether `err` (or one of its causes) is LevelDB reporting damaged files. */
export function isLevelCorruption (err: unknown): boolean {
  let current: unknown = err
  for (let depth = 0; depth < MAX_CAUSES && current !== null && typeof current === 'object'; depth++) {
    const { code, message, cause } = current as { code?: unknown, message?: unknown, cause?: unknown }
    if (code === CORRUPTION_CODE) return true
    if (typeof message === 'string' && message.startsWith('Corruption:')) return true
    if (current instanceof IsnadError && current.code === 'INDEX_CORRUPT') return true
    current = cause
  }
  return false
}

/** The error every surface reports for a damaged index: INDEX_CORRUPT, naming the repair. */
export function indexCorruptError (location: string | undefined, cause: unknown): IsnadError {
  const what = cause instanceof Error ? cause.message : String(cause)
  const where = location === undefined ? 'a LevelDB under .memory/' : `the LevelDB at ${location}`
  return new IsnadError('INDEX_CORRUPT',
    `${where} is damaged (${what}): the index is rebuilt from the ledgers with \`isnad ledger reindex\` (\`isnad ledger verify\` names the part)`,
    { cause, ...(location === undefined ? {} : { details: { location } }) })
}

/** `err` as INDEX_CORRUPT when LevelDB reported damage, else unchanged. */
export function asIndexError (err: unknown, location?: string): unknown {
  if (err instanceof IsnadError && err.code === 'INDEX_CORRUPT') return err
  return isLevelCorruption(err) ? indexCorruptError(location, err) : err
}
