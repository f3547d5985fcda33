import { decodeSignedRecord } from '../../record/index.js'
import type { NetHost, RecordPage } from '../host.js'
import { MAX_SYNC_SCAN } from './constants.js'
import { memoryFacts, recordMatches, type MemoryFacts, type SyncInterests } from './interest.js'

/*
 * The server side of a sync by interest (sync-v1 §9): the records of its log from `cursor` on that
 * match the client's interests, found by reading the log in order and keeping what matches.
 */

/**
 * At most `limit` records at log positions ≥ `cursor` that match `interests`, and the cursor after
 * the last log entry read. Reads at most `maxScan` log entries, so a request for little of a long
 * log costs a bounded scan: the page may then be short, or empty, with `next` past what was read.
 * Each read asks for no more entries than records are still wanted, so the page never ends inside
 * a read and `next` is exact.
 */
export async function matchingRecordsSince (host: NetHost, interests: SyncInterests, cursor: number, limit: number, maxScan = MAX_SYNC_SCAN): Promise<RecordPage> {
  const memories = new Map<string, Promise<MemoryFacts | null>>()
  const factsOf = async (memoryId: string): Promise<MemoryFacts | null> => {
    let facts = memories.get(memoryId)
    if (facts === undefined) {
      facts = host.get(memoryId).then((bytes) => {
        const record = bytes === null ? null : decodeSignedRecord(bytes).record
        return record?.kind === 'memory' ? memoryFacts(record) : null
      })
      memories.set(memoryId, facts)
    }
    return await facts
  }
  const records: Uint8Array[] = []
  let next = cursor
  while (records.length < limit && next - cursor < maxScan) {
    const page = await host.recordsSince(next, Math.min(limit - records.length, maxScan - (next - cursor)))
    if (page.next <= next) break // the end of the log
    next = page.next
    for (const bytes of page.records) {
      const { record } = decodeSignedRecord(bytes)
      const memory = record.kind === 'memory' ? null : await factsOf(record.memory)
      if (recordMatches(interests, record, memory)) records.push(bytes)
    }
  }
  return { records, next }
}
