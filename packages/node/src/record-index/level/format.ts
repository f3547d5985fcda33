import { IsnadError } from '../../errors/index.js'
import type { RootLevel, Sublevels } from './sublevels.js'

/*
 * The index records the version of its key layout (key-layout.ts) under `meta` `format`. The index can
 * always be rebuilt from the ledgers, so a layout change is a new version rather than a migration:
 * an index of any other version is refused with INDEX_OUTDATED, never read with the wrong layout.
 *
 *   (none)  the first layout: a separate `trust` sublevel, no `meta` (an index with records but
 *           no format key is of this version)
 *   2       trust kept in the memory's entry (memory-entry.ts); query-index values hold only
 *           created_at
 *   3       the journal's Merkle log keeps one column per leaf (src/merkle/log-keys.ts) and its
 *           leaf positions in runs (journal-state.ts): this version covers all of .memory/index/
 *   4       `orphans` lists the memories whose evidence is stored before them (keys.ts), so ingest
 *           knows a new memory has none without listing its attestations and anchors
 *   5       `records` holds where each record's bytes are in the ledger's packs, not the bytes
 *           (record-location.ts; `files` names the ledger files): each record stored once
 *           (docs/ledger-packs.md). An index of version 4 read as 5 would take record bytes for locations, so it is
 *           refused and the node rebuilds it on open (LocalNode.open, as `isnad ledger reindex`)
 *   6       query-index values are '' when the position's time gives created_at (key-layout.ts
 *           queryValueOf), and no `wit` links (attestations by a witness) are written (smaller
 *           on disk). Version 6 reads 5's values as they are, but a build of version 5 would report
 *           an empty created_at for every query hit of a version 6 index: the bump makes it refuse
 *           (and rebuild) instead, and this code rebuilds a version 5 index once, dropping its
 *           `wit` keys
 *   7       binary keys (key-layout.ts, binary-keys.ts): record ids as 32 bytes that sort as
 *           the text did, instead of 59 characters of base32; one-letter sublevel names; query
 *           scopes, trust levels and policies named once in a dictionary (`d`, scope-names.ts)
 *           and by number in query keys and memory entries; query positions of 41 bytes; link
 *           keys with 8 bytes of the memory's id; compact timestamps in memory entries
 *           (memory-entry.ts). In the journal's LevelDB: the Merkle log's keys binary, its
 *           leaf-hash keys cut to 8 bytes (exact by hashing the candidates), each leaf's record
 *           CID kept as its digest in its column (src/merkle/log-keys.ts, RECORD_LEAF_CODEC), so
 *           no `leaves` sublevel (journal-state.ts). 2.09 → 0.89 MB after figure 8c's sync
 *           (BENCHMARKS.md, "Disk"). Nothing of version 6 can be read as 7: the node
 *           rebuilds a version 6 index on open, and a build of version 6 refuses a 7 by its
 *           `format` (kept under `meta`, the name every version used)
 */

/** @default "7" — the layout version this code reads and writes. */
export const INDEX_FORMAT = '7'
const FORMAT_KEY = 'format'

/**
 * Checks the format of an opened index: a new (empty) index is stamped with INDEX_FORMAT, one of
 * another version refused with INDEX_OUTDATED naming the command that rebuilds it.
 */
export async function checkIndexFormat (db: RootLevel, subs: Sublevels, location: string): Promise<void> {
  const format = await subs.meta.get(FORMAT_KEY)
  if (format === INDEX_FORMAT) return
  if (format === undefined && (await db.keys({ limit: 1 }).all()).length === 0) {
    await subs.meta.put(FORMAT_KEY, INDEX_FORMAT)
    return
  }
  const found = format ?? '1'
  throw new IsnadError('INDEX_OUTDATED', `the index at ${location} has layout version ${found}, this isnad reads version ${INDEX_FORMAT}: rebuild it from the ledgers with \`isnad ledger reindex\``, {
    details: { location, format: found, expected: INDEX_FORMAT }
  })
}
