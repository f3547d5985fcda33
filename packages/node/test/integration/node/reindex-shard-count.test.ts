import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Level } from 'level'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { proveDraw } from '../../../src/draw/index.js'
import { nodePaths } from '../../../src/home/index.js'
import { createKeystore } from '../../../src/keystore/index.js'
import { createNode } from '../../../src/library.js'
import { LocalNode, changeTrustRoot, initHome, setTrustPolicy } from '../../../src/node/index.js'
import { LocalOperations } from '../../../src/operations/local/index.js'
import { encodeSignature, signRecord } from '../../../src/record/index.js'
import { shardCountFor, shardOf } from '../../../src/shard/index.js'
import type { AttestationRecord, TrustResult } from '../../../src/schema/index.js'
import { createAgent, createAttestation, createMemory, type TestAgent } from '../../fixtures/records.js'
import { confirmedByRoot } from '../../fixtures/reputable.js'
import { runIsnad } from '../cli/run-cli.js'

/*
 * `isnad ledger reindex` scores memories with the shard count the daemon would run with on the same
 * home (witness-draw-v1 W12), on a real home (LevelDB, ledger) and the built CLI: the home's
 * `shard-count` setting, else the command's --shard-count, else the count of N̂. A home of 4 agents
 * (N̂ = 4, whose own count is 1) holds a memory whose witness was drawn within 4 shards (a real
 * ECVRF draw, its witness in the author's shard under 4): the daemon set to 4 shards counts it
 * (Attested), a node whose count follows N̂ refuses it. A command that opens the node itself
 * (`trust explain`) takes the home's setting too; the daemon's own reindex (LocalOperations, what
 * POST /v1/ledger/reindex runs) keeps the daemon's count, and the library's node the count it was given.
 */

const COUNT = 4
const NOW = Date.parse('2026-03-01T00:00:00Z')
/** @default 120000 — each case runs the built CLI as child processes, a few seconds each on a loaded machine. */
const CLI_CASE_MS = 120_000

describe('ledger reindex under a set shard count', () => {
  let home: string
  let memoryId = ''
  let drawnId = ''
  /** What the daemon set to 4 shards stores and explains, and what a node whose count follows N̂ does. */
  let daemon: TrustResult
  let derived: TrustResult
  let now = NOW
  const clock = (): number => now
  const at = (ms: number): string => new Date(ms).toISOString()
  // No $ISNAD_SHARD_COUNT from the environment the tests run in: the home's file alone sets the count.
  const env = { ISNAD_SHARD_COUNT: '' }

  /** The witness's confirm of `memory`, drawn within COUNT shards at `population`, signed. */
  function drawnConfirm (witness: TestAgent, memory: string, population: number): ReturnType<typeof createAttestation> {
    const record: AttestationRecord = {
      kind: 'attestation', version: 1, memory, witness: witness.did, attestation: 'confirm', witnessed_at: at(now),
      draw: { population, shards: COUNT, proof: encodeSignature(proveDraw(witness.secretKey, memory, population).proof) }
    }
    return signRecord(record, witness.secretKey)
  }

  async function explainedAt (shardCount?: number): Promise<TrustResult> {
    const node = await LocalNode.open({ home, clock, mode: 'read', shardCount })
    try {
      return await node.explainTrust(memoryId)
    } finally {
      await node.close()
    }
  }

  async function storedLevel (): Promise<string | undefined> {
    const node = await LocalNode.open({ home, clock, mode: 'read' })
    try {
      return (await node.store.getTrust(memoryId))?.level
    } finally {
      await node.close()
    }
  }

  async function reindexWith (args: string[]): Promise<void> {
    const result = await runIsnad(['--json', 'ledger', 'reindex', ...args], { home, env })
    expect(result.code, result.stderr).toBe(0)
  }

  beforeAll(async () => {
    home = await mkdtemp(join(tmpdir(), 'isnad-reindex-shards-'))
    await initHome(home)
    const dataDir = join(home, '.memory')
    const root = createAgent(91)
    const author = createAgent(92)
    let witness = createAgent(93)
    for (let n = 94; shardOf(witness.did, COUNT) !== shardOf(author.did, COUNT); n++) witness = createAgent(n)
    await changeTrustRoot(dataDir, 'added', root.did, now)
    await setTrustPolicy(dataDir, 'isnad-draw')
    const node = await LocalNode.open({ home, clock })
    try {
      // The root confirms the witness's and the author's memories: both are reputable at this node.
      now = await confirmedByRoot(node, root, [witness, author], now)
      // The node's own agent, the root, the witness and the author: N̂ = 4, whose own count is 1.
      expect(await node.trust.populationEstimate()).toBe(4)
      expect(shardCountFor(4)).toBe(1)
      const memory = createMemory(author, { summary: 'the queue drains in 4 minutes', created_at: at(now) })
      await node.ingest([memory.signed])
      now += 60_000
      // A shard's population: max(1, ⌊4 / 4⌋) = 1, below the draw's size, so the witness is drawn.
      expect(proveDraw(witness.secretKey, memory.id, 1).drawn).toBe(true)
      const drawn = drawnConfirm(witness, memory.id, 1)
      await node.ingest([drawn.signed])
      memoryId = memory.id
      drawnId = drawn.id
    } finally {
      await node.close()
    }
    daemon = await explainedAt(COUNT)
    derived = await explainedAt()
  })
  afterAll(async () => { await rm(home, { recursive: true, force: true }) })

  it('the daemon set to 4 shards counts the drawn witness; a count that follows N̂ refuses it', () => {
    expect(daemon.level).toBe('Attested')
    expect(daemon.witness_selection).toMatchObject({ drawn: 1 })
    expect(daemon.counted.attestations.find((a) => a.id === drawnId)?.note).toMatch(/witness drawn for this memory$/)
    expect(derived.level).not.toBe('Attested')
    expect(derived.witness_selection).toMatchObject({ drawn: 0 })
  })

  it('stores the daemon\'s level when the home sets shard-count 4, and the N̂-derived one when nothing sets it', async () => {
    await reindexWith([])
    expect(await storedLevel()).toBe(derived.level)

    const set = await runIsnad(['config', 'set', 'shard-count', String(COUNT)], { home, env })
    expect(set.code, set.stderr).toBe(0)
    await reindexWith([])
    expect(await storedLevel()).toBe(daemon.level)

    const unset = await runIsnad(['config', 'unset', 'shard-count'], { home, env })
    expect(unset.code, unset.stderr).toBe(0)
    await reindexWith([])
    expect(await storedLevel()).toBe(derived.level)
  }, CLI_CASE_MS)

  it('a command that opens the node itself (`trust explain`) scores with the home\'s setting too', async () => {
    const explain = async (): Promise<string> => {
      const result = await runIsnad(['--json', 'trust', 'explain', memoryId], { home, env })
      expect(result.code, result.stderr).toBe(0)
      return result.json<TrustResult>().level
    }
    expect(await explain()).toBe(derived.level)
    await runIsnad(['config', 'set', 'shard-count', String(COUNT)], { home, env })
    try {
      expect(await explain()).toBe(daemon.level)
    } finally {
      await runIsnad(['config', 'unset', 'shard-count'], { home, env })
    }
  }, CLI_CASE_MS)

  it('--shard-count scores with its count, over the home\'s setting', async () => {
    await reindexWith(['--shard-count', String(COUNT)])
    expect(await storedLevel()).toBe(daemon.level)

    await runIsnad(['config', 'set', 'shard-count', String(COUNT)], { home, env })
    try {
      // The count of N̂ = 4, named on the command line, wins over the file's 4.
      await reindexWith(['--shard-count', '1'])
      expect(await storedLevel()).toBe(derived.level)
    } finally {
      await runIsnad(['config', 'unset', 'shard-count'], { home, env })
    }

    // Refused as `isnad start --shard-count 3` is: USAGE, before anything is opened.
    const bad = await runIsnad(['--json', 'ledger', 'reindex', '--shard-count', '3'], { home, env })
    expect(bad.code).toBe(2)
    expect(bad.errorCode()).toBe('USAGE')
    expect(bad.stderr).toMatch(/--shard-count must be a power of two from 1 to 4096/)
  }, CLI_CASE_MS)

  it('the daemon\'s reindex (the operation POST /v1/ledger/reindex runs) keeps the count the daemon was set to', async () => {
    await reindexWith([])
    expect(await storedLevel()).toBe(derived.level)
    const keystore = createKeystore({ directory: join(home, 'keys') })
    const ops = new LocalOperations({ node: await LocalNode.open({ home, clock, shardCount: COUNT }), home, keystore })
    try {
      // A count other than the one the running node scores with is refused before the node is closed.
      await expect(ops.reindex({ shardCount: 8 })).rejects.toMatchObject({ code: 'USAGE' })
      expect((await ops.status()).records.memory).toBeGreaterThan(0)
      await ops.reindex({ shardCount: COUNT })
      // The node reopened after the rebuild keeps the count too.
      expect((await ops.explainTrust(memoryId)).level).toBe('Attested')
    } finally {
      await ops.close()
    }
    expect(await storedLevel()).toBe(daemon.level)
  }, CLI_CASE_MS)

  it('an index of an older layout, rebuilt when the node opens, is scored with the count the node is opened with', async () => {
    await reindexWith([])
    expect(await storedLevel()).toBe(derived.level)
    // What the layout before versions left: no format key, so the store refuses it and the node rebuilds it.
    const raw = new Level<string, string>(join(nodePaths(home).index, 'records'))
    await raw.del('!meta!format')
    await raw.close()
    const node = await LocalNode.open({ home, clock, shardCount: COUNT })
    await node.close()
    expect(await storedLevel()).toBe(daemon.level)
  }, CLI_CASE_MS)

  it('the library\'s node opened with a shard count reindexes with it; one that is not a power of two is USAGE', async () => {
    await reindexWith([])
    const node = await createNode({ home, connect: 'local', init: false, shardCount: COUNT })
    try {
      await node.reindex({})
      expect((await node.explainTrust({ id: memoryId })).level).toBe('Attested')
    } finally {
      await node.close()
    }
    expect(await storedLevel()).toBe(daemon.level)
    await expect(createNode({ home, connect: 'local', init: false, shardCount: 3 })).rejects.toMatchObject({ code: 'USAGE' })
  }, CLI_CASE_MS)
})
