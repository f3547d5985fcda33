import { describe, expect, it } from 'vitest'
import { announcesHeldRecord, PROVIDERS_PER_RECORD } from '../../../src/net/index.js'

/* content-routing-v1 C2b: which holders of a record signed elsewhere announce it. */

const cids = Array.from({ length: 4000 }, (_, i) => `bafyreib-test-record-${i}`)
const peers = Array.from({ length: 40 }, (_, i) => `12D3KooW-test-peer-${i}`)

describe('announcesHeldRecord', () => {
  it('announces every record while a record has at most PROVIDERS_PER_RECORD holders', () => {
    for (const holders of [0, 1, PROVIDERS_PER_RECORD]) expect(cids.slice(0, 200).every((cid) => announcesHeldRecord(peers[0]!, cid, holders))).toBe(true)
  })

  it('announces about PROVIDERS_PER_RECORD / holders of the records, so a record has about PROVIDERS_PER_RECORD providers among its holders', () => {
    for (const holders of [16, 80, 160]) {
      const share = cids.filter((cid) => announcesHeldRecord(peers[0]!, cid, holders)).length / cids.length
      expect(share).toBeGreaterThan(0.8 * PROVIDERS_PER_RECORD / holders)
      expect(share).toBeLessThan(1.2 * PROVIDERS_PER_RECORD / holders)
      // Over one shard's holders, each record's providers: PROVIDERS_PER_RECORD on average.
      const providers = cids.slice(0, 400).map((cid) => peers.filter((peer) => announcesHeldRecord(peer, cid, 40)).length)
      expect(providers.reduce((a, b) => a + b, 0) / providers.length).toBeCloseTo(PROVIDERS_PER_RECORD, 0)
    }
  })

  it('decides the same for the same node and record, and independently across nodes', () => {
    const first = cids.map((cid) => announcesHeldRecord(peers[1]!, cid, 80))
    expect(cids.map((cid) => announcesHeldRecord(peers[1]!, cid, 80))).toEqual(first)
    const other = cids.map((cid) => announcesHeldRecord(peers[2]!, cid, 80))
    const both = first.filter((a, i) => a && other[i]).length
    expect(both).toBeLessThan(0.05 * cids.length) // about (8/80)² = 1 %
  })
})
