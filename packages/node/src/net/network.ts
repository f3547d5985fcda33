import type { PeerId } from '@libp2p/interface'
import type { Multiaddr } from '@multiformats/multiaddr'
import type { CID } from 'multiformats/cid'
import type { KeyLog } from '../key-events/index.js'
import type { SignedCheckpoint } from '../merkle/index.js'
import type { VerifiedRecord } from '../record/index.js'
import type { RecordKind } from '../schema/index.js'
import type { HomeShards } from '../shard/index.js'
import type { BlockFetchResult, EvidenceFetchResult, FetchResult } from './fetch/index.js'
import type { PublishOutcome } from './gossip/index.js'
import type { IsnadLibp2p } from './libp2p-node.js'
import type { NetStats } from './net-context.js'
import type { SyncResult } from './sync/index.js'

/** An isnad node on the network. */
export interface Network {
  readonly peerId: PeerId
  /** The underlying libp2p node, for what this interface does not cover. */
  readonly libp2p: IsnadLibp2p
  readonly stats: NetStats
  multiaddrs: () => Multiaddr[]
  dial: (target: Multiaddr | string | PeerId) => Promise<void>
  /**
   * Gossips a stored memory, attestation or anchor (its canonical signed bytes, as stored) on the
   * topic of its kind; the bytes are not decoded here (peers' validators check kind against topic).
   */
  publishRecord: (kind: RecordKind, bytes: Uint8Array) => Promise<PublishOutcome>
  /** Gossips a witness request together with the memory it names (gossip-v1 §4). */
  publishWitnessRequest: (request: Uint8Array, memory: Uint8Array) => Promise<PublishOutcome>
  publishCheckpoint: (checkpoint: SignedCheckpoint) => Promise<PublishOutcome>
  /** Gossips an identity's whole key log (gossip-v1 §9). */
  publishKeyLog: (log: KeyLog) => Promise<PublishOutcome>
  /** Publishes bytes unchecked: tests and tools only. */
  publishRaw: (topic: string, data: Uint8Array) => Promise<PublishOutcome>
  /** The node's home shards (gossip-v1 "Shards"): the count it publishes under and the shards it subscribes to. */
  readonly home: HomeShards
  /** Moves the node's subscriptions to other home shards (its agents or follows changed, or its count). */
  setHome: (home: HomeShards) => void
  /** Subscribes to the topics of the tags the node follows (gossip-v1 §11.9), the first MAX_TAG_TOPICS of them. */
  setFollowedTags: (tags: readonly string[]) => void
  /** The gossip topics the node subscribes to now. */
  topics: () => string[]
  /** Fetches records by id from a peer; verified new ones are handed to the host (source `fetch`). */
  fetch: (peer: PeerId | string, ids: readonly string[]) => Promise<FetchResult>
  /** Fetches the evidence of a memory (its attestations, anchors, witness requests) from a peer; verified new records are handed to the host (fetch-v1 §9). */
  fetchEvidence: (peer: PeerId | string, memoryId: string) => Promise<EvidenceFetchResult>
  /**
   * gossip-v1 R10: the memory an attestation or anchor points at, asked of the peer that sent it,
   * then of up to MAX_FETCH_PEERS peers in all; its verified records (empty when none had it), not
   * handed to the host: the node asked for them and ingests them itself.
   */
  fetchMemory: (memoryId: string, from: string) => Promise<VerifiedRecord[]>
  /** Fetches blocks of anchored content by CID from a peer, each re-hashed against its CID (fetch-v1 §8). */
  fetchBlocks: (peer: PeerId | string, cids: readonly CID[]) => Promise<BlockFetchResult>
  /** Catches up with a peer from the cursor saved for it (source `sync`). */
  sync: (peer: PeerId | string) => Promise<SyncResult>
  syncAll: () => Promise<Array<{ peer: string, result?: SyncResult, error?: Error }>>
  /** gossipsub score of a peer (gossip-v1 §6); negative after invalid messages. */
  peerScore: (peer: PeerId | string) => number
  /** Application penalty of a peer for fetch/sync violations (≥ 0, decaying). */
  penalty: (peer: PeerId | string) => number
  meshPeers: (topic: string) => string[]
  /** Graceful stop: in-flight exchanges aborted, pending hand-overs awaited, libp2p stopped. */
  stop: () => Promise<void>
}
