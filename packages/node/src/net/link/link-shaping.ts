import type { AbortOptions, MultiaddrConnection, StreamCloseEvent, StreamMessageEvent, Transport, Upgrader } from '@libp2p/interface'
import { AbstractMultiaddrConnection, type SendResult } from '@libp2p/utils'
import { performance } from 'node:perf_hooks'
import type { Uint8ArrayList } from 'uint8arraylist'
import { createLinkSchedule, type LinkConditions, type LinkSchedule } from './link-conditions.js'

/*
 * Link shaping in userland (docs/simulation.md, "Latency and loss"): a libp2p transport wrapper
 * whose raw connections (below Noise and Yamux) hold every written chunk until link-conditions.ts
 * says it arrives. Both ends of a link delay what they send, as tc netem on each host would, so a
 * round trip gains 2 × latency; a lost segment shows up as a retransmission delay, never as missing
 * or corrupt bytes. Only libp2p connections go through it: the HTTP API is a separate server.
 */

type TransportFactory<C> = (components: C) => Transport

/** Wraps a transport factory (tcp(), webSockets()) so every connection it makes or accepts is shaped. */
export function shapedTransport<C> (factory: TransportFactory<C>, conditions: LinkConditions): TransportFactory<C> {
  return (components) => {
    const inner = factory(components)
    let streams = 0
    // Each direction of each connection draws from its own random stream of the seed.
    const shape = (conn: MultiaddrConnection): MultiaddrConnection => new ShapedConnection(conn, createLinkSchedule(conditions, streams++))
    const upgraderOf = (upgrader: Upgrader): Upgrader => Object.assign(Object.create(upgrader) as Upgrader, {
      upgradeInbound: async (conn: MultiaddrConnection, opts: Parameters<Upgrader['upgradeInbound']>[1]) => { await upgrader.upgradeInbound(shape(conn), opts) },
      upgradeOutbound: async (conn: MultiaddrConnection, opts: Parameters<Upgrader['upgradeOutbound']>[1]) => await upgrader.upgradeOutbound(shape(conn), opts)
    })
    // Everything else (filters, capabilities, start/stop) is the inner transport's own.
    return new Proxy(inner, {
      get (target, property) {
        if (property === 'dial') return async (ma: Parameters<Transport['dial']>[0], options: Parameters<Transport['dial']>[1]) => await target.dial(ma, { ...options, upgrader: upgraderOf(options.upgrader) })
        if (property === 'createListener') return (options: Parameters<Transport['createListener']>[0]) => target.createListener({ ...options, upgrader: upgraderOf(options.upgrader) })
        const value: unknown = Reflect.get(target, property, target)
        return typeof value === 'function' ? value.bind(target) : value
      }
    })
  }
}

interface Held { at: number, data: Uint8Array }

/** A raw connection whose writes reach the inner connection when their link schedule releases them. */
class ShapedConnection extends AbstractMultiaddrConnection {
  private readonly held: Held[] = []
  private timer: NodeJS.Timeout | undefined
  /** Resolved when nothing is held any more (graceful close). */
  private emptied: { promise: Promise<void>, resolve: () => void } | undefined

  constructor (private readonly inner: MultiaddrConnection, private readonly schedule: LinkSchedule) {
    super({ remoteAddr: inner.remoteAddr, direction: inner.direction, log: inner.log, inactivityTimeout: inner.inactivityTimeout, maxReadBufferLength: inner.maxReadBufferLength })
    inner.addEventListener('message', (event: StreamMessageEvent) => { this.onData(event.data) })
    inner.addEventListener('remoteCloseWrite', () => { this.onRemoteCloseWrite() })
    inner.addEventListener('close', (event: StreamCloseEvent) => {
      this.drop()
      this.onTransportClosed(event.error)
    })
  }

  sendData (data: Uint8ArrayList): SendResult {
    this.held.push({ at: this.schedule.release(performance.now(), data.byteLength), data: data.subarray() })
    if (this.held.length === 1) this.arm()
    return { sentBytes: data.byteLength, canSendMore: true }
  }

  /** A graceful close waits until every held chunk is handed over, as a FIN follows the data. */
  async sendClose (options?: AbortOptions): Promise<void> {
    if (this.held.length > 0) {
      if (this.emptied === undefined) {
        let resolve = (): void => {}
        const promise = new Promise<void>((done) => { resolve = done })
        this.emptied = { promise, resolve }
      }
      await this.emptied.promise
    }
    await this.inner.close(options)
  }

  sendReset (err: Error): void {
    this.drop()
    this.inner.abort(err)
  }

  sendPause (): void { this.inner.pause() }
  sendResume (): void { this.inner.resume() }

  private arm (): void {
    const next = this.held[0]
    if (next === undefined) return
    this.timer = setTimeout(() => { this.flush() }, Math.max(0, next.at - performance.now()))
  }

  private flush (): void {
    const now = performance.now()
    while (this.held.length > 0 && (this.held[0] as Held).at <= now) {
      const { data } = this.held.shift() as Held
      try {
        this.inner.send(data)
      } catch (err) {
        // The inner connection closed under us: what it could not take is lost with it, as on a reset link.
        this.abort(err instanceof Error ? err : new Error(String(err)))
        return
      }
    }
    if (this.held.length > 0) this.arm()
    else this.emptied?.resolve()
  }

  private drop (): void {
    clearTimeout(this.timer)
    this.held.length = 0
    this.emptied?.resolve()
  }
}
