import { rm } from 'node:fs/promises'
import { afterEach, describe, expect, it } from 'vitest'
import type { Daemon, DaemonOptions } from '../../../src/daemon/index.js'
import { shardTopic } from '../../../src/shard/index.js'
import { heldOf, homeIn as homeInShard, sleep, startOn, subscribed, until, type Home, type Started } from './shard-fixtures.js'

/*
 * Shards on real daemons over libp2p on 127.0.0.1 with LevelDB in temp dirs (protocols/gossip-v1.md
 * "Shards"). A network of a few nodes has count 1; `shardCount: 4` splits it in four, as a network of
 * 512 agents or more would be. A node whose agents are all in another shard receives none of a
 * shard's memories, attestations or witness requests; a node that follows the author does, as fast
 * as gossip brings them today; a witness request also reaches the shard of the witness it addresses.
 */

const COUNT = 4
const homes: string[] = []
const daemons: Daemon[] = []

async function homeIn (shard: number): Promise<Home> { return await homeInShard(homes, shard, COUNT) }

async function start (h: Home, options: Partial<DaemonOptions> = {}): Promise<Started> {
  return await startOn(daemons, h, { shardCount: COUNT, ...options })
}

afterEach(async () => {
  for (const d of daemons.splice(0)) await d.stop()
  for (const h of homes.splice(0)) await rm(h, { recursive: true, force: true })
})

describe('shards on real daemons (gossip-v1 "Shards")', () => {
  it('keeps a shard\'s traffic from a node outside it, and brings a followed author\'s memories to a follower as fast as gossip does', async () => {
    const [authorHome, outsideHome, followerHome] = [await homeIn(0), await homeIn(2), await homeIn(1)]
    const author = await start(authorHome)
    const bootstrap = [author.daemon.multiaddrs()[0]!]
    // No sync on connect would bring the author's log anyway: nothing is stored before everyone is connected.
    const [outside, follower] = await Promise.all([start(outsideHome, { bootstrap }), start(followerHome, { bootstrap })])
    await until(async () => (await author.ops.call('peers', {})).peers.length >= 2 ? true : undefined, 'both peers')

    const memories = shardTopic(COUNT, 0, 'memories')
    expect(author.daemon.network.topics()).toContain(memories)
    expect(outside.daemon.network.topics()).not.toContain(memories)
    expect(follower.daemon.network.topics()).not.toContain(memories)

    // The follower follows the author: its shard is subscribed at once.
    const followed = await follower.ops.call('follow', { action: 'add', did: authorHome.agent })
    expect(followed.follows).toEqual([{ did: authorHome.agent, since: expect.any(String) }])
    expect(followed.gossip).toEqual({ count: COUNT, shards: [0, 1], by_sync: [] })
    expect(follower.daemon.network.topics()).toContain(memories)
    await until(() => subscribed(author, follower, memories), 'the follower\'s subscription at the author')

    const sent = Date.now()
    const memory = await author.ops.call('remember', { type: 'fact', summary: 'the build cache moved to the second disk' })
    await until(async () => (await heldOf(follower.ops, memory.id)).includes('memory') ? true : undefined, 'the memory at the follower', 5_000)
    const latency = Date.now() - sent
    // Today's gossip latency on loopback is well under a second; the bound leaves room for a loaded machine.
    expect(latency).toBeLessThan(3_000)
    // The follower's agent answers it; the attestation travels on the author's shard.
    await follower.ops.call('attest', { id: memory.id, verdict: 'confirm' })
    await until(async () => (await heldOf(author.ops, memory.id)).includes('attestation') ? true : undefined, 'the follower\'s attestation at the author')
    // The node outside the shard received none of it, by gossip or otherwise.
    await sleep(1_000)
    expect(await heldOf(outside.ops, memory.id)).toEqual([])
    const { gossip } = await outside.ops.call('networkStats', {})
    expect(gossip.rejected).toBe(0)
    expect(outside.daemon.network.stats.accepted.gossip).toBe(0)

    // Unfollowed: the shard is left (the follower's own agent is in another one).
    const after = await follower.ops.call('follow', { action: 'remove', did: authorHome.agent })
    expect(after).toEqual({ follows: [], gossip: { count: COUNT, shards: [1], by_sync: [] } })
    expect(follower.daemon.network.topics()).not.toContain(memories)

    // A witness request the author addresses to the follower's agent reaches it on the witness's
    // shard (the author's node publishes there without subscribing); the outside node still gets nothing.
    await until(() => subscribed(author, follower, shardTopic(COUNT, 1, 'witness-requests')), 'the witness\'s subscription, seen by the author')
    const asked = await author.ops.call('remember', { type: 'fact', summary: 'the nightly backup now runs at 02:00' })
    await author.ops.call('requestWitnesses', { id: asked.id, to: [followerHome.agent] })
    await until(async () => (await heldOf(follower.ops, asked.id)).includes('witness_request') ? true : undefined, 'the request at the addressed witness')
    expect((await follower.ops.call('inbox', {})).items.some((item) => item.memory === asked.id)).toBe(true)
    await sleep(1_000)
    expect(await heldOf(outside.ops, asked.id)).toEqual([])
  })

  it('keeps follows across a restart, and serves a follow beyond max-shards by sync, not gossip', async () => {
    const node = await homeIn(1)
    const [a, b] = [await homeIn(0), await homeIn(0)]
    const first = await start(node, { maxShards: 1 })
    const result = await first.ops.call('follow', { action: 'add', did: a.agent })
    // The node's own agent takes its one shard: the author of the other is served by sync.
    expect(result.gossip).toEqual({ count: COUNT, shards: [1], by_sync: [a.agent] })
    await first.ops.call('follow', { action: 'add', tag: 'deploys' })
    await first.daemon.stop()

    const again = await start(node, { maxShards: 2 })
    const listed = await again.ops.call('follow', { action: 'list' })
    expect(listed.follows).toEqual([{ did: a.agent, since: expect.any(String) }, { tag: 'deploys', since: expect.any(String) }])
    expect(listed.gossip).toEqual({ count: COUNT, shards: [0, 1], by_sync: [] })
    expect(again.daemon.network.topics()).toContain(shardTopic(COUNT, 0, 'memories'))
    await expect(again.ops.call('follow', { action: 'add', did: a.agent })).rejects.toMatchObject({ code: 'ALREADY_EXISTS' })
    await expect(again.ops.call('follow', { action: 'remove', did: b.agent })).rejects.toMatchObject({ code: 'NOT_FOUND' })
  })
})
