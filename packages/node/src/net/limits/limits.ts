import type { Connection, Stream } from '@libp2p/interface'

/*
 * Resource limits of the network layer (docs/limits.md): how many connections and streams a peer
 * may hold, how many requests it may make, and how much a gossip RPC may carry. Every limit is
 * named here with its default; docs/limits.md lists them with the attack each one answers.
 */

/**
 * libp2p connection manager (libp2p 3 `connectionManager`). Past `maxConnections` the pruner closes
 * the connections of least value first (peer tags, then fewest streams, inbound before outbound),
 * so peers this node dialled and peers that delivered valid records outlast a crowd of strangers.
 */
export const CONNECTION_LIMITS = {
  /** @default 10 — connections being upgraded (Noise, Yamux) at the same time. */
  maxIncomingPendingConnections: 10,
  /** @default 5 — new inbound connections per second from one host; more are refused. */
  inboundConnectionThreshold: 5,
  /** @default 50 — dials this node runs at once. */
  maxParallelDials: 50,
  /** @default 200 — dials waiting in the queue. */
  maxDialQueueLength: 200
} as const

/** gossipsub's own bounds (`@libp2p/gossipsub` options): streams, send buffers, one RPC's contents. */
export const GOSSIP_RESOURCE_LIMITS = {
  /** @default 2 — inbound gossipsub streams per connection (one is all a peer needs). */
  maxInboundStreams: 2,
  /** @default 2 */
  maxOutboundStreams: 2,
  /** @default 8388608 — bytes queued to one slow peer before sends to it fail (8 MiB: 31 full messages). */
  maxOutboundBufferSize: 8 * 1024 * 1024,
  /** @default 65536 — a peer's subscription bookkeeping: isnad has six topics. */
  maxTopicBytesPerPeer: 64 * 1024,
  /** What one RPC may hold; larger RPCs are refused while decoding, before anything is kept. */
  decodeRpcLimits: {
    /** @default 64 */
    maxSubscriptions: 64,
    /** @default 512 */
    maxMessages: 512,
    /** @default 1000 — message ids in one IHAVE (gossipsub still caps ids per heartbeat at 5000). */
    maxIhaveMessageIDs: 1000,
    /** @default 1000 */
    maxIwantMessageIDs: 1000,
    /** @default 512 */
    maxIdontwantMessageIDs: 512,
    /** @default 64 — IHAVE, IWANT, GRAFT, PRUNE, IDONTWANT entries of one RPC. */
    maxControlMessages: 64,
    /** @default 16 */
    maxPeerInfos: 16
  }
} as const

/** Per-peer request rates of the request/response protocols (fetch-v1, sync-v1). */
export const PROTOCOL_RATE_LIMITS = {
  /** @default 100 — fetch requests per second per peer, sustained (each asks for up to 64 records). */
  fetchPerSecond: 100,
  /** @default 200 — fetch requests a peer may make in one burst. */
  fetchBurst: 200,
  /** @default 50 — sync pages per second per peer, sustained: a late joiner pulls 12800 records a second. */
  syncPerSecond: 50,
  /** @default 200 */
  syncBurst: 200,
  /** @default 10 — application penalty per refused stream: a peer hammering at 10× the rate is disconnected within seconds. */
  penalty: 10
} as const

/** @default 4096 — peers (or clients) whose buckets are remembered; the least recently seen is forgotten. */
export const MAX_RATE_LIMITED_KEYS = 4096

/**
 * Token buckets per key (a peer id, a client address): `ratePerSecond` tokens flow in, at most
 * `burst` are kept; each request takes one. Bounded by MAX_RATE_LIMITED_KEYS keys: a peer
 * forgotten starts again with a full bucket, which costs an attacker a new identity per burst.
 */
export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number, at: number }>()

  constructor (
    private readonly ratePerSecond: number,
    private readonly burst: number,
    private readonly clock: () => number = Date.now,
    private readonly maxKeys = MAX_RATE_LIMITED_KEYS
  ) {}

  /** Takes a token for `key`: true when the request may go ahead. */
  take (key: string): boolean {
    const now = this.clock()
    const bucket = this.buckets.get(key)
    const tokens = bucket === undefined
      ? this.burst
      : Math.min(this.burst, bucket.tokens + (now - bucket.at) * this.ratePerSecond / 1000)
    if (bucket !== undefined) this.buckets.delete(key) // re-inserted below: the map stays in recency order
    else if (this.buckets.size >= this.maxKeys) {
      const oldest = this.buckets.keys().next()
      if (oldest.done !== true) this.buckets.delete(oldest.value)
    }
    const allowed = tokens >= 1
    this.buckets.set(key, { tokens: allowed ? tokens - 1 : tokens, at: now })
    return allowed
  }

  /** Seconds until `key` has a token again (for Retry-After). */
  retryAfterSeconds (key: string): number {
    const bucket = this.buckets.get(key)
    if (bucket === undefined || bucket.tokens >= 1) return 0
    return Math.ceil((1 - bucket.tokens) * 1000 / this.ratePerSecond / 1000)
  }

  get size (): number {
    return this.buckets.size
  }
}

type StreamHandler = (stream: Stream, connection: Connection) => void | Promise<void>

/**
 * A protocol handler behind a per-peer rate limit: a stream over the limit is reset unread and
 * `onLimited` is told (the network penalises the peer, fetch-v1 §5, sync-v1 §6).
 */
export function rateLimitedHandler (handler: StreamHandler, limiter: RateLimiter, onLimited: (connection: Connection) => void): StreamHandler {
  return async (stream, connection) => {
    if (!limiter.take(connection.remotePeer.toString())) {
      stream.abort(new Error('rate limited'))
      onLimited(connection)
      return
    }
    await handler(stream, connection)
  }
}
