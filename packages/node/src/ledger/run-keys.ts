import type { LedgerEvent } from '../schema/index.js'
import { RUN_KEY_CACHE } from './constants.js'

/**
 * The idempotency keys of the current run (spec §8), with their events, so a duplicate is answered
 * at once, including one whose original is still in flight (it then waits for that original to be
 * durable). Bounded, oldest first; evicted keys are answered by the injected index instead.
 */

/** Shared by every event of one append call: settled once that call's lines are durable. */
export interface AppendState {
  durable: Promise<void> | undefined
  settled: boolean
}

export interface KnownKey {
  event_id: string
  event: LedgerEvent
  state: AppendState
}

export class RunKeys {
  private readonly known = new Map<string, KnownKey>()
  /** Keys of `known` in insertion order, from `head` on. */
  private order: string[] = []
  private head = 0

  constructor (private readonly capacity = RUN_KEY_CACHE) {}

  has (key: string): boolean {
    return this.known.has(key)
  }

  get (key: string): KnownKey | undefined {
    return this.known.get(key)
  }

  add (key: string, entry: KnownKey): void {
    this.known.set(key, entry)
    this.order.push(key)
  }

  /** Forgets keys a refused batch had claimed. */
  forget (keys: Iterable<string>): void {
    for (const key of keys) this.known.delete(key)
  }

  /**
   * Drops the oldest durable keys beyond the capacity. A queue rather than iterating the Map from
   * its start: V8 leaves deleted Map entries as holes until it rehashes, so that iteration would
   * skip ever more of them on every call.
   */
  evict (): void {
    while (this.known.size > this.capacity && this.head < this.order.length) {
      const key = this.order[this.head] as string
      const entry = this.known.get(key)
      if (entry !== undefined && !entry.state.settled) break
      this.known.delete(key)
      this.head++
    }
    if (this.head > this.capacity) {
      this.order = this.order.slice(this.head)
      this.head = 0
    }
  }
}
