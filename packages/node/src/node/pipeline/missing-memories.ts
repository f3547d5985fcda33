import { setTimeout as sleep } from 'node:timers/promises'
import type { VerifiedRecord } from '../../record/index.js'

/** @default 3 — times a missing memory is asked for before sync is left to bring it. */
export const MISSING_MEMORY_ATTEMPTS = 3

/**
 * @default 500 — milliseconds between two asks for one missing memory: a relay forwards an
 * attestation before it has obtained the memory itself (gossip-v1 R10), so the first ask of the next
 * hop may find it still fetching.
 */
export const MISSING_MEMORY_RETRY_MS = 500

/** @default 1024 — memories waited for at once; one learned beyond this is left to sync. */
export const MAX_MISSING_MEMORIES = 1024

/** What obtains a memory from peers (the network's Network.fetchMemory): its verified records, or none. */
export interface MemoryFetcher {
  fetchMemory: (memoryId: string, from: string) => Promise<VerifiedRecord[]>
}

/** Where the fetched records go: the store asked first (the memory may have come meanwhile), then ingest. */
export interface MissingMemoryTarget {
  has: (ids: readonly string[]) => Promise<boolean[]>
  accept: (records: readonly VerifiedRecord[], source: 'fetch') => Promise<unknown>
}

/**
 * The memories gossip validation found missing (gossip-v1 R10), obtained after delivery: each asked
 * of the peer that sent the message (then others, as the fetcher chooses), up to
 * MISSING_MEMORY_ATTEMPTS times, and ingested with source `fetch`. One ask per memory at a time.
 * Nothing is fetched until a fetcher is given (a node without a network learns of none).
 */
export class MissingMemories {
  private fetcher: MemoryFetcher | undefined
  private readonly wanted = new Set<string>()
  private readonly tasks = new Set<Promise<void>>()
  private readonly stopping = new AbortController()

  constructor (private readonly target: MissingMemoryTarget) {}

  /** The network the memories are asked of from now on; undefined: none (learned ones are dropped). */
  fetchWith (fetcher: MemoryFetcher | undefined): void {
    this.fetcher = fetcher
  }

  /** Queues `memoryId`, learned from a message `from` sent; never waits and never throws. */
  want (memoryId: string, from: string): void {
    const fetcher = this.fetcher
    if (fetcher === undefined || this.stopping.signal.aborted || this.wanted.has(memoryId) || this.wanted.size >= MAX_MISSING_MEMORIES) return
    this.wanted.add(memoryId)
    // A failure (no peer, a refused record, close) leaves the memory to sync.
    const task = this.obtain(fetcher, memoryId, from).catch(() => {}).finally(() => {
      this.wanted.delete(memoryId)
      this.tasks.delete(task)
    })
    this.tasks.add(task)
  }

  /** Resolves once every memory queued so far is stored or given up. */
  async idle (): Promise<void> {
    while (this.tasks.size > 0) await Promise.all([...this.tasks])
  }

  /** Stops asking (waits between asks end at once) and waits for asks in flight. */
  async close (): Promise<void> {
    this.stopping.abort()
    await this.idle()
  }

  private async obtain (fetcher: MemoryFetcher, memoryId: string, from: string): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      if ((await this.target.has([memoryId]))[0] === true) return
      const records = await fetcher.fetchMemory(memoryId, from)
      if (records.length > 0) {
        await this.target.accept(records, 'fetch')
        return
      }
      if (attempt >= MISSING_MEMORY_ATTEMPTS) return
      await sleep(MISSING_MEMORY_RETRY_MS, undefined, { signal: this.stopping.signal })
    }
  }
}
