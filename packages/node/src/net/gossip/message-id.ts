import { createHash } from 'node:crypto'
import type { Message } from '@libp2p/gossipsub'
import type { RPC } from '@libp2p/gossipsub/message'

/*
 * gossip-v1 §3: the message id is SHA-256 over the topic, a NUL byte and the payload. Payloads
 * carry their own signatures, so gossipsub runs StrictNoSign and the id depends on nothing but
 * what a peer forwards. The topic is hashed in so that bytes published on the wrong topic (and
 * rejected there) cannot occupy the seen cache of the right one and censor the real message.
 */

const SEPARATOR = Uint8Array.of(0)
const EMPTY = new Uint8Array(0)

/** Per payload buffer: the topic it was hashed with and its id, so one message is hashed once. */
const computed = new WeakMap<Uint8Array, { topic: string, id: Uint8Array }>()

export function messageIdOf (topic: string, data: Uint8Array): Uint8Array {
  const cached = computed.get(data)
  if (cached !== undefined && cached.topic === topic) return cached.id
  const digest = createHash('sha256').update(topic, 'utf8').update(SEPARATOR).update(data).digest()
  const id = new Uint8Array(digest.buffer, digest.byteOffset, digest.byteLength)
  computed.set(data, { topic, id })
  return id
}

export function messageIdToString (id: Uint8Array): string {
  return Buffer.from(id.buffer, id.byteOffset, id.byteLength).toString('base64')
}

/** gossipsub `msgIdFn`: on the validated message. */
export function msgIdFn (message: Message): Uint8Array {
  return messageIdOf(message.topic, message.data)
}

/**
 * gossipsub `fastMsgIdFn`: on the raw RPC message, before gossipsub's own checks and before any
 * validator, so a duplicate is dropped at the cost of one hash. It is the message id itself: a
 * cheaper non-cryptographic hash could be made to collide with a message not yet seen, and a
 * collision makes gossipsub drop the real message as a duplicate. The digest is cached on the
 * payload buffer, which gossipsub hands on to msgIdFn, so the hash is computed once per message.
 */
export function fastMsgIdFn (message: RPC.Message): string {
  return messageIdToString(messageIdOf(message.topic, message.data ?? EMPTY))
}
