import { describe, expect, it } from 'vitest'
import { describeFollows } from '../../../src/dashboard/browser/follows-panel.js'

/* The dashboard's follows section (follows-panel.ts): what the node follows and how gossip serves it. */

const A = 'did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK'
const B = 'did:key:z6MkjchhfUsD6mmvni8mCdXHw216Xrm9bQe2mBH1P5RDjVJG'

describe('describeFollows', () => {
  it('lists authors and tags, and without a daemon says nothing of gossip', () => {
    expect(describeFollows({ follows: [{ did: A, since: '2026-12-06T10:00:00Z' }, { tag: 'deploys', since: '2026-12-06T10:01:00Z' }] }))
      .toEqual({ follows: [`author ${A}`, 'tag deploys'], gossip: undefined })
  })

  it('gives the shard count and home shards, and counts the authors beyond max-shards', () => {
    expect(describeFollows({ follows: [], gossip: { count: 4, shards: [0, 3], by_sync: [] } }).gossip).toBe('shard count 4, home shards 0, 3')
    expect(describeFollows({ follows: [{ did: B, since: '2026-12-06T10:00:00Z' }], gossip: { count: 8, shards: [1], by_sync: [B] } }).gossip)
      .toBe('shard count 8, home shards 1; 1 followed author(s) beyond max-shards come by sync only')
  })
})
