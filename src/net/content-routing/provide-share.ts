import { createHash } from 'node:crypto'
import { PROVIDERS_PER_RECORD } from './constants.js'

/*
 * content-routing-v1 C2b: which of the records a node holds it announces. Every holder announcing
 * every record costs each node a DHT provide (a lookup and k = 20 stores, most of them on fresh
 * connections) per record of its shards, so what a node pays for content routing grew with the
 * number of holders until it reached k, and a record gathered one provider per holder where a few
 * suffice. A node announces what its own agents signed, and a record signed elsewhere with
 * probability min(1, PROVIDERS_PER_RECORD / holders), drawn from its peer id and the CID, so the
 * same node decides the same way after a restart (the backlog, C2a) and the holders' draws are
 * independent: a record has PROVIDERS_PER_RECORD providers on average, its signer's node besides.
 */

const TAG = 'isnad/provide/v1\0'

/**
 * Whether the node `peerId` announces `cid`, a record signed by none of its agents, when about
 * `holders` nodes hold it (its shard's agents, N̂ / c). Every holder announces it when there are at
 * most `providers` of them.
 */
export function announcesHeldRecord (peerId: string, cid: string, holders: number, providers: number = PROVIDERS_PER_RECORD): boolean {
  if (!(holders > providers)) return true
  const digest = createHash('sha256').update(TAG, 'utf8').update(peerId, 'utf8').update('\0', 'utf8').update(cid, 'utf8').digest()
  return digest.readUInt32BE(0) / 2 ** 32 < providers / holders
}
