import { stat } from 'node:fs/promises'
import { join } from 'node:path'
import { IsnadError } from '../../errors/index.js'
import type { IndexIssue, LedgerFacts } from '../../ledger/audit/index.js'
import { hashToHex } from '../../merkle/index.js'
import { encodeSignedRecord } from '../../record/index.js'
import { SignedRecordSchema, type RecordKind } from '../../schema/index.js'
import { createLevelRecordStore, isLevelCorruption, type RecordStore } from '../../record-index/index.js'
import { JournalState } from '../journal/journal-state.js'
import { journalIndexPath, nodePaths, recordIndexPath } from '../../home/index.js'

/**
 * The index half of `isnad ledger verify` (docs/threat-model.md, "Damage to the data directory"): the LevelDB index under `.memory/index/`
 * against what the audit read from the ledger. Presence (a deleted index makes the node answer
 * nothing), damage (LevelDB reports corrupt files), the counts of each record kind, the Merkle log
 * (size and root: every record id in ledger order), how far the journal says it applied the ledger,
 * a sample of ledger records (present, byte for byte), and a sample of index entries (each in the
 * ledger). Every issue is fixed by `isnad ledger reindex`, which rebuilds from nothing.
 *
 * Read-only: it opens nothing that does not exist (LevelDB would create an empty index), and a
 * running node holding the index makes it throw STORE_LOCKED (the caller says it was not checked).
 */

/** @default 64 — memories read back from the index's query order, each looked up in the ledger. */
export const INDEX_ENTRY_SAMPLE = 64

const REPAIR = 'rebuild it from the ledgers with `isnad ledger reindex` (or `isnad ledger repair`)'

async function exists (path: string): Promise<boolean> {
  return await stat(path).then(() => true, () => false)
}

export async function checkIndexAgainstLedger (home: string, facts: LedgerFacts): Promise<IndexIssue[]> {
  const paths = nodePaths(home)
  const parts = { records: recordIndexPath(paths), journal: journalIndexPath(paths) }
  const missing = []
  for (const [name, location] of Object.entries(parts)) if (!await exists(join(location, 'CURRENT'))) missing.push(`index/${name}`)
  if (missing.length > 0) {
    return [{
      kind: 'index_missing',
      message: `${missing.join(' and ')} ${missing.length === 1 ? 'is' : 'are'} missing: the node answers none of the ${facts.ids.size} records the ledger holds; ${REPAIR}`
    }]
  }
  const damaged = (part: string, err: unknown): IndexIssue[] => {
    if (err instanceof IsnadError && err.code === 'STORE_LOCKED') throw err
    if (isLevelCorruption(err)) return [{ kind: 'index_corrupt', message: `index/${part} is damaged (${messageOf(err)}); ${REPAIR}` }]
    if (err instanceof IsnadError && err.code === 'INDEX_OUTDATED') return [{ message: `index/${part}: ${err.message}` }]
    return [{ kind: 'index_corrupt', message: `index/${part} cannot be read (${messageOf(err)}); ${REPAIR}` }]
  }
  const store = createLevelRecordStore({ location: parts.records, dataDir: paths.data })
  try {
    await store.open()
  } catch (err) {
    return damaged('records', err)
  }
  let issues: IndexIssue[]
  try {
    issues = await compareRecords(store, facts)
  } catch (err) {
    issues = damaged('records', err)
  } finally {
    await store.close()
  }
  let state: JournalState
  try {
    state = await JournalState.open(parts.journal)
  } catch (err) {
    return [...issues, ...damaged('journal', err)]
  }
  try {
    issues.push(...await compareJournal(state, facts))
  } catch (err) {
    issues.push(...damaged('journal', err))
  } finally {
    await state.close()
  }
  return issues
}

function messageOf (err: unknown): string {
  return err instanceof Error ? err.message : String(err)
}

const KINDS: readonly RecordKind[] = ['memory', 'attestation', 'anchor', 'witness_request']

async function compareRecords (store: RecordStore, facts: LedgerFacts): Promise<IndexIssue[]> {
  const issues: IndexIssue[] = []
  const counts = await store.count()
  const differ = KINDS.filter((kind) => (counts[kind] ?? 0) !== (facts.counts[kind] ?? 0))
  if (differ.length > 0) {
    issues.push({
      message: `the index holds ${differ.map((k) => `${counts[k] ?? 0} ${k} records`).join(', ')}; ` +
        `the ledger ${differ.map((k) => `${facts.counts[k] ?? 0}`).join(', ')}; ${REPAIR}`
    })
  }
  // Ledger records present in the index, byte for byte (the store's canonical bytes, record-v1 §2.4).
  const sample = facts.sample
  const bytes = await store.getBytesMany(sample.map((s) => s.id))
  const absent: string[] = []
  const altered: string[] = []
  sample.forEach((entry, i) => {
    const stored = bytes[i]
    if (stored === undefined) absent.push(entry.id)
    else if (!sameBytes(stored, canonicalOf(entry.record))) altered.push(entry.id)
  })
  if (absent.length > 0) issues.push({ message: `${absent.length} of ${sample.length} sampled ledger records are not in the index (${absent.slice(0, 3).join(', ')}${absent.length > 3 ? ', …' : ''}); ${REPAIR}` })
  if (altered.length > 0) issues.push({ message: `${altered.length} sampled records differ between the index and the ledger (${altered.slice(0, 3).join(', ')}); ${REPAIR}` })
  // Index entries with no ledger event: memories in the index's own query order (the first page),
  // with their attestations.
  const page = await store.query({ limit: INDEX_ENTRY_SAMPLE })
  const extra: string[] = []
  for (const hit of page.items) {
    if (!facts.ids.has(hit.id)) extra.push(hit.id)
    for (const attestation of await store.attestationsFor(hit.id)) if (!facts.ids.has(attestation.id)) extra.push(attestation.id)
  }
  if (extra.length > 0) issues.push({ message: `${extra.length} index entries have no record event in the ledger (${extra.slice(0, 3).join(', ')}); ${REPAIR}` })
  return issues
}

async function compareJournal (state: JournalState, facts: LedgerFacts): Promise<IndexIssue[]> {
  const issues: IndexIssue[] = []
  const size = state.merkle.size
  if (size !== facts.log.size) {
    issues.push({ message: `the index's Merkle log has ${size} leaves, the ledger's record events make ${facts.log.size}; ${REPAIR}` })
  } else if (size > 0) {
    const root = hashToHex(await state.merkle.root())
    if (root !== facts.log.root) issues.push({ message: `the index's Merkle root ${root} is not the ledger's ${facts.log.root} at size ${size}; ${REPAIR}` })
  }
  const indexed = await state.indexedLc()
  if (indexed > facts.lastLc) issues.push({ message: `the index says it applied the ledger up to lc ${indexed}, the ledger ends at lc ${facts.lastLc}; ${REPAIR}` })
  // Every record the index's log holds and the ledger lost (a truncated or damaged shard): named, since
  // a reindex drops them from the index too and only peers or a backup can bring them back.
  const lost: string[] = []
  let count = 0
  for (let cursor = 0; ;) {
    const { ids, next } = await state.recordsSince(cursor, LOG_PAGE)
    for (const id of ids) {
      if (facts.ids.has(id)) continue
      count++
      if (lost.length < MAX_NAMED_LOST) lost.push(id)
    }
    if (ids.length === 0 || next === cursor) break
    cursor = next
  }
  if (count > 0) {
    issues.push({
      message: `${count} record${count === 1 ? '' : 's'} in the index's log ${count === 1 ? 'is' : 'are'} in no ledger event (lost from the ledger; a bare reindex would drop them): ` +
        `${lost.join(', ')}${count > lost.length ? `, and ${count - lost.length} more` : ''}; \`isnad ledger repair\` saves them from the index and imports them again`,
      refs: lost
    })
  }
  return issues
}

/** @default 1024 — ids read from the index's log per step when looking for records the ledger lost. */
const LOG_PAGE = 1024
/** @default 256 — lost records named in one finding (the count is always given). */
const MAX_NAMED_LOST = 256

/** The canonical bytes of a ledger record, or an empty array when it does not parse (then it differs). */
function canonicalOf (record: unknown): Uint8Array {
  const parsed = SignedRecordSchema.safeParse(record)
  return parsed.success ? encodeSignedRecord(parsed.data) : new Uint8Array(0)
}

function sameBytes (a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && Buffer.compare(Buffer.from(a.buffer, a.byteOffset, a.length), Buffer.from(b.buffer, b.byteOffset, b.length)) === 0
}
