import type { VerifiedCheckpoint } from '../merkle/index.js'
import type { AcceptSource, NetHost, RecordPage } from '../net/index.js'
import { followedTags } from './follows.js'
import type { LocalNode } from './local-node.js'

/**
 * The node as the network layer sees it (src/net NetHost): what it stores, what it accepts, its log
 * for peers to sync from, and the sync cursors it keeps for theirs. Received records were verified
 * once by the network, so they are stored without a second signature check (docs/architecture.md, "A record from the wire to its score").
 * Records are served as the store keeps them: their canonical bytes (the store checked or built
 * them when it stored them), with nothing decoded or encoded again.
 */
export function createNodeHost (current: () => LocalNode): NetHost & { close: () => Promise<void> } {
  // The node is looked up on each call: reindex closes it and opens a new one.
  const node = { get store () { return current().store }, get journal () { return current().journal },
    get pipeline () { return current().pipeline }, now: () => current().now() }
  return {
    has: async (ids) => await node.store.existsMany(ids),
    accept: async (records, source: AcceptSource) => {
      await node.pipeline.accept(records, source)
    },
    missingMemory: (memoryId, from) => { node.pipeline.wantMemory(memoryId, from) },
    get: async (id) => {
      const [bytes] = await node.store.getBytesMany([id])
      return bytes ?? null
    },
    recordsSince: async (cursor, limit): Promise<RecordPage> => {
      const { ids, next } = await node.journal.state.recordsSince(cursor, limit)
      // One read for the page: each read is a round trip through libuv's pool.
      const stored = await node.store.getBytesMany(ids)
      return { records: stored.filter((bytes) => bytes !== undefined), next }
    },
    memoryEvidence: async (id, limit) => {
      const { store } = node
      // Attestations first: they weigh most in a score; then anchors, then whom the author asked.
      const [attestations, anchors, requests] = await Promise.all([store.attestationsFor(id), store.anchorsFor(id), store.witnessRequestsFor(id)])
      const ids = [...attestations, ...anchors, ...requests].slice(0, limit).map((record) => record.id)
      return (await store.getBytesMany(ids)).filter((bytes) => bytes !== undefined)
    },
    memoryAuthor: async (id) => (await node.store.getMemory(id))?.signed.record.author.agent_id ?? null,
    followedTags: async () => followedTags(await (await current().follows()).list()),
    evidenceAuthors: async () => current().trust.evidenceAuthors(),
    loadCursor: async (peerId) => await node.journal.state.syncCursor(peerId),
    saveCursor: async (peerId, cursor) => { await node.journal.saveSyncCursor(peerId, cursor) },
    getBlock: async (cid) => await current().anchors.blocks.get(cid),
    acceptCheckpoint: async (checkpoint: VerifiedCheckpoint) => {
      await node.journal.observeCheckpoint(checkpoint.signed)
    },
    // Nothing of its own to close: every file it changes is the node's journal's.
    close: async () => {}
  }
}
