import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { AttestationVerdict, TrustLevel } from '../../../src/schema/index.js'
import { createLevelRecordStore, type QueryHit, type TrustEntry } from '../../../src/record-index/index.js'
import { bottomOfLevel, computeTrust, levelRank, trustLevelOf, TRUST_LEVELS, TRUST_POLICY_NAMES, type TrustPolicyName } from '../../../src/trust/index.js'
import { anchorEvidence, attestationEvidence, memoryEvidence, NOW } from '../../unit/trust/fixtures.js'
import { createAgent, createMemory } from '../../fixtures/records.js'

/*
 * A seeded store of 1,000 memories (real LevelDB in a temp dir), each scored by computeTrust from
 * generated evidence under a generated policy and reputations: wherever the points and the evidence
 * disagree, the score is held within the level's band (docs/trust.md §1, "One scale"), so the index's
 * trust order never puts a lower level above a higher one, and a `minTrust` at a level's lower bound
 * (what `--min-level` asks) returns exactly the memories at that level or above.
 */

const MEMORIES = 1_000
const VERDICTS: readonly AttestationVerdict[] = ['confirm', 'confirm', 'dispute', 'partial']

const evidence = fc.record({
  policy: fc.constantFrom<TrustPolicyName>(...TRUST_POLICY_NAMES),
  authorReputation: fc.double({ min: 0, max: 1, noNaN: true }),
  witnesses: fc.array(fc.record({ verdict: fc.constantFrom(...VERDICTS), reputation: fc.double({ min: 0, max: 1, noNaN: true }) }), { maxLength: 5 }),
  anchors: fc.nat({ max: 2 })
})

type Evidence = typeof evidence extends fc.Arbitrary<infer T> ? T : never

function trustOf (e: Evidence): TrustEntry {
  const reputations = new Map(e.witnesses.map((w, i) => [`w${i}`, w.reputation]))
  const result = computeTrust({
    memory: memoryEvidence(),
    attestations: e.witnesses.map((w, i) => attestationEvidence({ id: `a${i}`, witness: `w${i}`, verdict: w.verdict })),
    anchors: Array.from({ length: e.anchors }, (_, i) => anchorEvidence({ id: `k${i}` })),
    reputation: (agent) => agent === 'author' ? e.authorReputation : reputations.get(agent) ?? 0,
    now: NOW
  }, { policy: e.policy })
  return { score: result.score, level: result.level, policy: result.policy, computed_at: result.computed_at }
}

describe('trust order in a seeded store of 1,000 memories', () => {
  it('never ranks a lower level above a higher one, and a level bound is a score bound', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'isnad-trust-order-'))
    const store = createLevelRecordStore({ location: join(dir, 'index') })
    await store.open()
    try {
      const author = createAgent(50)
      const cases = fc.sample(evidence, { numRuns: MEMORIES, seed: 1206 })
      const levels = new Map<string, TrustLevel>()
      for (let start = 0; start < MEMORIES; start += 250) {
        const records = cases.slice(start, start + 250).map((_, i) => createMemory(author, { summary: `seeded ${start + i}`, tags: ['seeded'] }))
        const trust = new Map(records.map((r, i) => [r.id, trustOf(cases[start + i] as Evidence)]))
        for (const [id, t] of trust) levels.set(id, t.level as TrustLevel)
        await store.putMany(records, trust)
      }
      // Every level occurs, and held scores (points above the level's band) are among them.
      expect(new Set(levels.values())).toEqual(new Set(TRUST_LEVELS))

      const all: QueryHit[] = []
      let cursor: string | undefined
      do {
        const page = await store.query({ tags: ['seeded'], limit: 300, ...(cursor === undefined ? {} : { cursor }) })
        all.push(...page.items)
        cursor = page.next
      } while (cursor !== undefined)
      expect(all).toHaveLength(MEMORIES)
      let inversions = 0
      for (let i = 1; i < all.length; i++) {
        if (levelRank(levels.get((all[i - 1] as QueryHit).id) as TrustLevel) < levelRank(levels.get((all[i] as QueryHit).id) as TrustLevel)) inversions++
      }
      expect(inversions, 'memories ranked above one of a higher level').toBe(0)
      for (const hit of all) expect(trustLevelOf(hit.trust), hit.id).toBe(levels.get(hit.id))

      for (const level of TRUST_LEVELS) {
        const bound = await store.query({ tags: ['seeded'], minTrust: bottomOfLevel(level), limit: 1000 })
        const expected = [...levels].filter(([, l]) => levelRank(l) >= levelRank(level)).map(([id]) => id).sort()
        expect(bound.items.map((h) => h.id).sort(), `min level ${level}`).toEqual(expected)
      }
      // --min-trust 0.5 (the walkthrough's bound) returns no Unverified memory.
      const half = await store.query({ tags: ['seeded'], minTrust: 0.5, limit: 1000 })
      expect(half.items.every((h) => levels.get(h.id) !== 'Unverified')).toBe(true)
    } finally {
      await store.close()
      await rm(dir, { recursive: true, force: true })
    }
  }, 180_000)
})
