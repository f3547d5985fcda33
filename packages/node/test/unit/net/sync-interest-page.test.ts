import { describe, expect, it } from 'vitest'
import { decodeSignedRecord } from '../../../src/record/index.js'
import { matchingRecordsSince } from '../../../src/net/sync/interest-page.js'
import type { SyncInterests } from '../../../src/net/sync/interest.js'
import { createAgent, createAttestation, createMemory } from '../../fixtures/records.js'
import { MemoryHost } from '../../integration/net/fixtures/memory-host.js'
import { verified } from '../../integration/net/fixtures/harness.js'

/*
 * The server side of a sync by interest (sync-v1 §9, S10) on a log in memory: what matches, in log
 * order; a page that fills ends exactly after its last record; a scan stops at its bound with the
 * cursor past what it read, so the client asks again from there and loses nothing.
 */

const wanted = createAgent(1)
const other = createAgent(2)
const interests: SyncInterests = { shards: { count: 4096, indexes: [] }, authors: [wanted.did], tags: ['deploys'] }

/** A log of 40 entries: every 4th a memory by the wanted author, every 4th+1 an attestation of it by `other`, the rest `other`'s untagged memories; a tagged one at the end. */
function logOf (): { host: MemoryHost, matching: string[] } {
  const host = new MemoryHost()
  const matching: string[] = []
  for (let i = 0; i < 10; i++) {
    const memory = createMemory(wanted)
    const attestation = createAttestation(other, memory.id)
    for (const record of [memory, attestation, createMemory(other), createMemory(other)]) host.putLocal(verified(record.signed))
    matching.push(memory.id, attestation.id)
  }
  const tagged = createMemory(other, { tags: ['deploys'] })
  host.putLocal(verified(tagged.signed))
  matching.push(tagged.id)
  return { host, matching }
}

const idsOf = (records: Uint8Array[]): string[] => records.map((bytes) => verifiedId(bytes))
function verifiedId (bytes: Uint8Array): string { return verified(decodeSignedRecord(bytes)).id }

describe('the records a sync by interest serves (sync-v1 §9)', () => {
  it('serves the matching records in log order, and ends a full page right after its last record', async () => {
    const { host, matching } = logOf()
    const first = await matchingRecordsSince(host, interests, 0, 5)
    expect(idsOf(first.records)).toEqual(matching.slice(0, 5))
    expect(first.next).toBe(9) // the 5th match is log entry 8: the next page starts after it
    const rest = await matchingRecordsSince(host, interests, first.next, 100)
    expect(idsOf(rest.records)).toEqual(matching.slice(5))
    expect(rest.next).toBe(host.log.length)
    expect(await matchingRecordsSince(host, interests, rest.next, 100)).toEqual({ records: [], next: rest.next })
  })

  it('reads at most maxScan entries for one request, and answers with the cursor past them', async () => {
    const { host, matching } = logOf()
    const none: SyncInterests = { ...interests, authors: [], tags: ['nothing-has-this'] }
    expect(await matchingRecordsSince(host, none, 0, 100, 16)).toEqual({ records: [], next: 16 })
    let cursor = 0
    const served: string[] = []
    for (let requests = 0; cursor < host.log.length; requests++) {
      expect(requests).toBeLessThan(host.log.length)
      const page = await matchingRecordsSince(host, interests, cursor, 100, 6)
      expect(page.next - cursor).toBeLessThanOrEqual(6)
      served.push(...idsOf(page.records))
      cursor = page.next
    }
    expect(served).toEqual(matching)
  })
})
