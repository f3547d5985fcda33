import { createHash } from 'node:crypto'
import type { CID } from 'multiformats/cid'
import { SAMPLED_PROVIDERS } from './constants.js'

/*
 * content-routing-v1 C2: which holders of a record announce it. A memory gossiped in its shard is
 * held by every node of the shard; when each of them provided it, one memory cost the network a
 * DHT lookup and k ADD_PROVIDER messages per holder (the shard's size times 40–60 messages), which
 * on 8 daemons on loopback was nine tenths of each node's CPU per memory. A lookup needs one provider
 * that answers, not all of them: the node that made the record always announces it, and each other
 * holder with the chance that makes SAMPLED_PROVIDERS of them announce it on average. The draw is a
 * hash of the node's peer id and the CID, not a coin: a node decides the same for a record every time
 * (a restart, a reindex), and the holders of one record decide independently of each other.
 */

/**
 * The chance a holder that did not make a record announces it: SAMPLED_PROVIDERS among the holders
 * of its shard, estimated as the agents of one shard (N̂ / the shard count; a node hosts one agent or
 * more, so the nodes are at most that many and the providers at least SAMPLED_PROVIDERS on average).
 */
export function providerChance (population: number, shardCount: number): number {
  const holders = Math.max(1, population / Math.max(1, shardCount))
  return Math.min(1, SAMPLED_PROVIDERS / holders)
}

/** Whether the node `peer` (its peer id's bytes) is one of the holders that announce `cid`, at `chance`. */
export function isSampledProvider (peer: Uint8Array, cid: CID, chance: number): boolean {
  if (chance >= 1) return true
  const digest = createHash('sha256').update(peer).update(cid.bytes).digest()
  return digest.readUInt32BE(0) / 2 ** 32 < chance
}
