import type { VerifiedCheckpoint } from '../../merkle/index.js'
import type { VerifiedRecord } from '../../record/index.js'

/**
 * The verdict on one gossip message (gossip-v1 §3): `accept` carries what verification produced,
 * so the host stores it without verifying again, and what validation learned: `missingMemory`, the
 * memory an accepted attestation or anchor points at that this node holds nowhere (gossip-v1 R10),
 * for the host to obtain once the message is delivered; `ignore` drops the message without
 * penalty; `reject` drops it and counts against the peer that sent it (score P4).
 */
export type GossipDecision =
  | { result: 'accept', records: VerifiedRecord[], checkpoint?: VerifiedCheckpoint, missingMemory?: string }
  | { result: 'ignore', reason: string }
  | { result: 'reject', reason: string }
