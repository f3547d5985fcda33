import type { Connection, Logger, Stream, StreamHandler, StreamHandlerOptions } from '@libp2p/interface'
import { PING_PROTOCOL } from '@libp2p/ping'
import { byteStream } from '@libp2p/utils'
import { randomBytes } from 'node:crypto'
import { sameBytes } from '../../fast-crypto/index.js'

/*
 * Liveness pings of every open connection, spread over the interval. libp2p's own connection monitor
 * pings all of a node's connections in the same tick of one timer; each ping is a new stream
 * (multistream-select, 32 bytes each way, a close), about a millisecond of CPU per end. Nodes that
 * started together tick together, so every interval a burst of all their pings landed at once: in
 * the 100-node gossip benchmark, a stall of 400–800 ms every 10 s that the messages published in it
 * waited out (their p99 was those messages). Here each connection is pinged at its own phase, chosen
 * at random the first time it is seen, then once per interval; the ping itself is the same
 * /ipfs/ping/1.0.0 exchange, answered here as libp2p's ping service answers it.
 *
 * One ping per connection per interval, not one from each end: a connection whose peer pinged this
 * node within the last interval is not pinged by it when its own turn comes (the peer's ping showed
 * the peer alive and its writes arriving). Whichever end's turn comes first pings; the other end
 * pings only when the peer's pings stop, so a dead peer is still found, within two intervals rather
 * than one. Pings were about half of an idle daemon's CPU (16 daemons on 127.0.0.1, 15 peers each:
 * 27 ms/s with them, 12 with one a minute) and grow with the peers; this halves them.
 */

/** The ping protocol's payload: 32 bytes, echoed. */
const PING_BYTES = 32

/**
 * How the node pings every connection. A real operator may lengthen the interval or keep
 * connections whose pings time out (TCP still reports peers that go away); the in-process
 * simulation does both, because there a ping's round trip measures the shared event loop, not a link.
 */
export interface ConnectionMonitorSettings {
  pingIntervalMs: number
  abortOnPingFailure: boolean
}

/** libp2p's connection monitor's defaults: a ping every 10 s, and a failed ping closes the connection. */
export const DEFAULT_CONNECTION_MONITOR: ConnectionMonitorSettings = { pingIntervalMs: 10_000, abortOnPingFailure: true }
/** @default 20 — timer ticks per interval: each pings the connections whose time has come. */
const TICKS_PER_INTERVAL = 20
/** @default 10000 — a ping not answered in this time failed (at most the interval). */
const PING_TIMEOUT_MS = 10_000
/** @default 1000 — a tick of the ping timer this much later than due: the node's own event loop stalled. */
export const LOOP_STALL_MS = 1000
/** @default 3 — failed pings in a row a connection is excused by its own node's stalls; the next closes it anyway. */
export const MAX_EXCUSED_PING_FAILURES = 3

/*
 * A ping that failed while this node's own event loop stalled says nothing of the link: the echo may
 * have sat unread in the socket while the loop was busy, and the ping's timeout fires before the
 * echo is read (libuv runs timers before it polls for I/O). Closing the connection then is a storm on
 * a loaded machine: 32 daemons on one event loop lagging 2–9 s closed 1,593 connections in 23 min,
 * and each was redialled, handshaken and synced again, which loaded the loop further. So a failed
 * ping is judged at the next tick of the ping timer, once the lateness of the ticks over its wait is
 * known: when a tick during it came LOOP_STALL_MS or more late, the failure is excused (the next ping
 * tries again), up to MAX_EXCUSED_PING_FAILURES in a row; then, or with no stall, it closes the
 * connection as before.
 */

/** The stalls of the node's event loop, as the lateness of a periodic timer shows them. */
export class LoopStalls {
  private last: number | undefined
  private lastStallEnd = -Infinity

  constructor (private readonly periodMs: number, private readonly stallMs = LOOP_STALL_MS) {}

  /** A tick of the timer at `now`. */
  tick (now: number): void {
    if (this.last !== undefined && now - this.last - this.periodMs >= this.stallMs) this.lastStallEnd = now
    this.last = now
  }

  /** Whether a stall ended after `since` (and at or before the last tick). */
  stalledSince (since: number): boolean {
    return this.lastStallEnd > since
  }
}

/** When each connection is next pinged: first at a random point of its first interval, then once per interval. */
export class PingSchedule {
  private readonly due = new Map<string, number>()

  constructor (private readonly intervalMs: number, private readonly random: () => number = Math.random) {}

  /** The ids of `open` connections whose ping is due at `now`; connections no longer open are forgotten. */
  take (open: readonly string[], now: number): string[] {
    if (this.due.size > open.length) {
      const current = new Set(open)
      for (const id of this.due.keys()) if (!current.has(id)) this.due.delete(id)
    }
    const ready: string[] = []
    for (const id of open) {
      const at = this.due.get(id)
      if (at === undefined) {
        this.due.set(id, now + this.random() * this.intervalMs)
      } else if (at <= now) {
        ready.push(id)
        // After a stall, the next ping is a whole interval away rather than all of them at once.
        this.due.set(id, at + this.intervalMs > now ? at + this.intervalMs : now + this.intervalMs)
      }
    }
    return ready
  }
}

export interface PingTarget {
  getConnections: () => Connection[]
  /**
   * Where the pings a peer opens are answered: this handler replaces the ping service's (it echoes
   * the same way, and notes the peer's ping). Without them every connection is pinged from this end.
   * (libp2p's stream middleware cannot do it: it adds the handler to its list on every inbound stream.)
   */
  handle?: (protocol: string, handler: StreamHandler, options?: StreamHandlerOptions) => Promise<void>
  unhandle?: (protocol: string) => Promise<void>
}

/** The ping protocol's limits on a connection, as libp2p's ping service sets them (at most 2 inbound, 1 outbound). */
const PING_STREAM_LIMITS: StreamHandlerOptions = { maxInboundStreams: 2, maxOutboundStreams: 1, runOnLimitedConnection: true }

/**
 * Answers one ping stream as libp2p's ping service does: every byte echoed until the peer closes
 * its end; a stream idle for PING_TIMEOUT_MS is aborted, so it cannot hold one of the two places.
 */
function echoPings (stream: Stream): void {
  const abortIdle = (): void => { stream.abort(new Error('ping stream idle')) }
  let idle = setTimeout(abortIdle, PING_TIMEOUT_MS)
  stream.addEventListener('message', (event) => {
    clearTimeout(idle)
    idle = setTimeout(abortIdle, PING_TIMEOUT_MS)
    stream.send(event.data)
  })
  stream.addEventListener('remoteCloseWrite', () => { void stream.close().catch(() => {}) })
  stream.addEventListener('close', () => { clearTimeout(idle) })
}

/** The pings of one node; replaces libp2p's connection monitor (disabled in libp2p-node.ts). */
export class ConnectionPings {
  private readonly schedule: PingSchedule
  private readonly controller = new AbortController()
  /** Connections (ids) whose ping has not ended yet. */
  private readonly inFlight = new Set<string>()
  private timer: NodeJS.Timeout | undefined
  private readonly tickMs: number
  private readonly stalls: LoopStalls
  /** Failed pings waiting for the next tick's judgement. */
  private failed: Array<{ connection: Connection, started: number, err: Error }> = []
  /** Failures excused in a row, by connection id (a ping answered clears it). */
  private readonly excused = new Map<string, number>()
  /** When the peer last opened a ping stream on the connection (Date.now()), by connection id. */
  private readonly pingedByPeer = new Map<string, number>()
  /** Pings this node opened since it started. */
  sent = 0

  constructor (private readonly node: PingTarget, private readonly settings: ConnectionMonitorSettings, private readonly log: Logger) {
    this.schedule = new PingSchedule(settings.pingIntervalMs)
    this.tickMs = Math.max(1, Math.floor(settings.pingIntervalMs / TICKS_PER_INTERVAL))
    this.stalls = new LoopStalls(this.tickMs)
  }

  async start (): Promise<void> {
    const { handle, unhandle } = this.node
    if (handle !== undefined && unhandle !== undefined) {
      await unhandle.call(this.node, PING_PROTOCOL)
      await handle.call(this.node, PING_PROTOCOL, (stream, connection) => {
        this.pingedByPeer.set(connection.id, Date.now())
        echoPings(stream)
      }, PING_STREAM_LIMITS)
    }
    this.timer = setInterval(() => { this.tick() }, this.tickMs)
    this.timer.unref()
  }

  stop (): void {
    clearInterval(this.timer)
    this.controller.abort()
  }

  private tick (): void {
    this.stalls.tick(performance.now())
    this.judgeFailures()
    const connections = this.node.getConnections().filter((c) => c.status === 'open')
    if (this.excused.size > connections.length || this.pingedByPeer.size > connections.length) {
      const open = new Set(connections.map((c) => c.id))
      for (const id of this.excused.keys()) if (!open.has(id)) this.excused.delete(id)
      for (const id of this.pingedByPeer.keys()) if (!open.has(id)) this.pingedByPeer.delete(id)
    }
    const now = Date.now()
    const due = new Set(this.schedule.take(connections.map((c) => c.id), now))
    for (const connection of connections) {
      // One ping at a time per connection: a second would be refused by this node's own limit on
      // ping streams (TooManyOutboundProtocolStreamsError), which says nothing of the peer.
      if (!due.has(connection.id) || this.inFlight.has(connection.id)) continue
      if (now - (this.pingedByPeer.get(connection.id) ?? -Infinity) < this.settings.pingIntervalMs) continue // the peer's ping this interval did
      this.sent++
      this.inFlight.add(connection.id)
      const started = performance.now()
      this.ping(connection).then(() => { this.excused.delete(connection.id) }, (err: unknown) => {
        // A peer without the ping protocol still answered multistream-select: the link is alive.
        if (this.controller.signal.aborted || (err instanceof Error && err.name === 'UnsupportedProtocolError')) return
        this.failed.push({ connection, started, err: err instanceof Error ? err : new Error(String(err)) })
      }).finally(() => { this.inFlight.delete(connection.id) })
    }
  }

  /** The failed pings since the last tick: excused when the loop stalled during their wait, else the connection closes. */
  private judgeFailures (): void {
    const failed = this.failed
    this.failed = []
    for (const { connection, started, err } of failed) {
      const excused = this.excused.get(connection.id) ?? 0
      if (this.stalls.stalledSince(started) && excused < MAX_EXCUSED_PING_FAILURES) {
        this.excused.set(connection.id, excused + 1)
        this.log('ping of %p failed while this node\'s event loop stalled (excused, %d in a row): %e', connection.remotePeer, excused + 1, err)
        continue
      }
      this.excused.delete(connection.id)
      this.log.error('ping of %p failed: %e', connection.remotePeer, err)
      if (this.settings.abortOnPingFailure) connection.abort(err)
    }
  }

  /** One ping: 32 random bytes out, the same 32 back; the round trip becomes the connection's rtt. */
  private async ping (connection: Connection): Promise<void> {
    const signal = AbortSignal.any([this.controller.signal, AbortSignal.timeout(Math.min(PING_TIMEOUT_MS, this.settings.pingIntervalMs))])
    const stream = await connection.newStream(PING_PROTOCOL, { signal, runOnLimitedConnection: true })
    try {
      const bytes = byteStream(stream)
      const sent = randomBytes(PING_BYTES)
      const start = performance.now()
      const [, echo] = await Promise.all([bytes.write(sent, { signal }), bytes.read({ bytes: PING_BYTES, signal })])
      if (!sameBytes(echo.subarray(), sent)) throw new Error('ping answered with other bytes')
      connection.rtt = performance.now() - start
    } catch (err) {
      stream.abort(err instanceof Error ? err : new Error(String(err)))
      throw err
    }
    // The echo came back: the link is alive, whether or not the peer closes its end in time.
    await closeOrAbort(stream, signal)
  }
}

/**
 * Closes a ping stream whose echo came back and waits for the peer's end too: a stream the peer
 * leaves open still counts against this node's one outbound ping stream per connection, and the
 * next ping would be refused. Past the signal it is aborted, which frees that place.
 */
async function closeOrAbort (stream: Stream, signal: AbortSignal): Promise<void> {
  try {
    await stream.close({ signal })
    if (stream.status === 'open' || stream.status === 'closing') {
      await new Promise<void>((resolve, reject) => {
        const onAbort = (): void => { reject(signal.reason) }
        if (signal.aborted) { onAbort(); return }
        stream.addEventListener('close', () => { signal.removeEventListener('abort', onAbort); resolve() }, { once: true })
        signal.addEventListener('abort', onAbort, { once: true })
      })
    }
  } catch (err) {
    stream.abort(err instanceof Error ? err : new Error(String(err)))
  }
}
