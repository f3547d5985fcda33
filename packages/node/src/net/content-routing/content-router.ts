import type { Libp2p, Logger, PeerId, PeerInfo } from '@libp2p/interface'
import type { KadDHT, QueryEvent } from '@libp2p/kad-dht'
import { CID } from 'multiformats/cid'
import { IsnadError } from '../../errors/index.js'
import type { EvidenceFetchResult, FetchResult } from '../fetch/index.js'
import { FIND_PROVIDERS_TIMEOUT_MS, MAX_PROVIDE_QUEUE, MAX_PROVIDERS_ASKED, PROVIDE_CONCURRENCY, PROVIDE_TIMEOUT_MS } from './constants.js'
import { HopCounter } from './hop-counter.js'

/** What the router needs of the network: its libp2p node with the DHT, and fetch-v1 (verify, store). */
export interface RoutedNetwork {
  readonly libp2p: Libp2p<{ dht?: KadDHT }>
  fetch: (peer: PeerId | string, ids: readonly string[]) => Promise<FetchResult>
  /** fetch-v1 §9: a memory's evidence (verify, store). */
  fetchEvidence: (peer: PeerId | string, memoryId: string) => Promise<EvidenceFetchResult>
}

/** One provider found by CID, how many DHT hops from this node the record naming it was (C5), and the peers queried until then. */
export interface FoundProvider {
  peer: PeerInfo
  hops: number
  queried: number
}

/** A record this node did not hold, found by its CID through the DHT and fetched (content-routing-v1 C6). */
export interface RoutedFetch {
  id: string
  /** The provider that served it. */
  from: string
  /** The providers asked, in order; the last one served it. */
  providers: string[]
  /** DHT hops from this node to the peer that held the provider record. */
  hops: number
  /** Peers the lookup queried. */
  queried: number
  /**
   * With `evidence`: the records of the memory's evidence the provider sent (C6a), verified and
   * stored (those this node held already included); null when the provider did not answer the
   * request (it speaks no fetch-v1 §9, or failed).
   */
  evidence?: number | null
}

/** Counters of the provide queue (content-routing-v1 C2), for `isnad peers` and benches. */
export interface ProvideStats {
  provided: number
  failed: number
  /** CIDs dropped because the queue was full: their holders' other copies announce them. */
  dropped: number
  waiting: number
}

export interface ContentRouterOptions {
  log?: Logger
  /** @default FIND_PROVIDERS_TIMEOUT_MS */
  lookupTimeoutMs?: number
  /** @default PROVIDE_CONCURRENCY */
  provideConcurrency?: number
  /** @default MAX_PROVIDE_QUEUE */
  maxProvideQueue?: number
}

/**
 * Content routing by CID over the isnad DHT (protocols/content-routing-v1.md): announces what this
 * node stores as it is stored (the DHT re-provides on its own schedule), finds the providers of a CID
 * and fetches a record from them with fetch-v1, which verifies it before it is stored.
 */
export class ContentRouter {
  private readonly controller = new AbortController()
  private readonly waiting = new Map<string, CID>()
  private running = 0
  private readonly counters: ProvideStats = { provided: 0, failed: 0, dropped: 0, waiting: 0 }
  private readonly lookupTimeoutMs: number
  private readonly concurrency: number
  private readonly maxQueue: number
  private readonly idle = new Set<() => void>()

  constructor (private readonly network: RoutedNetwork, options: ContentRouterOptions = {}) {
    this.lookupTimeoutMs = options.lookupTimeoutMs ?? FIND_PROVIDERS_TIMEOUT_MS
    this.concurrency = options.provideConcurrency ?? PROVIDE_CONCURRENCY
    this.maxQueue = options.maxProvideQueue ?? MAX_PROVIDE_QUEUE
    this.log = options.log ?? network.libp2p.logger.forComponent('isnad:content-routing')
  }

  private readonly log: Logger

  get stats (): ProvideStats {
    return { ...this.counters, waiting: this.waiting.size }
  }

  /**
   * C2: queues CIDs to announce, each once; returns at once. A full queue drops its oldest entry:
   * a burst (a sync of a large log) cannot grow memory without bound.
   */
  provide (cids: Iterable<CID>): void {
    if (this.controller.signal.aborted) return
    for (const cid of cids) {
      const key = cid.toString()
      if (this.waiting.has(key)) continue
      if (this.waiting.size >= this.maxQueue) {
        const oldest = this.waiting.keys().next().value
        if (oldest !== undefined) this.waiting.delete(oldest)
        this.counters.dropped++
      }
      this.waiting.set(key, cid)
    }
    this.pump()
  }

  /** Resolves once nothing waits or runs in the provide queue (tests and benches). */
  async settled (): Promise<void> {
    if (this.running === 0 && this.waiting.size === 0) return
    await new Promise<void>((resolve) => { this.idle.add(resolve) })
  }

  /**
   * C5: the providers of `cid` other than this node, as the lookup finds them, each with its hop
   * count. Ends when the lookup ends, `limit` were found, or the time limit passes.
   */
  async * findProviders (cid: CID, { limit = MAX_PROVIDERS_ASKED, signal }: { limit?: number, signal?: AbortSignal } = {}): AsyncGenerator<FoundProvider, void> {
    const self = this.network.libp2p.peerId
    const hops = new HopCounter(self)
    const lookup = AbortSignal.any([this.controller.signal, AbortSignal.timeout(this.lookupTimeoutMs), ...(signal === undefined ? [] : [signal])])
    const seen = new Set<string>()
    try {
      for await (const event of this.dht.findProviders(cid, { signal: lookup }) as AsyncIterable<QueryEvent>) {
        hops.observe(event)
        if (event.name !== 'PROVIDER') continue
        for (const peer of event.providers) {
          const key = peer.id.toString()
          if (peer.id.equals(self) || seen.has(key)) continue
          seen.add(key)
          yield { peer, hops: hops.of(event.from), queried: hops.queried }
          if (seen.size >= limit) return
        }
      }
    } catch (err) {
      if (!lookup.aborted || this.controller.signal.aborted || signal?.aborted === true) throw err
      this.log('lookup of %c ended at its time limit', cid)
    }
  }

  /**
   * C6: a record by id from the providers of its CID, asked one after another (at most
   * MAX_PROVIDERS_ASKED) through fetch-v1, which verifies it (F5–F7) and hands it to the node to store.
   * With `evidence` (a memory), C6a: then the memory's evidence from the provider that served it
   * (fetch-v1 §9), verified and stored the same way. NOT_FOUND when no provider served it.
   */
  async fetchRecord (id: string, { signal, evidence = false }: { signal?: AbortSignal, evidence?: boolean } = {}): Promise<RoutedFetch> {
    const cid = CID.parse(id)
    const asked: string[] = []
    const failures: string[] = []
    const providers = this.findProviders(cid, { signal })
    for (let next = await providers.next(); next.done !== true; next = await providers.next()) {
      const { peer, hops, queried } = next.value
      const from = peer.id.toString()
      asked.push(from)
      try {
        if (peer.multiaddrs.length > 0) await this.network.libp2p.peerStore.merge(peer.id, { multiaddrs: peer.multiaddrs })
        const result = await this.network.fetch(peer.id, [id])
        if (result.records.length > 0 || result.known.length > 0) {
          await providers.return() // the lookup stops here
          const found = { id, from, providers: asked, hops, queried }
          return evidence ? { ...found, evidence: await this.evidenceFrom(peer.id, id) } : found
        }
        failures.push(`${from} did not send it`)
      } catch (err) {
        failures.push(`${from}: ${err instanceof Error ? err.message : String(err)}`)
      }
    }
    const reason = asked.length === 0 ? 'no provider of it was found in the DHT' : `no provider served it (${failures.join('; ')})`
    throw new IsnadError('NOT_FOUND', `record ${id} is not stored here and ${reason}`, { details: { id, providers: asked } })
  }

  /** C6a: the records of a memory's evidence `peer` sent, or null when it did not answer (logged, not penalised). */
  private async evidenceFrom (peer: PeerId, memoryId: string): Promise<number | null> {
    try {
      const { records, known } = await this.network.fetchEvidence(peer, memoryId)
      return records.length + known.length
    } catch (err) {
      this.log('the evidence of %s from %p: %s', memoryId, peer, String(err))
      return null
    }
  }

  /** Stops announcing and ends lookups in flight; the DHT's own re-provide stops with libp2p. */
  stop (): void {
    this.controller.abort()
    this.waiting.clear()
    this.notifyIdle()
  }

  private get dht (): KadDHT {
    const dht = this.network.libp2p.services.dht
    if (dht === undefined) throw new IsnadError('USAGE', 'this node runs no DHT (it was made with dht: false)')
    return dht
  }

  private pump (): void {
    while (this.running < this.concurrency && this.waiting.size > 0 && !this.controller.signal.aborted) {
      const [key, cid] = this.waiting.entries().next().value as [string, CID]
      this.waiting.delete(key)
      this.running++
      void this.announce(cid).finally(() => {
        this.running--
        this.pump()
        if (this.running === 0 && this.waiting.size === 0) this.notifyIdle()
      })
    }
  }

  private async announce (cid: CID): Promise<void> {
    try {
      // kad-dht stores the provider record locally first, then at the k closest peers it finds.
      const signal = AbortSignal.any([this.controller.signal, AbortSignal.timeout(PROVIDE_TIMEOUT_MS)])
      let stored = 0
      for await (const event of this.dht.provide(cid, { signal })) {
        if (event.name === 'PEER_RESPONSE' && event.messageName === 'ADD_PROVIDER') stored++
      }
      // Kept locally only (no DHT peer took it): the DHT's re-provide tries again on its schedule.
      if (stored === 0) throw new Error('no DHT peer took the provider record')
      this.counters.provided++
    } catch (err) {
      this.counters.failed++
      if (!this.controller.signal.aborted) this.log('providing %c failed: %s', cid, String(err))
    }
  }

  private notifyIdle (): void {
    for (const resolve of this.idle) resolve()
    this.idle.clear()
  }
}
