import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt } from '../../fixtures/build-dist.js'
import { createAgent, createAttestation } from '../../fixtures/records.js'
import { runIsnad, withTempDir } from './run-cli.js'

/*
 * The trust CLI as a user runs it (dist/, child processes): trust roots, the policy setting,
 * `trust explain` with reputations and paths, `query --select`, and `verify` of the selection on a
 * machine with no data directory at all.
 */

interface Selected { ref: { worldId: string }, verified: boolean, evidence?: { proof: { memory: { record: { content: { summary: string } } } } } }

describe('isnad trust / query --select / verify', () => {
  beforeAll(() => { ensureBuilt() }, 120_000)

  it('roots, policy, explain, select with evidence, and verify offline', async () => {
    await withTempDir(async (dir) => {
      const home = join(dir, 'node')
      expect((await runIsnad(['init', '--json'], { home })).code).toBe(0)
      const me = (await runIsnad(['id', 'show', '--json'], { home })).json<{ did: string }>().did
      const friend = createAgent(40)

      // The node's own agent is a root without configuration, and the list says so.
      expect((await runIsnad(['trust', 'root', 'list', '--json'], { home })).json()).toEqual({ roots: [{ did: me, source: 'own-agent' }] })
      expect((await runIsnad(['trust', 'root', 'list'], { home })).stdout.trim()).toBe(`${me}  own agent of this node`)
      const added = await runIsnad(['trust', 'root', 'add', friend.did, '--json'], { home })
      expect(added.json<{ roots: Array<{ did: string, source: string }> }>().roots.map((r) => [r.did, r.source])).toEqual([[me, 'own-agent'], [friend.did, 'added']])
      // After adding a root, the own agent is still one.
      expect((await runIsnad(['trust', 'root', 'list', '--json'], { home })).json<{ roots: Array<{ did: string }> }>().roots.map((r) => r.did)).toEqual([me, friend.did])
      expect((await runIsnad(['trust', 'root', 'add', me, '--json'], { home })).errorCode()).toBe('ALREADY_EXISTS')
      expect((await runIsnad(['trust', 'root', 'remove', me, '--json'], { home })).errorCode()).toBe('USAGE')
      expect((await runIsnad(['trust', 'root', 'add', friend.did, '--json'], { home })).errorCode()).toBe('ALREADY_EXISTS')
      expect((await runIsnad(['trust', 'root', 'add', 'did:key:nope', '--json'], { home })).errorCode()).toBe('DID_INVALID')
      expect((await runIsnad(['trust', 'policy', 'isnad-reputation', '--json'], { home })).json()).toEqual({ trust_policy: 'isnad-reputation', rescored: 0 })
      // A second `isnad init` keeps the setting (it regenerates only what the code owns in _meta/policy.json).
      expect((await runIsnad(['init', '--json'], { home })).code).toBe(0)
      expect((await runIsnad(['trust', 'policy', '--json'], { home })).json()).toEqual({ trust_policy: 'isnad-reputation' })
      expect((await runIsnad(['trust', 'policy', 'no-such'], { home })).code).toBe(2)

      const memory = (await runIsnad(['remember', 'the canary takes 9 minutes', '--type', 'fact', '--tag', 'ops', '--json'], { home })).json<{ id: string }>().id
      // The root confirms it (imported: the friend's key is not in this home).
      const bundle = { format: 'isnad-bundle/v1', exported_at: '2026-02-06T00:00:00Z', records: [createAttestation(friend, memory, 'confirm', new Date().toISOString()).signed] }
      await writeFile(join(dir, 'attestation.json'), JSON.stringify(bundle))
      expect((await runIsnad(['import', join(dir, 'attestation.json')], { home })).code).toBe(0)

      const explain = await runIsnad(['trust', 'explain', memory, '--json'], { home })
      const explained = explain.json<{ policy: string, reputation: { agents: Record<string, { reputation: number, path: string[] | null }> } }>()
      expect(explained.policy).toBe('isnad-reputation')
      expect(explained.reputation.agents[friend.did]).toMatchObject({ reputation: 1, path: [friend.did] })
      // The node's own agent is a root without configuration; the explanation counts both kinds.
      expect(explained.reputation.agents[me]?.path).toEqual([me])
      expect((await runIsnad(['trust', 'explain', memory], { home })).stdout).toMatch(/reputation from 2 trust roots: 1 own agent of this node, 1 added by the operator/)

      const select = await runIsnad(['query', '--select', '--tag', 'ops', '--text', 'canary', '--json'], { home })
      expect(select.code, select.stderr).toBe(0)
      const selected = select.json<Selected[]>()
      expect(selected.map((s) => [s.ref.worldId, s.verified])).toEqual([[memory, true]])
      await writeFile(join(dir, 'selection.json'), select.stdout)
      // The trace event and the roots ledger pass the ledger audit.
      const audit = await runIsnad(['ledger', 'verify'], { home })
      expect(audit.code, audit.stdout + audit.stderr).toBe(0)

      // A machine with no data directory at all: an empty home, run from elsewhere.
      const empty = join(dir, 'elsewhere')
      const verified = await runIsnad(['verify', join(dir, 'selection.json'), '--json'], { home: empty })
      expect(verified.code, verified.stderr).toBe(0)
      expect(verified.json()).toMatchObject({ valid: true, document: 'fdr-selection' })
      const tampered = JSON.parse(await readFile(join(dir, 'selection.json'), 'utf8')) as Selected[]
      tampered[0]!.evidence!.proof.memory.record.content.summary = 'the canary takes 1 minute'
      await writeFile(join(dir, 'tampered.json'), JSON.stringify(tampered))
      const refused = await runIsnad(['verify', join(dir, 'tampered.json')], { home: empty })
      expect(refused.code).toBe(1)
      expect(refused.stdout).toMatch(/PROOF_INVALID/)

      expect((await runIsnad(['trust', 'root', 'remove', friend.did, '--json'], { home })).json()).toEqual({ roots: [{ did: me, source: 'own-agent' }] })
    })
  }, 120_000)
})
