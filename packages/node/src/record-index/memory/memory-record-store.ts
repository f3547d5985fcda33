import { IsnadError } from '../../errors/index.js'
import type { MemoryRecord, RecordKind, MemoryQuery, QueryPage, RecordStore, StoredRecord, TrustEntry } from '../../schema/index.js'
import { indexedMemoryOf, type IndexedMemory } from '../indexed-memory.js'
import { normalizeQuery } from '../query-plan.js'
import { assertTrustEntry, copyTrust, sameTrust, decodeStoredRecord, linksOf, prepareRecords, trustNotFound, type Link } from '../prepare.js'
import { queryMemories, type MemoryIndexes } from './memory-query.js'
import { LinkedRecordReads } from '../linked-reads.js'

/**
 * A RecordStore in plain Maps, for tests and in-process simulations. It keeps the same canonical
 * bytes as the LevelDB store and answers with freshly decoded records, so a caller can never alter
 * what it holds, and it follows the same contract: open before use, all-or-nothing batches, the
 * same order and cursors.
 */
export class MemoryRecordStore extends LinkedRecordReads implements RecordStore {
  private readonly records = new Map<string, { kind: RecordKind, bytes: Uint8Array }>()
  private readonly trust = new Map<string, TrustEntry>()
  private readonly links = new Map<string, Set<string>>()
  /** Records of each kind, kept as they are stored: count() must not walk every record. */
  private readonly counts: Record<RecordKind, number> = { memory: 0, attestation: 0, anchor: 0, witness_request: 0 }
  private readonly indexes: MemoryIndexes = {
    memories: new Map(), trust: this.trust, byTag: new Map(), byAuthor: new Map(), byType: new Map()
  }

  private state: 'new' | 'open' | 'closed' = 'new'

  async open (): Promise<void> {
    this.state = 'open'
  }

  async close (): Promise<void> {
    if (this.state === 'open') this.state = 'closed'
  }

  async putMany (records: StoredRecord[], trust: ReadonlyMap<string, TrustEntry> = new Map()): Promise<string[]> {
    this.assertOpen()
    // Everything that can fail is checked before the first change: the batch is all or nothing.
    const fresh = prepareRecords(records).filter((r) => !this.records.has(r.id))
    const freshMemories = new Set(fresh.filter((r) => r.signed.record.kind === 'memory').map((r) => r.id))
    for (const [memoryId, entry] of trust) {
      assertTrustEntry(memoryId, entry)
      if (!freshMemories.has(memoryId) && !this.indexes.memories.has(memoryId)) throw trustNotFound(memoryId)
    }
    for (const { id, signed, bytes } of fresh) {
      const { record } = signed
      this.records.set(id, { kind: record.kind, bytes })
      this.counts[record.kind]++
      for (const { link, from } of linksOf(record)) addTo(this.links, linkKey(link, from), id)
      if (record.kind === 'memory') this.indexMemory(id, indexedMemoryOf(record))
    }
    for (const [memoryId, entry] of trust) {
      if (!sameTrust(this.trust.get(memoryId), entry)) this.trust.set(memoryId, copyTrust(entry))
    }
    return fresh.map((r) => r.id)
  }

  async get (id: string): Promise<StoredRecord | null> {
    this.assertOpen()
    const stored = this.records.get(id)
    return stored === undefined ? null : { id, signed: decodeStoredRecord(id, stored.bytes) }
  }

  async getMemory (id: string): Promise<StoredRecord<MemoryRecord> | null> {
    this.assertOpen()
    return this.records.get(id)?.kind === 'memory' ? await this.get(id) as StoredRecord<MemoryRecord> : null
  }

  async exists (id: string): Promise<boolean> {
    this.assertOpen()
    return this.records.has(id)
  }

  async existsMany (ids: readonly string[]): Promise<boolean[]> {
    this.assertOpen()
    return ids.map((id) => this.records.has(id))
  }

  async getBytesMany (ids: readonly string[]): Promise<Array<Uint8Array | undefined>> {
    this.assertOpen()
    // Copies: a caller must never be able to alter what the store holds.
    return ids.map((id) => this.records.get(id)?.bytes.slice())
  }

  async count (): Promise<Record<RecordKind, number>> {
    this.assertOpen()
    return { ...this.counts }
  }

  async supersededBy (memoryId: string): Promise<string[]> {
    this.assertOpen()
    return this.linkedIds('successors', memoryId)
  }

  async hasOrphanEvidence (memoryId: string): Promise<boolean> {
    this.assertOpen()
    if (this.records.has(memoryId)) return false
    return this.links.has(linkKey('attestations', memoryId)) || this.links.has(linkKey('anchors', memoryId))
  }

  async setTrust (memoryId: string, trust: TrustEntry): Promise<void> {
    this.assertOpen()
    assertTrustEntry(memoryId, trust)
    if (!this.indexes.memories.has(memoryId)) throw trustNotFound(memoryId)
    this.trust.set(memoryId, copyTrust(trust))
  }

  async getTrust (memoryId: string): Promise<TrustEntry | null> {
    this.assertOpen()
    const trust = this.trust.get(memoryId)
    return trust === undefined ? null : copyTrust(trust)
  }

  async query (query: MemoryQuery): Promise<QueryPage> {
    this.assertOpen()
    return queryMemories(this.indexes, normalizeQuery(query))
  }

  private indexMemory (id: string, memory: IndexedMemory): void {
    this.indexes.memories.set(id, memory)
    addTo(this.indexes.byAuthor, memory.author, id)
    addTo(this.indexes.byType, memory.type, id)
    for (const tag of memory.tags) addTo(this.indexes.byTag, tag, id)
  }

  private linkedIds (link: Link, from: string): string[] {
    return [...this.links.get(linkKey(link, from)) ?? []].sort()
  }

  protected async linkedRecords (link: Link, from: string): Promise<StoredRecord[]> {
    this.assertOpen()
    const out: StoredRecord[] = []
    for (const id of this.linkedIds(link, from)) {
      const stored = this.records.get(id)
      if (stored !== undefined) out.push({ id, signed: decodeStoredRecord(id, stored.bytes) })
    }
    return out
  }

  private assertOpen (): void {
    if (this.state !== 'open') {
      throw new IsnadError('STORE_CLOSED', `the in-memory record store is ${this.state === 'new' ? 'not open yet' : 'closed'}`)
    }
  }
}

function linkKey (link: Link, from: string): string {
  return link + '\x00' + from
}

function addTo (index: Map<string, Set<string>>, key: string, id: string): void {
  const ids = index.get(key)
  if (ids === undefined) index.set(key, new Set([id]))
  else ids.add(id)
}

/** A RecordStore held in memory (tests, simulations); call `open()` before use. */
export function createMemoryRecordStore (): RecordStore {
  return new MemoryRecordStore()
}
