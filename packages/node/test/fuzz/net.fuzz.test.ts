import type { MessageStream } from '@libp2p/interface'
import { StreamMessageEvent } from '@libp2p/interface'
import fc from 'fast-check'
import * as lp from 'it-length-prefixed'
import { describe, expect, it } from 'vitest'
import { nodeCryptoVerifier } from '../../src/fast-crypto/index.js'
import { Keyring, encodeKeyLog } from '../../src/key-events/index.js'
import { createCheckpoint, hashLeaf, signCheckpoint } from '../../src/merkle/index.js'
import {
  ALL_TOPICS, FetchRequestSchema, GossipValidator, MAX_FETCH_REQUEST_BYTES, MAX_SYNC_CONTROL_BYTES, RecordGate, SyncHeaderSchema,
  SyncRequestSchema, TOPICS, encodeWitnessEnvelope, type Topic
} from '../../src/net/index.js'
import { FrameReader } from '../../src/net/wire/frames.js'
import { decodeWire } from '../../src/net/wire/wire-messages.js'
import { encodeCanonical, encodeSignedRecord } from '../../src/record/index.js'
import { createAgent, createAttestation, createMemory, createWitnessRequest } from '../fixtures/records.js'
import { MemoryHost } from '../integration/net/fixtures/memory-host.js'
import { KEY_NOW, KEY_VECTORS } from '../unit/key-events/vectors.js'
import { HOSTILE_CBOR, fuzzParams, mutation, refuses, sameBytes } from './fuzz.js'

/** gossip-v1 §3–§5, §9, fetch-v1 §2, sync-v1 §2: what a peer can send this node, random and mutated. */
const NOW = Math.max(Date.parse('2026-02-06T00:00:00Z'), KEY_NOW)

async function validator (): Promise<GossipValidator> {
  const host = new MemoryHost()
  const keyring = await Keyring.open({ verifier: nodeCryptoVerifier, clock: () => NOW })
  return new GossipValidator({
    gate: new RecordGate({ host, verifier: nodeCryptoVerifier, clock: () => NOW }),
    host,
    verifier: nodeCryptoVerifier,
    clock: () => NOW,
    keyring: () => keyring
  })
}

const author = createAgent(1)
const witness = createAgent(2)
const memory = createMemory(author)
const log = createAgent(9)
/** A valid message for every topic: what mutations start from. */
const VALID_MESSAGES: Array<{ topic: Topic, data: Uint8Array }> = [
  { topic: TOPICS.memories, data: encodeSignedRecord(memory.signed) },
  { topic: TOPICS.attestations, data: encodeSignedRecord(createAttestation(witness, memory.id).signed) },
  { topic: TOPICS.witnessRequests, data: encodeWitnessEnvelope(encodeSignedRecord(createWitnessRequest(author, memory.id).signed), encodeSignedRecord(memory.signed)) },
  { topic: TOPICS.checkpoints, data: encodeCanonical(signCheckpoint(createCheckpoint({ log: log.did, size: 1, root: hashLeaf(Uint8Array.of(1)), createdAt: new Date(NOW - 1000).toISOString() }), log.secretKey).signed) },
  { topic: TOPICS.keyEvents, data: encodeKeyLog({ events: KEY_VECTORS.logs[0]?.events ?? [] }) }
]

describe('fuzz: gossip validators (gossip-v1 §3–§5, §9)', () => {
  it('every valid message is accepted by a fresh validator (the mutations below start from accepted input)', async () => {
    for (const { topic, data } of VALID_MESSAGES) {
      expect((await (await validator()).validate(topic, data, 'peer')).result, topic).toBe('accept')
    }
  })

  it('random bytes on any topic are never accepted, and never throw', async () => {
    const v = await validator()
    await fc.assert(fc.asyncProperty(fc.constantFrom(...ALL_TOPICS), fc.uint8Array({ maxLength: 512 }), async (topic, data) => {
      expect((await v.validate(topic, data, 'peer')).result).not.toBe('accept')
    }), fuzzParams(500))
  })

  it('a mutated valid message is never accepted', async () => {
    await fc.assert(fc.asyncProperty(fc.constantFrom(...VALID_MESSAGES), mutation, async ({ topic, data }, mutate) => {
      const mutated = mutate(data)
      if (sameBytes(mutated, data)) return
      // A fresh validator each time: nothing was seen or stored, so only the bytes decide.
      expect((await (await validator()).validate(topic, mutated, 'peer')).result, topic).not.toBe('accept')
    }), fuzzParams(300))
  })

  it('hostile CBOR on every topic is refused without a crash', async () => {
    const v = await validator()
    for (const topic of ALL_TOPICS) {
      for (const { name, bytes } of HOSTILE_CBOR) expect((await v.validate(topic, bytes, 'p')).result, `${topic}: ${name}`).not.toBe('accept')
    }
  })
})

describe('fuzz: fetch and sync frames (fetch-v1 §2, sync-v1 §2)', () => {
  const decoders = [
    (b: Uint8Array) => decodeWire(b, FetchRequestSchema, 'fetch request', MAX_FETCH_REQUEST_BYTES),
    (b: Uint8Array) => decodeWire(b, SyncRequestSchema, 'sync request', MAX_SYNC_CONTROL_BYTES),
    (b: Uint8Array) => decodeWire(b, SyncHeaderSchema, 'sync header', MAX_SYNC_CONTROL_BYTES)
  ]

  it('random bytes are refused with an IsnadError by every control-frame decoder', () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
      for (const decode of decoders) {
        try {
          decode(bytes)
        } catch (err) {
          expect(err).toHaveProperty('code')
        }
      }
    }), fuzzParams(500))
    for (const { bytes } of HOSTILE_CBOR) for (const decode of decoders) expect(refuses(() => decode(bytes))).toBe(true)
  })

  class FakeStream extends EventTarget {
    readableEnded = false
    deliver (bytes: Uint8Array): void { this.dispatchEvent(new StreamMessageEvent(bytes)) }
    end (): void { this.readableEnded = true; this.dispatchEvent(new Event('end')) }
  }

  it('a length-prefixed stream of random chunks yields frames within the limit or an IsnadError, and ends', async () => {
    const limit = 64
    await fc.assert(fc.asyncProperty(fc.array(fc.uint8Array({ maxLength: 40 }), { maxLength: 8 }), async (chunks) => {
      const stream = new FakeStream()
      const reader = new FrameReader(stream as unknown as MessageStream, limit, new AbortController().signal)
      for (const chunk of chunks) stream.deliver(chunk)
      stream.end()
      for (let i = 0; i < 400; i++) {
        let frame: Uint8Array | null
        try {
          frame = await reader.next(limit)
        } catch (err) {
          expect(err).toHaveProperty('code')
          return
        }
        if (frame === null) return
        expect(frame.length).toBeLessThanOrEqual(limit)
      }
      throw new Error('the reader never reached the end of a finite stream')
    }), fuzzParams(300))
  })

  it('valid frames cut anywhere never yield a frame that was not sent', async () => {
    await fc.assert(fc.asyncProperty(fc.array(fc.uint8Array({ minLength: 1, maxLength: 30 }), { minLength: 1, maxLength: 4 }), fc.nat(), async (payloads, cut) => {
      const all = Uint8Array.from(payloads.flatMap((p) => [...lp.encode.single(p).subarray()]))
      const stream = new FakeStream()
      const reader = new FrameReader(stream as unknown as MessageStream, 64, new AbortController().signal)
      stream.deliver(all.subarray(0, cut % (all.length + 1)))
      stream.end()
      for (const payload of payloads) {
        let frame: Uint8Array | null
        try {
          frame = await reader.next(64)
        } catch (err) {
          expect(err).toHaveProperty('code', 'DECODE_FAILED')
          return
        }
        if (frame === null) return
        expect(sameBytes(frame, payload)).toBe(true)
      }
    }), fuzzParams(300))
  })
})
