import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import type { TrustRoot } from '../../../src/reputation/index.js'
import { ensureBuilt } from '../../fixtures/build-dist.js'
import { checkedExplanation, expectTrustOrder, type Item } from './checked-explanation.js'
import { createAgent, createAttestation } from '../../fixtures/records.js'
import { runIsnad, withTempDir } from './run-cli.js'

/*
 * The README's five-minute walkthrough as a user runs it (dist/, child processes, LevelDB in a temp
 * home): every `trust explain` it prints is checked line by line against the `--json` fields it was
 * printed from (test/fixtures/explanation-checker.ts), the score and the level name the same band
 * (docs/trust.md §1, "One scale"), and `query` never puts a lower level above a higher one.
 */

describe('one trust scale, in the README walkthrough', () => {
  beforeAll(() => { ensureBuilt() }, 180_000)

  it('explains truthfully, keeps score and level together, and orders and filters by the one scale', async () => {
    await withTempDir(async (dir) => {
      const alice = join(dir, 'alice')
      expect((await runIsnad(['init'], { home: alice })).code).toBe(0)
      const me = (await runIsnad(['id', 'show', '--json'], { home: alice })).json<{ did: string }>().did
      const bob = (await runIsnad(['id', 'new', '--label', 'bob', '--quiet'], { home: alice })).stdout.trim()
      const remember = async (summary: string): Promise<string> =>
        (await runIsnad(['remember', summary, '--type', 'insight', '--tag', 'memory', '--quiet'], { home: alice })).stdout.trim()
      const m = await remember('Memory synthesis is harder than memory storage')
      const lone = await remember('nobody witnessed this one')

      // Both of the node's agents are roots, and every surface says so.
      expect((await runIsnad(['trust', 'root', 'list', '--json'], { home: alice })).json<{ roots: TrustRoot[] }>().roots)
        .toEqual([{ did: me, source: 'own-agent' }, { did: bob, source: 'own-agent' }])
      const before = await checkedExplanation(alice, m)
      expect(before).toMatchObject({ score: 0.2999, points: 0.4, level: 'Unverified', reputation: { roots: [{ did: me }, { did: bob }] } })
      expect((await runIsnad(['show', m], { home: alice })).stdout).toMatch(/trust 0\.29 Unverified/)

      expect((await runIsnad(['attest', m, 'confirm', '--as', bob, '--quiet'], { home: alice })).code).toBe(0)
      const after = await checkedExplanation(alice, m)
      expect(after).toMatchObject({ score: 0.5999, points: 0.6, level: 'Attested' })
      expect(after.reputation.agents[bob]).toMatchObject({ root: true, reputation: 1 })

      // Query: most trusted first, never a lower level above a higher; the bounds keep to the scale.
      const page = (await runIsnad(['query', '--json'], { home: alice })).json<{ items: Item[] }>().items
      expect(page.map((i) => [i.id, i.level])).toEqual([[m, 'Attested'], [lone, 'Unverified']])
      expectTrustOrder(page)
      const atLeast = async (...args: string[]): Promise<string[]> => (await runIsnad(['query', ...args, '--json'], { home: alice })).json<{ items: Item[] }>().items.map((i) => i.id)
      expect(await atLeast('--min-trust', '0.5')).toEqual([m])
      expect(await atLeast('--min-trust', '0.3')).toEqual([m])
      expect(await atLeast('--min-level', 'Attested')).toEqual([m])
      expect(await atLeast('--min-level', 'Anchored')).toEqual([])
      expect(await atLeast('--min-level', 'Unverified')).toEqual([m, lone])
      expect((await runIsnad(['query', '--min-level', 'Trusted'], { home: alice })).code).toBe(2)
      expect((await runIsnad(['query', '--tag', 'memory', '--min-trust', '0.5'], { home: alice })).stdout).toMatch(/^0\.59 Attested /)

      // After adding a root, the own agents are still roots.
      const friend = createAgent(43)
      expect((await runIsnad(['trust', 'root', 'add', friend.did], { home: alice })).code).toBe(0)
      const rooted = await checkedExplanation(alice, m)
      expect(rooted.reputation.roots.map((r) => [r.did, r.source])).toEqual([[me, 'own-agent'], [bob, 'own-agent'], [friend.did, 'added']])

      // Carol's node: no path from its roots to Alice or Bob; its explanation says so, and only so.
      const bundle = join(dir, 'memory.bundle.json')
      expect((await runIsnad(['export', m, '--out', bundle], { home: alice })).code).toBe(0)
      const carol = join(dir, 'carol')
      expect((await runIsnad(['init'], { home: carol })).code).toBe(0)
      expect((await runIsnad(['import', bundle], { home: carol })).code).toBe(0)
      const far = await checkedExplanation(carol, m)
      expect(far).toMatchObject({ level: 'Unverified', insufficient: { code: 'NO_PATH' } })
      expect(far.reputation.agents[bob]).toMatchObject({ root: false, reputation: 0 })

      // A stranger's confirm imported on Carol's node: accepted, weighed, and said to be too light.
      const stranger = createAgent(44)
      await writeFile(join(dir, 'att.json'), JSON.stringify({ format: 'isnad-bundle/v1', exported_at: '2026-02-06T00:00:00Z', records: [createAttestation(stranger, m, 'confirm', new Date().toISOString()).signed] }))
      expect((await runIsnad(['import', join(dir, 'att.json')], { home: carol })).code).toBe(0)
      await checkedExplanation(carol, m)
    })
  }, 480_000)
})
