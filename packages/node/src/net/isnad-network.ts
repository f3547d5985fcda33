import type { GossipSub } from '@libp2p/gossipsub'
import type { Connection, IdentifyResult, PeerId, PeerInfo } from '@libp2p/interface'
import { peerIdFromString } from '@libp2p/peer-id'
import { multiaddr, type Multiaddr } from '@multiformats/multiaddr'
import type { CID } from 'multiformats/cid'
import type { SignatureVerifier } from '../identity/index.js'
import { encodeKeyLog, type KeyLog, type Keyring } from '../key-events/index.js'
import type { SignedCheckpoint } from '../merkle/index.js'
import type { VerifiedRecord } from '../record/index.js'
import type { RecordKind } from '../schema/index.js'
import {
  DISCONNECT_PENALTY, STREAM_VIOLATION_PENALTY, TOPICS, GossipRouter, type PublishOutcome, GossipValidator, USEFUL_PEER_TAG, USEFUL_PEER_TAG_VALUE, UsefulPeers, type PeerPenalties
} from './gossip/index.js'
import { DISCOVERY_DIAL_BELOW } from './constants.js'
import {
  FETCH_PROTOCOL, FETCH_TIMEOUT_MS, MAX_FETCH_PEERS, MAX_INBOUND_FETCH_STREAMS, FETCH_BLOCKS_PROTOCOL, FETCH_EVIDENCE_PROTOCOL, createFetchHandler, fetchBlocks,
  fetchEvidence, fetchRecords, type BlockFetchResult, type EvidenceFetchResult, type FetchResult
} from './fetch/index.js'
import {
  MAX_INBOUND_SYNC_STREAMS, SYNC_INTEREST_PROTOCOL, SYNC_PROTOCOL, createInterestSyncHandler, createSyncHandler, interestsOf, syncWithPeer, type SyncOptions, type SyncResult
} from './sync/index.js'
import type { NetContext, NetStats } from './net-context.js'
import type { AcceptSource, NetHost } from './host.js'
import {
  ConnectionPings, type ConnectionMonitorSettings, PROTOCOL_RATE_LIMITS, RateLimiter, rateLimitedHandler, ConnectionGuard
} from './limits/index.js'
import type { IsnadLibp2p } from './libp2p-node.js'
import type { Network } from './network.js'
import { RecordGate } from './record-gate.js'
import type { HomeShards } from '../shard/index.js'

export interface NetworkParts {
  libp2p: IsnadLibp2p
  verifier: SignatureVerifier
  host: NetHost
  gate: RecordGate
  penalties: PeerPenalties
  clock: () => number
  syncOnConnect: boolean
  /** Syncs wait for the first setHome: their interests are the home shards (sync-v1 §9). */
  syncAfterHome: boolean
  mdns: boolean
  fetchTimeoutMs: number
  sync: SyncOptions
  keyring: () => Keyring | undefined
  maxConnections: number
  connectionMonitor: ConnectionMonitorSettings
  /** Closes what outlives libp2p's stop (the DHT's LevelDB, content-routing-v1 §4). */
  afterStop?: () => Promise<void>
}

/** gossipsub's implementation has scores and meshes; its published interface does not say so. */
interface ScoredPubsub { getScore: (peerId: string) => number, getMeshPeers: (topic: string) => string[] }
function isScored (pubsub: GossipSub): pubsub is GossipSub & ScoredPubsub {
  const candidate = pubsub as GossipSub & Partial<ScoredPubsub>
  return typeof candidate.getScore === 'function' && typeof candidate.getMeshPeers === 'function'
}

/** One isnad node on the network: gossip, fetch and sync over a libp2p 3 node (gossip-v1, fetch-v1, sync-v1). */
export class IsnadNetwork implements Network {
  readonly libp2p: IsnadLibp2p
  private readonly counters: NetStats = { verifications: 0, accepted: { gossip: 0, fetch: 0, sync: 0 }, gossip: { accepted: 0, ignored: 0, rejected: 0 }, violations: 0 }
  private readonly parts: NetworkParts
  private readonly context: NetContext
  private readonly gossip: GossipRouter
  private readonly controller = new AbortController()
  private readonly tasks = new Set<Promise<unknown>>()
  private readonly syncs = new Map<string, Promise<SyncResult>>()
  /** Resolved by the first setHome, or at once when syncs need not wait for it (NetworkParts.syncAfterHome). */
  private readonly homeKnown: Promise<void>
  private markHomeKnown: () => void = () => {}
  /** Connections already synced: identify runs again on every identify push, sync once. */
  private readonly syncedConnections = new Set<string>()
  /** Peers that delivered valid gossip, tagged so the connection pruner keeps them (eclipse resistance). */
  private readonly usefulPeers: UsefulPeers
  private readonly connectionGuard: ConnectionGuard
  private readonly pings: ConnectionPings

  constructor (parts: NetworkParts) {
    this.parts = parts
    this.homeKnown = parts.syncAfterHome ? new Promise((resolve) => { this.markHomeKnown = resolve }) : Promise.resolve()
    this.libp2p = parts.libp2p
    this.usefulPeers = new UsefulPeers(async (peer, ttl) => {
      await parts.libp2p.peerStore.merge(peerIdFromString(peer), { tags: { [USEFUL_PEER_TAG]: { value: USEFUL_PEER_TAG_VALUE, ttl } } })
    }, parts.clock)
    this.connectionGuard = new ConnectionGuard(parts.libp2p, parts.maxConnections, (peer) => this.usefulPeers.isUseful(peer))
    const log = parts.libp2p.logger.forComponent('isnad:net')
    this.pings = new ConnectionPings(parts.libp2p, parts.connectionMonitor, log)
    this.context = {
      libp2p: parts.libp2p,
      host: parts.host,
      gate: parts.gate,
      log,
      signal: this.controller.signal,
      stats: this.counters,
      penalize: (peer, reason) => { this.penalize(peer, reason) },
      accept: async (records, source) => { await this.accept(records, source) }
    }
    const validator = new GossipValidator({
      gate: parts.gate,
      host: parts.host,
      verifier: parts.verifier,
      clock: parts.clock,
      keyring: parts.keyring,
      onAccepted: (from) => { this.usefulPeers.markUseful(from) }
    })
    this.gossip = new GossipRouter(this.context, parts.libp2p.services.pubsub, validator, (task) => { this.track(task) })
  }

  /** Counters since start (a live object). */
  get stats (): NetStats {
    this.counters.verifications = this.parts.gate.verifications
    return this.counters
  }

  get peerId (): PeerId {
    return this.libp2p.peerId
  }

  async start (): Promise<void> {
    // docs/limits.md: per-peer request rates; a stream over the limit is reset unread.
    const fetchLimiter = new RateLimiter(PROTOCOL_RATE_LIMITS.fetchPerSecond, PROTOCOL_RATE_LIMITS.fetchBurst, this.parts.clock)
    const syncLimiter = new RateLimiter(PROTOCOL_RATE_LIMITS.syncPerSecond, PROTOCOL_RATE_LIMITS.syncBurst, this.parts.clock)
    const limited = (connection: Connection): void => { this.penalize(connection.remotePeer, 'request rate exceeded', PROTOCOL_RATE_LIMITS.penalty) }
    await this.libp2p.handle(FETCH_PROTOCOL, rateLimitedHandler(createFetchHandler(this.context, this.parts.fetchTimeoutMs), fetchLimiter, limited), { maxInboundStreams: MAX_INBOUND_FETCH_STREAMS })
    await this.libp2p.handle(FETCH_BLOCKS_PROTOCOL, rateLimitedHandler(createFetchHandler(this.context, this.parts.fetchTimeoutMs, { blocks: true }), fetchLimiter, limited), { maxInboundStreams: MAX_INBOUND_FETCH_STREAMS })
    await this.libp2p.handle(FETCH_EVIDENCE_PROTOCOL, rateLimitedHandler(createFetchHandler(this.context, this.parts.fetchTimeoutMs, { blocks: true, evidence: true }), fetchLimiter, limited), { maxInboundStreams: MAX_INBOUND_FETCH_STREAMS })
    await this.libp2p.handle(SYNC_PROTOCOL, rateLimitedHandler(createSyncHandler(this.context), syncLimiter, limited), { maxInboundStreams: MAX_INBOUND_SYNC_STREAMS })
    await this.libp2p.handle(SYNC_INTEREST_PROTOCOL, rateLimitedHandler(createInterestSyncHandler(this.context), syncLimiter, limited), { maxInboundStreams: MAX_INBOUND_SYNC_STREAMS })
    this.libp2p.addEventListener('peer:identify', this.onIdentify)
    this.libp2p.addEventListener('peer:discovery', this.onDiscovery)
    this.libp2p.addEventListener('connection:close', this.onClose)
    this.connectionGuard.start()
    await this.libp2p.start()
    this.gossip.start()
    await this.pings.start()
  }

  /** Graceful stop: exchanges in flight are aborted, records being handed over are awaited. */
  async stop (): Promise<void> {
    this.libp2p.removeEventListener('peer:identify', this.onIdentify)
    this.libp2p.removeEventListener('peer:discovery', this.onDiscovery)
    this.libp2p.removeEventListener('connection:close', this.onClose)
    this.connectionGuard.stop()
    this.pings.stop()
    this.gossip.stop()
    this.controller.abort()
    this.markHomeKnown() // a sync still waiting for the home ends with the aborted network
    await Promise.allSettled([...this.tasks])
    await this.libp2p.stop()
    await this.parts.afterStop?.()
  }

  multiaddrs (): Multiaddr[] {
    return this.libp2p.getMultiaddrs()
  }

  async dial (target: Multiaddr | string | PeerId): Promise<void> {
    await this.libp2p.dial(typeof target === 'string' ? multiaddr(target) : target, { signal: AbortSignal.timeout(this.parts.fetchTimeoutMs) })
  }

  async publishRecord (kind: RecordKind, bytes: Uint8Array): Promise<PublishOutcome> {
    return await this.gossip.publishRecord(kind, bytes)
  }

  async publishWitnessRequest (request: Uint8Array, memory: Uint8Array): Promise<PublishOutcome> {
    return await this.gossip.publishWitnessRequest(request, memory)
  }

  async publishCheckpoint (checkpoint: SignedCheckpoint): Promise<PublishOutcome> {
    return await this.gossip.publishCheckpoint(checkpoint)
  }

  async publishKeyLog (log: KeyLog): Promise<PublishOutcome> {
    return await this.gossip.publish(TOPICS.keyEvents, encodeKeyLog(log))
  }

  async publishRaw (topic: string, data: Uint8Array): Promise<PublishOutcome> {
    return await this.gossip.publish(topic, data)
  }

  /** The node's shards (gossip-v1 "Shards"): what it subscribes to, and the count it publishes under. */
  get home (): HomeShards {
    return this.gossip.home
  }

  setHome (home: HomeShards): void {
    this.gossip.setHome(home)
    this.markHomeKnown()
  }

  setFollowedTags (tags: readonly string[]): void {
    this.gossip.setTags(tags)
  }

  /** The gossip topics this node subscribes to now. */
  topics (): string[] {
    return this.gossip.topics
  }

  /** Fetches records from a peer, verifies them and hands the new ones to the host (fetch-v1 §4). */
  async fetch (peer: PeerId | string, ids: readonly string[]): Promise<FetchResult> {
    const result = await fetchRecords(this.context, toPeerId(peer), ids, this.parts.fetchTimeoutMs)
    if (result.records.length > 0) await this.accept(result.records, 'fetch')
    return result
  }

  /** Fetches a memory's evidence from a peer, verifies it and hands the new records to the host (fetch-v1 §9). */
  async fetchEvidence (peer: PeerId | string, memoryId: string): Promise<EvidenceFetchResult> {
    const result = await fetchEvidence(this.context, toPeerId(peer), memoryId, this.parts.fetchTimeoutMs)
    if (result.records.length > 0) await this.accept(result.records, 'fetch')
    return result
  }

  /**
   * gossip-v1 R10: the memory an attestation or anchor points at, asked of the peer that sent it,
   * else of other peers, MAX_FETCH_PEERS in all; its verified records, not handed to the host (the
   * node asked and ingests them), counted as fetched. Empty when no peer had it.
   */
  async fetchMemory (id: string, from: string): Promise<VerifiedRecord[]> {
    const others = this.libp2p.getPeers().map((p) => p.toString()).filter((p) => p !== from)
    for (const peer of [from, ...others].slice(0, MAX_FETCH_PEERS)) {
      try {
        const { records } = await fetchRecords(this.context, toPeerId(peer), [id], this.parts.fetchTimeoutMs)
        if (records.length === 0) continue
        this.counters.accepted.fetch += records.length
        return records
      } catch (err) {
        this.context.log('fetching %s from %s failed: %s', id, peer, String(err))
      }
    }
    return []
  }

  /** Fetches blocks of anchored content from a peer, each re-hashed against its CID (fetch-v1 §8); not stored here. */
  async fetchBlocks (peer: PeerId | string, cids: readonly CID[]): Promise<BlockFetchResult> {
    return await fetchBlocks(this.context, toPeerId(peer), cids, this.parts.fetchTimeoutMs)
  }

  /** Catches up with one peer from its saved cursor (sync-v1 §4); concurrent calls share one run. */
  async sync (peer: PeerId | string): Promise<SyncResult> {
    const id = toPeerId(peer)
    const key = id.toString()
    const running = this.syncs.get(key)
    if (running !== undefined) return await running
    const run = (async () => {
      await this.homeKnown
      // sync-v1 §9: what this node wants, as of this run: its shards, the follows they left out, its tags.
      const interests = interestsOf(this.gossip.home, await this.context.host.followedTags?.() ?? [], await this.context.host.evidenceAuthors?.() ?? [])
      return await syncWithPeer(this.context, id, this.parts.sync, interests)
    })().finally(() => { this.syncs.delete(key) })
    this.syncs.set(key, run)
    return await run
  }

  /** Syncs with every connected peer; a failure with one peer does not stop the others. */
  async syncAll (): Promise<Array<{ peer: string, result?: SyncResult, error?: Error }>> {
    return await Promise.all(this.libp2p.getPeers().map(async (peer) => {
      try {
        return { peer: peer.toString(), result: await this.sync(peer) }
      } catch (err) {
        return { peer: peer.toString(), error: err instanceof Error ? err : new Error(String(err)) }
      }
    }))
  }

  /** The gossipsub score of a peer (gossip-v1 §6). */
  peerScore (peer: PeerId | string): number {
    const pubsub = this.libp2p.services.pubsub
    return isScored(pubsub) ? pubsub.getScore(peer.toString()) : 0
  }

  /** The application penalty of a peer (fetch and sync violations), decayed. */
  penalty (peer: PeerId | string): number {
    return this.parts.penalties.total(peer.toString())
  }

  meshPeers (topic: string): string[] {
    const pubsub = this.libp2p.services.pubsub
    return isScored(pubsub) ? pubsub.getMeshPeers(topic) : []
  }

  private async accept (records: readonly VerifiedRecord[], source: AcceptSource): Promise<void> {
    await this.parts.host.accept(records, source)
    this.counters.accepted[source] += records.length
  }

  private penalize (peer: PeerId, reason: string, amount = STREAM_VIOLATION_PENALTY): void {
    this.counters.violations++
    const total = this.parts.penalties.add(peer.toString(), amount)
    this.context.log('penalised %p (total %d): %s', peer, total, reason)
    if (total >= DISCONNECT_PENALTY) this.track(this.libp2p.hangUp(peer).catch(() => {}))
  }


  private readonly onIdentify = (event: CustomEvent<IdentifyResult>): void => {
    const { connection, peerId: peer, protocols } = event.detail
    if (!this.parts.syncOnConnect || !protocols.includes(SYNC_PROTOCOL) || this.syncedConnections.has(connection.id)) return
    this.syncedConnections.add(connection.id)
    this.track(this.sync(peer).catch((err: unknown) => { this.context.log('sync with %p failed: %s', peer, String(err)) }))
  }

  private readonly onClose = (event: CustomEvent<Connection>): void => {
    this.syncedConnections.delete(event.detail.id)
  }

  private readonly onDiscovery = (event: CustomEvent<PeerInfo>): void => {
    if (!this.parts.mdns || this.libp2p.getPeers().length >= DISCOVERY_DIAL_BELOW) return
    const peer = event.detail.id
    if (peer.equals(this.libp2p.peerId) || this.libp2p.getConnections(peer).length > 0) return
    // libp2p 3 does not dial what discovery finds; mDNS peers are dialled here.
    this.track(this.libp2p.dial(peer, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) }).catch(() => {}))
  }

  private track (task: Promise<unknown>): void {
    this.tasks.add(task)
    const done = (): void => { this.tasks.delete(task) }
    task.then(done, done)
  }
}

function toPeerId (peer: PeerId | string): PeerId {
  return typeof peer === 'string' ? peerIdFromString(peer) : peer
}
