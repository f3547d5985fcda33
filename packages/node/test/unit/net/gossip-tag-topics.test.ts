import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex } from '@noble/hashes/utils.js'
import { describe, expect, it } from 'vitest'
import { GossipValidator, RecordGate } from '../../../src/net/index.js'
import { isGossipTopic } from '../../../src/net/gossip/index.js'
import { MAX_TAG_TOPICS, MAX_TAG_TOPICS_PER_MEMORY, followedTagTopics, parseTagTopic, publishedTags, tagHash, tagTopic } from '../../../src/net/gossip/tag-topics.js'
import { encodeSignedRecord as bytes } from '../../../src/record/index.js'
import { createAgent, createMemory } from '../../fixtures/records.js'
import { CountingVerifier } from '../../integration/net/fixtures/counting-verifier.js'
import { MemoryHost } from '../../integration/net/fixtures/memory-host.js'
import { verified } from '../../integration/net/fixtures/harness.js'

const NOW = Date.parse('2026-02-06T00:00:00Z')

function setup (): { validator: GossipValidator, host: MemoryHost } {
  const host = new MemoryHost()
  const verifier = new CountingVerifier()
  const validator = new GossipValidator({ gate: new RecordGate({ host, verifier, clock: () => NOW }), host, verifier, clock: () => NOW })
  return { validator, host }
}

describe('tag topics (gossip-v1 §11.9)', () => {
  it('names a tag by the first 16 bytes of its domain-separated SHA-256, and parses only that spelling', () => {
    const expected = bytesToHex(sha256(new TextEncoder().encode('isnad/tag/v1\0deploys'))).slice(0, 32)
    expect(tagHash('deploys')).toBe(expected)
    expect(tagTopic('deploys')).toBe(`isnad/v1/tags/${expected}/memories`)
    expect(parseTagTopic(tagTopic('deploys'))).toBe(expected)
    expect(isGossipTopic(tagTopic('ünïcode-tag'))).toBe(true)
    for (const bad of [`isnad/v1/tags/${expected.toUpperCase()}/memories`, `isnad/v1/tags/${expected}0/memories`, `isnad/v1/tags/${expected}/attestations`, 'isnad/v1/tags/deploys/memories']) {
      expect(parseTagTopic(bad), bad).toBeUndefined()
      expect(isGossipTopic(bad), bad).toBe(false)
    }
  })

  it('publishes a memory under its first 4 distinct tags, and subscribes a node to its first 64 followed tags', () => {
    expect(publishedTags(['a', 'b', 'a', 'c', 'd', 'e'])).toEqual(['a', 'b', 'c', 'd'])
    expect(MAX_TAG_TOPICS_PER_MEMORY).toBe(4)
    const many = Array.from({ length: MAX_TAG_TOPICS + 10 }, (_, i) => `tag-${i}`)
    expect(followedTagTopics(many)).toEqual(many.slice(0, MAX_TAG_TOPICS).map(tagTopic))
  })

  it('accepts a memory on the topic of one of its first 4 tags, rejects it on another tag\'s (R17), ignores one already stored', async () => {
    const memory = createMemory(createAgent(3), { tags: ['one', 'two', 'three', 'four', 'five'] })
    expect(await setup().validator.validate(tagTopic('two'), bytes(memory.signed), 'p')).toMatchObject({ result: 'accept', records: [{ id: memory.id }] })
    expect(await setup().validator.validate(tagTopic('five'), bytes(memory.signed), 'p')).toMatchObject({ result: 'reject', reason: expect.stringMatching(/no tag among its first 4/) })
    expect(await setup().validator.validate(tagTopic('unrelated'), bytes(memory.signed), 'p')).toMatchObject({ result: 'reject' })
    const stored = setup()
    stored.host.putLocal(verified(memory.signed))
    expect(await stored.validator.validate(tagTopic('one'), bytes(memory.signed), 'p')).toMatchObject({ result: 'ignore' })
  })
})
