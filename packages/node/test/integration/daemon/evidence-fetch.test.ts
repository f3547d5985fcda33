import { afterEach, describe, expect, it } from 'vitest'
import { explanationLines, type TrustResult } from '../../../src/trust/index.js'
import { eventually } from '../../fixtures/eventually.js'
import { ShardedDaemons } from '../../fixtures/sharded-daemons.js'

/*
 * Trust on partial knowledge (docs/trust.md §3a) between real daemons over libp2p on 127.0.0.1,
 * LevelDB in temp dirs, the network forced into 4 shards. A holder stores everything: an author's
 * memory (shard 1) confirmed by a witness of shard 2, and the witness's own memories (shard 2)
 * confirmed by an agent the observer's operator trusts. The observer holds shard 1 only: it scores
 * the memory with the witness's confirm weighing nothing, says the witness's evidence is not held
 * and fetches it (sync by interest, the witness as an author interest); then the root's confirms
 * of the witness's memories are held, the witness has reputation, and the score and the
 * explanation change.
 */

const nodes = new ShardedDaemons(4, 'isnad-evidence-')

afterEach(async () => { await nodes.close() })

function evidenceText (trust: TrustResult): string[] {
  return explanationLines(trust).filter((l) => l.kind === 'evidence').map((l) => l.text)
}

describe('trust on partial knowledge (docs/trust.md §3a)', () => {
  it('says whose evidence is not held, fetches it from a peer, and the score and explanation change', async () => {
    const holder = await nodes.startIn(0)
    const [author, witness, trusted] = [await nodes.agentIn(holder, 1), await nodes.agentIn(holder, 2), await nodes.agentIn(holder, 3)]
    const memory = (await holder.ops.call('remember', { type: 'fact', summary: 'the backup job runs at two', tags: [], as: author })).id
    await holder.ops.call('attest', { id: memory, verdict: 'confirm', as: witness })
    // The witness's own record, in its shard: memories the trusted agent confirmed.
    for (const summary of ['the build cache lives on the second disk', 'the on-call rota changes on mondays']) {
      const own = (await holder.ops.call('remember', { type: 'fact', summary, tags: [], as: witness })).id
      await holder.ops.call('attest', { id: own, verdict: 'confirm', as: trusted })
    }

    // The observer holds shard 1 only, and trusts the agent of shard 3.
    const observer = await nodes.startIn(1, { maxShards: 1 })
    await observer.ops.call('addTrustRoot', { did: trusted })
    await observer.ops.call('connectPeer', { address: holder.daemon.multiaddrs()[0]! })
    // Held without scoring it (a score asks for what it lacks): the memory and its confirm, by sync of shard 1.
    await eventually('the memory and its confirm', async () => (await observer.ops.call('exportBundle', { ids: [memory] })).records.length, (n) => n === 2)
    expect((await observer.ops.call('reputation', { did: witness })).reputation).toBe(0)

    const before = await observer.ops.call('explainTrust', { id: memory })
    expect(before.evidence).toEqual([{ agent: witness, held: 1, state: 'fetching' }])
    expect(evidenceText(before)).toEqual([`evidence for ${witness} not held: reputation from 1 record; fetching`])

    const after = await eventually('the witness\'s evidence fetched', async () => await observer.ops.call('explainTrust', { id: memory }),
      (t) => t.evidence?.[0]?.state === 'fetched' && (t.evidence[0].held ?? 0) >= 3)
    expect(after.evidence?.[0]).toMatchObject({ agent: witness, state: 'fetched', held: 3, fetched: 2 })
    expect(evidenceText(after)).toEqual([`evidence for ${witness} fetched at ${after.evidence?.[0]?.fetched_at}: 2 records brought, reputation from 3 records`])
    expect((await observer.ops.call('reputation', { did: witness })).reputation).toBeGreaterThan(0)
    expect(after.points).toBeGreaterThan(before.points ?? 0)
    // The author's shard is held: only the witness was ever missing.
    expect(after.evidence?.some((e) => e.agent === author)).toBe(false)
  })
})
