import type { Libp2p, Logger, PeerId } from '@libp2p/interface'
import type { NetHost } from './host.js'
import type { RecordGate } from './record-gate.js'

/** Counters of one network instance, for tests, benchmarks and `isnad peers`. */
export interface NetStats {
  /** Verification pipelines run (each checks at most one signature). */
  verifications: number
  /** Records handed to the host, by the path they came by (a memory fetchMemory found counts as fetched: the node ingests it). */
  accepted: { gossip: number, fetch: number, sync: number }
  /** Gossip messages by verdict (gossip-v1 §3). */
  gossip: { accepted: number, ignored: number, rejected: number }
  /** Fetch and sync protocol violations by peers (fetch-v1 §5, sync-v1 §6). */
  violations: number
}

/** What the protocol handlers share: the node, the host, the one verifier path, penalties. */
export interface NetContext {
  readonly libp2p: Libp2p
  readonly host: NetHost
  readonly gate: RecordGate
  readonly log: Logger
  /** Aborted when the network stops: every exchange in flight ends with it. */
  readonly signal: AbortSignal
  readonly stats: NetStats
  /** Records a protocol violation by `peer`: a score penalty, and a disconnect past a limit. */
  penalize: (peer: PeerId, reason: string) => void
  /** Hands verified records to the host and counts them; rejects when the host does. */
  accept: NetHost['accept']
}

/** A signal that fires at `ms` or when the network stops, whichever is first. */
export function deadline (context: NetContext, ms: number): AbortSignal {
  return AbortSignal.any([context.signal, AbortSignal.timeout(ms)])
}
