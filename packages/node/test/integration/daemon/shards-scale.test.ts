import { rm } from 'node:fs/promises'
import { afterAll, describe, expect, it } from 'vitest'
import type { Daemon } from '../../../src/daemon/index.js'
import { tagTopic } from '../../../src/net/gossip/tag-topics.js'
import { shardOf, shardTopic } from '../../../src/shard/index.js'
import { freshHome, heldOf, sleep, startOn, subscribed, until, type Home, type Started } from './shard-fixtures.js'

/*
 * Twelve real daemons (LevelDB in temp dirs, libp2p on 127.0.0.1) in four shards (protocols/gossip-v1.md
 * §11; `shardCount: 4`, as a network of 512 to 1,023 agents has). In the author's shard: the author
 * and the agents its memories' witnesses are drawn from. In a second: a follower of the author, a
 * follower of a tag and a witness the author addresses. In the other two: nodes that follow nothing. A memory reaches its shard, its author's follower and its tag's follower by gossip, and
 * no other node; a witness request reaches the witness it addresses in the other shard; the drawn
 * witnesses of the author's shard answer, and their answers reach the author; nothing of it reaches
 * the nodes outside.
 */

const COUNT = 4
const NODES = 12
const TAG = 'release-notes'

describe('twelve daemons in four shards (gossip-v1 §11)', () => {
  const homes: string[] = []
  const daemons: Daemon[] = []

  afterAll(async () => {
    await Promise.all(daemons.map(async (d) => { await d.stop() }))
    for (const h of homes) await rm(h, { recursive: true, force: true })
  })

  /** NODES homes: `authors` in shard 0, 3 in shard 1, the rest in shards 2 and 3 (keys are random: a few tries). */
  async function homesByShard (authors: number): Promise<{ zero: Home[], one: Home[], others: Home[] }> {
    const wanted = [authors, 3, NODES - authors - 3]
    const found: Home[][] = [[], [], []]
    while (found.some((list, i) => list.length < wanted[i]!)) {
      const h = await freshHome(homes)
      const side = Math.min(shardOf(h.agent, COUNT), 2)
      if (found[side]!.length < wanted[side]!) found[side]!.push(h)
    }
    const [zero, one, others] = found as [Home[], Home[], Home[]]
    return { zero, one, others }
  }

  it('keeps each shard\'s memories, requests and attestations within it, its followers and the witnesses it addresses', async () => {
    const { zero, one, others } = await homesByShard(4)
    const [authorHome] = zero
    const [followerHome, tagFollowerHome, witnessHome] = one
    const all = [...zero, ...one, ...others]
    const everyone = all.map((h) => h.agent)
    // Every node answers the author: drawn witnesses confirm what the draw chose them for, an addressed one its request.
    const options = { shardCount: COUNT, autoConfirmFrom: everyone }
    const [first, ...rest] = all
    const hub = await startOn(daemons, first!, options)
    const started = [hub, ...await Promise.all(rest.map(async (h) => await startOn(daemons, h, { ...options, bootstrap: [hub.daemon.multiaddrs()[0]!] })))]
    // Every node dials every other: a shard's nodes meet directly, as discovery would let them in time.
    // In rounds, each node taking one new inbound connection a round (a node takes 5 a second per IP).
    for (let round = 1; round <= NODES / 2; round++) {
      await Promise.all(started.map(async (a, i) => {
        const b = started[(i + round) % NODES]!
        await a.daemon.network.libp2p.dial(b.daemon.network.multiaddrs()[0]!).catch(() => undefined) // a dial that failed: the pair meets through others
      }))
    }
    const byHome = new Map(all.map((h, i) => [h.home, started[i]!]))
    const [author, follower, tagFollower, witness] = [authorHome!, followerHome!, tagFollowerHome!, witnessHome!].map((h) => byHome.get(h.home)!) as [Started, Started, Started, Started]
    const authorShard = zero.slice(1).map((h) => byHome.get(h.home)!)
    const outside = others.map((h) => byHome.get(h.home)!)

    await follower.ops.call('follow', { action: 'add', did: authorHome!.agent })
    await tagFollower.ops.call('follow', { action: 'add', tag: TAG })
    const memories = shardTopic(COUNT, 0, 'memories')
    await until(() => subscribed(author, follower, memories), 'the follower\'s subscription at the author', 30_000)
    await until(() => subscribed(author, tagFollower, tagTopic(TAG)), 'the tag follower\'s subscription at the author', 30_000)
    await until(() => subscribed(author, witness, shardTopic(COUNT, 1, 'witness-requests')), 'the witness\'s shard seen by the author', 30_000)
    for (const peer of authorShard) await until(() => subscribed(author, peer, memories), 'the author\'s shard meshed', 30_000)
    const memory = await author.ops.call('remember', { type: 'fact', summary: 'the release branch is cut on Thursdays', tags: [TAG] })
    await author.ops.call('requestWitnesses', { id: memory.id, to: [witnessHome!.agent] })

    // The author's shard and the author's follower hold it; the tag's follower hears it on the tag's topic.
    await Promise.all([...authorShard, follower, tagFollower].map(async (peer) => {
      await until(async () => (await heldOf(peer.ops, memory.id)).includes('memory') ? true : undefined, 'the memory at a node of its shard or a follower', 30_000)
    }))
    expect(tagFollower.daemon.network.stats.accepted.gossip).toBeGreaterThan(0)
    // The addressed witness in the other shard got the request (and answered it: below).
    await until(async () => (await heldOf(witness.ops, memory.id)).includes('witness_request') ? true : undefined, 'the request at the addressed witness')
    // The drawn witnesses of the author's shard answered, and the witness it addressed: their answers reach the author.
    const view = await until(async () => {
      const shown = await author.ops.call('show', { id: memory.id })
      const drawnInShard = shown.witnesses.filter((w) => w.draw !== undefined && shardOf(w.agent_id, COUNT) === 0)
      return drawnInShard.length >= 1 && shown.witnesses.some((w) => w.agent_id === witnessHome!.agent) ? shown : undefined
    }, 'drawn answers and the addressed witness\'s at the author', 30_000)
    // Drawn by gossip: only agents of the author's shard (the addressed witness's answer may carry a
    // draw of its own, made at its node's estimate: that node was asked, not reached by the shard).
    const drawnElsewhere = view.witnesses.filter((w) => w.draw !== undefined && shardOf(w.agent_id, COUNT) !== 0).map((w) => w.agent_id)
    expect(drawnElsewhere.filter((did) => did !== witnessHome!.agent)).toEqual([])
    // The follower, on the author's shard, holds the drawn answers too.
    await until(async () => (await heldOf(follower.ops, memory.id)).includes('attestation') ? true : undefined, 'the answers at the follower')

    // The nodes outside heard nothing of it: no memory, request or attestation, by gossip or otherwise.
    await sleep(1000)
    for (const peer of outside) {
      expect(await heldOf(peer.ops, memory.id)).toEqual([])
      expect(peer.daemon.network.stats.accepted.gossip).toBe(0)
    }
    const { gossip } = await author.ops.call('networkStats', {})
    expect(gossip.rejected).toBe(0)
  }, 120_000)
})
