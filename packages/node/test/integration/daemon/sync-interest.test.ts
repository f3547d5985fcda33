import { afterEach, describe, expect, it } from 'vitest'
import type { HttpOperations } from '../../../src/api-access/index.js'
import { IsnadError } from '../../../src/errors/index.js'
import { SYNC_INTEREST_PROTOCOL } from '../../../src/net/sync/index.js'
import { eventually } from '../../fixtures/eventually.js'
import { ShardedDaemons, type ShardedDaemon } from '../../fixtures/sharded-daemons.js'

/*
 * Sync by interest (protocols/sync-v1.md §9) between real daemons over libp2p on 127.0.0.1, with
 * LevelDB in temp dirs. `shardCount: 4` splits the network in four, as 512 agents or more would.
 * A holder stores memories of several authors and tags; a new node whose own agent is in another
 * shard follows an author beyond its one shard (`maxShards: 1`) and a tag, then connects: it
 * catches up on that author's and that tag's memories, with their attestations, and receives none
 * of the rest; a tag followed later is caught up from the start of the holder's log.
 */

const COUNT = 4
const nodes = new ShardedDaemons(COUNT, 'isnad-sync-interest-')
type Started = ShardedDaemon
const startIn = nodes.startIn.bind(nodes)
const agentIn = nodes.agentIn.bind(nodes)

/** The kinds of the records a node holds of one memory (none when it does not hold the memory). */
async function heldOf (ops: HttpOperations, memory: string): Promise<string[]> {
  const bundle = await ops.call('exportBundle', { ids: [memory] }).catch((err: unknown) => {
    if (err instanceof IsnadError && err.code === 'NOT_FOUND') return { records: [] }
    throw err
  })
  return bundle.records.map((r) => r.record.kind).sort()
}

async function holds (ops: HttpOperations, memory: string, kinds: string[]): Promise<void> {
  await eventually(`${kinds.join(', ')} of ${memory}`, async () => await heldOf(ops, memory), (held) => JSON.stringify(held) === JSON.stringify(kinds))
}

afterEach(async () => { await nodes.close() })

/** A holder in shard 0 with memories by an author in shard 2 and one in shard 3, tagged or not, and attestations. */
type LogIds = Record<'later' | 'byFollowed' | 'byFollowedToo' | 'tagged' | 'untagged' | 'own', string>

async function holderWithLog (): Promise<{ holder: Started, followed: string, ids: LogIds }> {
  const holder = await startIn(0)
  const [followed, other] = [await agentIn(holder, 2), await agentIn(holder, 3)]
  const say = async (as: string, summary: string, tags: string[] = []): Promise<string> =>
    (await holder.ops.call('remember', { type: 'fact', summary, tags, as })).id
  const ids: LogIds = {
    // Written first: a tag followed later must be synced from the start of the log.
    later: await say(holder.agent, 'the staging cluster moved to the new rack', ['staging']),
    byFollowed: await say(followed, 'the release train leaves on thursdays'),
    byFollowedToo: await say(followed, 'the release notes live in the wiki'),
    tagged: await say(other, 'deploys are frozen during the audit', ['deploys']),
    untagged: await say(other, 'the coffee machine on floor two is fixed', ['office']),
    own: await say(holder.agent, 'the holder\'s own note')
  }
  await holder.ops.call('attest', { id: ids.byFollowed, verdict: 'confirm', as: other })
  // The followed author attests a memory nobody wants: it travels with that memory, not with its witness.
  await holder.ops.call('attest', { id: ids.own, verdict: 'confirm', as: followed })
  return { holder, followed, ids }
}

describe('sync by interest on real daemons (sync-v1 §9)', () => {
  it('brings a new node the memories of what it follows, and none of the rest; a later follow from the start', async () => {
    const { holder, followed, ids } = await holderWithLog()
    // The new node's own agent is in shard 1, its one shard: the followed author (shard 2) is served by sync.
    const node = await startIn(1, { maxShards: 1 })
    expect((await node.ops.call('follow', { action: 'add', did: followed })).gossip).toEqual({ count: COUNT, shards: [1], by_sync: [followed] })
    await node.ops.call('follow', { action: 'add', tag: 'deploys' })
    await node.ops.call('connectPeer', { address: holder.daemon.multiaddrs()[0]! })

    await holds(node.ops, ids.byFollowed, ['attestation', 'memory'])
    await holds(node.ops, ids.byFollowedToo, ['memory'])
    await holds(node.ops, ids.tagged, ['memory'])
    const [run] = (await node.ops.call('syncPeers', { peer: holder.daemon.peerId })).syncs // after the first run: nothing new
    expect(run).toMatchObject({ peer: holder.daemon.peerId })
    for (const id of [ids.later, ids.untagged, ids.own]) expect(await heldOf(node.ops, id)).toEqual([])

    // A tag followed now: its memory is older than every cursor the node has with the holder.
    await node.ops.call('follow', { action: 'add', tag: 'staging' })
    await holds(node.ops, ids.later, ['memory'])
    await node.ops.call('syncPeers', { peer: holder.daemon.peerId })
    for (const id of [ids.untagged, ids.own]) expect(await heldOf(node.ops, id)).toEqual([])
  })

  it('syncs the whole log with a peer that speaks only /isnad/sync/1.0.0', async () => {
    const { holder, followed, ids } = await holderWithLog()
    // An older node: it serves sync-v1 alone.
    await holder.daemon.network.libp2p.unhandle(SYNC_INTEREST_PROTOCOL)
    const node = await startIn(1, { maxShards: 1 })
    await node.ops.call('follow', { action: 'add', did: followed })
    await node.ops.call('connectPeer', { address: holder.daemon.multiaddrs()[0]! })
    for (const id of [ids.later, ids.byFollowedToo, ids.tagged, ids.untagged]) await holds(node.ops, id, ['memory'])
    await holds(node.ops, ids.own, ['attestation', 'memory'])
  })
})
