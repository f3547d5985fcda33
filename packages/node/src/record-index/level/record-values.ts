import { access } from 'node:fs/promises'
import { join } from 'node:path'
import { IsnadError } from '../../errors/index.js'
import { cidOfBytesNative } from '../../fast-crypto/index.js'
import { cidString, recordPartOf } from '../../record/index.js'
import type { PreparedRecord } from '../prepare.js'
import type { RecordLocation } from '../../schema/index.js'
import { LocationReader, type LocatedRead } from './location-reader.js'
import { decodeStoredValue, encodeHeld, encodeLocation } from './record-location.js'
import type { Sublevels, WriteBatch } from './sublevels.js'

/*
 * What the `records` sublevel holds for each record (record-location.ts) and how it is read back:
 * the ledger files locations name (the `files` sublevel, kept in memory both ways while the store
 * is open), and the reader that preads the blocks. Numbers are given to new files by the write
 * queue, inside the batch that first names them; until it commits they are pending, so a batch
 * that fails to commit leaves no number behind in memory that LevelDB lacks.
 */

export class RecordValues {
  private readonly names = new Map<number, string>()
  private readonly numbers = new Map<string, number>()
  private pending = new Map<string, number>()
  private readonly reader: LocationReader | undefined

  /** `dataDir`: the `.memory/` directory locations are relative to; without it every record is held. */
  constructor (readonly dataDir: string | undefined) {
    this.reader = dataDir === undefined ? undefined : new LocationReader(dataDir)
  }

  /**
   * Reads the files the index names. A stream shard among them that is gone (`ledger archive`
   * compressed it, and the rebuild that follows did not happen: a crash in between) makes the
   * index INDEX_OUTDATED, which the node answers by rebuilding it, so it locates those records in
   * the pack files the archive wrote out. Pack files are only ever added; they are not checked here.
   */
  async load (subs: Sublevels, location: string): Promise<void> {
    this.names.clear()
    this.numbers.clear()
    this.pending.clear()
    for (const [key, path] of await subs.files.iterator().all()) {
      const n = Number(key)
      this.names.set(n, path)
      this.numbers.set(path, n)
    }
    if (this.dataDir === undefined) return
    for (const path of this.numbers.keys()) {
      if (!path.startsWith('streams/')) continue
      if (await access(join(this.dataDir, ...path.split('/'))).then(() => true, () => false)) continue
      throw new IsnadError('INDEX_OUTDATED', `the index at ${location} locates records in ${path}, which is gone (archived?): rebuild it from the ledgers with \`isnad ledger reindex\``, {
        details: { location, file: path }
      })
    }
  }

  /**
   * Names every file of `locations` in the batch, in their order (ledger order), so a rebuild
   * numbers the files as the node did while it wrote, whatever order the records themselves are
   * written in (reindex writes memories last).
   */
  name (locations: ReadonlyMap<string, RecordLocation> | undefined, batch: WriteBatch): void {
    if (locations === undefined || this.reader === undefined) return
    for (const { file } of locations.values()) this.fileNumber(file, batch)
  }

  /** A new record's value: its location when it has one and this store reads the ledger, else its bytes. */
  valueOf (record: PreparedRecord, location: RecordLocation | undefined, batch: WriteBatch): Uint8Array {
    if (location === undefined || this.reader === undefined) return encodeHeld(record.bytes)
    return encodeLocation(location, this.fileNumber(location.file, batch))
  }

  private fileNumber (path: string, batch: WriteBatch): number {
    const known = this.numbers.get(path) ?? this.pending.get(path)
    if (known !== undefined) return known
    const n = this.names.size + this.pending.size
    this.pending.set(path, n)
    batch.put('files', String(n), path)
    return n
  }

  /** After the batch committed (true) or failed (false): its new file numbers are kept or forgotten. */
  settle (committed: boolean): void {
    if (committed) {
      for (const [path, n] of this.pending) {
        this.names.set(n, path)
        this.numbers.set(path, n)
      }
    }
    this.pending = new Map()
  }

  /** The records' canonical bytes from their values, in input order (undefined stays undefined); each checked against its id. */
  async bytesOf (ids: readonly string[], values: ReadonlyArray<Uint8Array | undefined>, location: string): Promise<Array<Uint8Array | undefined>> {
    const out: Array<Uint8Array | undefined> = new Array(ids.length)
    const reads: LocatedRead[] = []
    const at: number[] = []
    values.forEach((raw, i) => {
      if (raw === undefined) return
      const id = ids[i] as string
      const value = decodeStoredValue(id, raw)
      if (value.kind === 'held') {
        assertHeld(id, value.bytes, location)
        out[i] = value.bytes
        return
      }
      const file = this.names.get(value.file)
      if (file === undefined || this.reader === undefined) {
        throw new IsnadError('INDEX_CORRUPT', `the index at ${location} locates record ${id} in ledger file #${value.file}, which it does not name${this.reader === undefined ? ' (or this store was opened without its data directory)' : ''}: rebuild it with \`isnad ledger reindex\``, { details: { id, location } })
      }
      reads.push({ id, value, file })
      at.push(i)
    })
    if (reads.length > 0) {
      const bytes = await (this.reader as LocationReader).readMany(reads)
      at.forEach((i, n) => { out[i] = bytes[n] })
    }
    return out
  }

  async close (): Promise<void> {
    await this.reader?.close()
  }
}

/** Bytes the index holds itself are hashed against their id too: a damaged index never passes a wrong record. */
function assertHeld (id: string, bytes: Uint8Array, location: string): void {
  const part = recordPartOf(bytes)
  if (part !== undefined && cidString(cidOfBytesNative(part)) === id) return
  throw new IsnadError('INDEX_CORRUPT', `the index at ${location} holds bytes for record ${id} that are not that record: rebuild it with \`isnad ledger reindex\``, { details: { id, location } })
}
