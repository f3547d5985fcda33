import { randomBytes } from 'node:crypto'
import { EVENT_REPLAY_SIZE } from './constants.js'
import type { AttestationNotice, InboxItem } from './network-shapes.js'

/** What `GET /v1/events` streams: new inbox items and newly stored attestations. */
export type ApiEvent =
  | { type: 'inbox', data: InboxItem }
  | { type: 'attestation', data: AttestationNotice }

export type ApiEventListener = (event: ApiEvent) => void

/** The node's side of the stream: the API subscribes once and fans events out to its clients. */
export interface ApiEventSource {
  /** Registers a listener; the returned function removes it. Listeners must not throw. */
  subscribe: (listener: ApiEventListener) => () => void
}

/** A source the node (or an adapter) pushes events into. */
export interface ApiEventHub extends ApiEventSource {
  emit: (event: ApiEvent) => void
}

export function createApiEventHub (): ApiEventHub {
  const listeners = new Set<ApiEventListener>()
  return {
    subscribe (listener) {
      listeners.add(listener)
      return () => { listeners.delete(listener) }
    },
    emit (event) {
      // A copy, so a listener that unsubscribes while being called does not skip its neighbour.
      for (const listener of [...listeners]) listener(event)
    }
  }
}

/** An event as the stream sends it: with its SSE id. */
export interface SequencedEvent {
  id: string
  event: ApiEvent
}

/**
 * Numbers the events of one server and keeps the last EVENT_REPLAY_SIZE, so a client that
 * reconnects with `Last-Event-ID` gets what it missed. Ids are `<epoch>.<n>`: the epoch is random per
 * server, so an id from before a restart is recognised as foreign rather than matched to an
 * unrelated event with the same number.
 */
export class EventLog {
  private readonly epoch = randomBytes(4).toString('hex')
  private readonly recent: SequencedEvent[] = []
  private readonly listeners = new Set<(event: SequencedEvent) => void>()
  private next = 1
  private readonly unsubscribe: () => void

  constructor (source: ApiEventSource, private readonly capacity = EVENT_REPLAY_SIZE) {
    this.unsubscribe = source.subscribe((event) => { this.append(event) })
  }

  /**
   * Events after `lastEventId` still kept (none for a foreign or absent id), then every new one to
   * `listener` until the returned function is called.
   */
  follow (lastEventId: string | undefined, listener: (event: SequencedEvent) => void): { missed: SequencedEvent[], stop: () => void } {
    this.listeners.add(listener)
    return { missed: this.since(lastEventId), stop: () => { this.listeners.delete(listener) } }
  }

  close (): void {
    this.unsubscribe()
    this.listeners.clear()
  }

  private since (lastEventId: string | undefined): SequencedEvent[] {
    const [epoch, n] = (lastEventId ?? '').split('.')
    const seen = Number(n)
    if (epoch !== this.epoch || !Number.isSafeInteger(seen)) return []
    return this.recent.filter((e) => Number(e.id.slice(this.epoch.length + 1)) > seen)
  }

  private append (event: ApiEvent): void {
    const sequenced = { id: `${this.epoch}.${this.next++}`, event }
    this.recent.push(sequenced)
    if (this.recent.length > this.capacity) this.recent.shift()
    for (const listener of [...this.listeners]) listener(sequenced)
  }
}
