/*
 * First arrival times by key (a witness request at a witness's inbox, an attestation at its author's
 * node), with waiters for keys that have not arrived: the driver waits on events, not by polling
 * (a hundred answers polling every 20 ms are thousands of timers a second in the nodes' process).
 */

type Waiter = (at: number | null) => void

export class Arrivals {
  private readonly seen = new Map<string, number>()
  private readonly waiters = new Map<string, Set<Waiter>>()
  private closed = false

  /** Records the first arrival of `key` and wakes its waiters. */
  note (key: string, at: number): void {
    if (this.seen.has(key)) return
    this.seen.set(key, at)
    this.release(key, at)
  }

  get (key: string): number | undefined {
    return this.seen.get(key)
  }

  /** The arrival time of `key`, or null after `timeoutMs`, on cancel, or once closed. */
  async wait (key: string, timeoutMs: number): Promise<number | null> {
    const seen = this.seen.get(key)
    if (seen !== undefined) return seen
    if (this.closed) return null
    return await new Promise<number | null>((resolve) => {
      const waiters = this.waiters.get(key) ?? new Set<Waiter>()
      this.waiters.set(key, waiters)
      const waiter: Waiter = (at) => { clearTimeout(timer); resolve(at) }
      const timer = setTimeout(() => {
        waiters.delete(waiter)
        if (waiters.size === 0) this.waiters.delete(key)
        resolve(null)
      }, timeoutMs)
      waiters.add(waiter)
    })
  }

  /** Gives up waiting for the keys `matches` selects (e.g. arrivals at a node that left). */
  cancel (matches: (key: string) => boolean): void {
    for (const key of [...this.waiters.keys()]) if (matches(key)) this.release(key, null)
  }

  /** Every wait ends with null, now and later. */
  close (): void {
    this.closed = true
    this.cancel(() => true)
  }

  private release (key: string, at: number | null): void {
    const waiters = this.waiters.get(key)
    if (waiters === undefined) return
    this.waiters.delete(key)
    for (const waiter of waiters) waiter(at)
  }
}
