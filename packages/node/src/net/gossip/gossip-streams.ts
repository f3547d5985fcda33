import type { PeerId } from '@libp2p/interface'

/*
 * gossip-v1 G3: what happens when a peer's gossipsub stream fails. gossipsub reads each peer's
 * inbound stream as length-prefixed RPC frames; a frame longer than `maxInboundDataLength`, or any
 * other read error, ends that stream, and gossipsub drops the peer from its router — but leaves the
 * connection open. The peer then stays connected and is never heard again (docs/threat-model.md, "Local API"). This
 * module is told of every such failure, so the network can penalise a protocol violation and close
 * the connection: the peer sees it closed and may dial again with a fresh stream.
 */

/** The errors it-length-prefixed throws for a frame whose length breaks the limit (gossip-v1 G3). */
const FRAME_VIOLATIONS = new Set(['InvalidDataLengthError', 'InvalidDataLengthLengthError', 'InvalidMessageLengthError'])

/** Whether a read error is the peer's fault: a frame over the limit or a malformed length prefix. */
export function isFrameViolation (err: unknown): boolean {
  return err instanceof Error && FRAME_VIOLATIONS.has(err.name)
}

/** gossipsub's own handler of a failed inbound stream (GossipSub#handlePeerReadStreamError). */
interface ReadErrorHandler { handlePeerReadStreamError: (err: unknown, peerId: PeerId) => void }

function hasReadErrorHandler (value: unknown): value is ReadErrorHandler {
  return typeof (value as Partial<ReadErrorHandler> | null)?.handlePeerReadStreamError === 'function'
}

/**
 * Calls `onError` after gossipsub has handled a failed inbound stream of `peer`. gossipsub exposes
 * the handler as a method for this purpose (its comment: "to spy on the error handling"); the
 * instance's own property shadows the prototype's, and the returned function removes it.
 */
export function watchGossipReadErrors (pubsub: unknown, onError: (peer: PeerId, err: unknown) => void): () => void {
  if (!hasReadErrorHandler(pubsub)) throw new Error('this gossipsub has no handlePeerReadStreamError: the G3 hook cannot be installed')
  const original = pubsub.handlePeerReadStreamError
  const target = pubsub as unknown as Record<string, unknown>
  target.handlePeerReadStreamError = (err: unknown, peerId: PeerId): void => {
    original.call(pubsub, err, peerId)
    onError(peerId, err)
  }
  return () => { delete target.handlePeerReadStreamError }
}
