import { describe, expect, it } from 'vitest'
import { SyncInterestsSchema, groupByCursor, interestKeys, memoryFacts, recordMatches, type SyncInterests } from '../../../src/net/sync/interest.js'
import { shardOf } from '../../../src/shard/index.js'
import { createAgent, createAnchor, createAttestation, createMemory, createWitnessRequest, type TestAgent } from '../../fixtures/records.js'

const COUNT = 4

/** The first agent from `from` on whose shard under COUNT is not among `not`. */
function agentOutside (not: readonly number[], from: number): TestAgent {
  for (let n = from; ; n++) if (!not.includes(shardOf(createAgent(n).did, COUNT))) return createAgent(n)
}

describe('sync interests: which records a sync by interest serves (sync-v1 "Interests")', () => {
  const own = createAgent(1)
  const home = shardOf(own.did, COUNT)
  const followed = agentOutside([home], 20)
  const stranger = agentOutside([home, shardOf(followed.did, COUNT)], 40)
  const interests: SyncInterests = { shards: { count: COUNT, indexes: [home] }, authors: [followed.did], tags: ['rust'] }

  it('matches a memory by its author\'s shard, by its author, or by one of its tags, and nothing else', () => {
    const match = (author: TestAgent, tags: string[] = []): boolean => recordMatches(interests, createMemory(author, { tags }).signed.record, null)
    expect(match(own)).toBe(true)
    expect(match(followed)).toBe(true)
    expect(match(stranger, ['go', 'rust'])).toBe(true)
    expect(match(stranger)).toBe(false)
    expect(match(stranger, ['go', 'Rust'])).toBe(false)
  })

  it('reads a memory\'s shard under the count the request names, not under another', () => {
    const wider: SyncInterests = { shards: { count: 2 * COUNT, indexes: [shardOf(own.did, 2 * COUNT)] }, authors: [], tags: [] }
    expect(recordMatches(wider, createMemory(own).signed.record, null)).toBe(true)
    const other = agentOutside([home], 60) // outside `home` under COUNT, so outside its refinement under 2·COUNT
    expect(recordMatches(wider, createMemory(other).signed.record, null)).toBe(false)
  })

  it('matches attestations, anchors and witness requests with the memory they point at', () => {
    const wanted = createMemory(followed)
    const unwanted = createMemory(stranger)
    for (const [memory, expected] of [[wanted, true], [unwanted, false]] as const) {
      const facts = memoryFacts(memory.signed.record)
      expect(recordMatches(interests, createAttestation(stranger, memory.id).signed.record, facts)).toBe(expected)
      expect(recordMatches(interests, createAnchor(stranger, memory.id).signed.record, facts)).toBe(expected)
      expect(recordMatches(interests, createWitnessRequest(stranger, memory.id, [own]).signed.record, facts)).toBe(expected)
    }
    // The witness's own shard does not matter: an attestation by the node's own agent of an unwanted memory does not match.
    expect(recordMatches(interests, createAttestation(own, unwanted.id).signed.record, memoryFacts(unwanted.signed.record))).toBe(false)
    // A record whose memory the server does not hold matches nothing: nothing says whose it is.
    expect(recordMatches(interests, createAttestation(own, wanted.id).signed.record, null)).toBe(false)
  })

  it('groups interests by the cursor each reached, a new one from 0, lowest first', () => {
    const saved = new Map([[`shard:${COUNT}:${home}`, 120], [`author:${followed.did}`, 120]])
    const groups = groupByCursor(interests, (key) => saved.get(key) ?? null)
    expect(groups).toEqual([
      { cursor: 0, interests: { shards: { count: COUNT, indexes: [] }, authors: [], tags: ['rust'] }, keys: ['tag:rust'] },
      { cursor: 120, interests: { shards: { count: COUNT, indexes: [home] }, authors: [followed.did], tags: [] }, keys: [`shard:${COUNT}:${home}`, `author:${followed.did}`] }
    ])
    expect(interestKeys(interests)).toEqual([`shard:${COUNT}:${home}`, `author:${followed.did}`, 'tag:rust'])
    // A changed count is a new interest: its shard starts from the beginning.
    const doubled = groupByCursor({ ...interests, shards: { count: 2 * COUNT, indexes: [0] } }, (key) => saved.get(key) ?? null)
    expect(doubled.find((g) => g.cursor === 0)?.keys).toContain(`shard:${2 * COUNT}:0`)
  })

  it('refuses interests that are not a request\'s: a count that is no shard count, an index past it, repeats, bad names', () => {
    const ok = SyncInterestsSchema.safeParse(interests)
    expect(ok.success).toBe(true)
    const refused = [
      { ...interests, shards: { count: 3, indexes: [0] } },
      { ...interests, shards: { count: COUNT, indexes: [COUNT] } },
      { ...interests, shards: { count: COUNT, indexes: [1, 1] } },
      { ...interests, authors: [followed.did, followed.did] },
      { ...interests, authors: ['not a did'] },
      { ...interests, tags: ['two words'] },
      { ...interests, tags: Array.from({ length: 1025 }, (_, i) => `t${i}`) },
      { ...interests, extra: 1 }
    ]
    for (const value of refused) expect(SyncInterestsSchema.safeParse(value).success).toBe(false)
  })
})
