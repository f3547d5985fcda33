import { appendFile, cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { nodeCryptoVerifier } from '../../../src/native/index.js'
import { createKeystore } from '../../../src/keys/index.js'
import { auditDataDir, executeRepair, planRepair, type AuditReport } from '../../../src/ledger/audit/index.js'
import { initHome, LocalNode, nodePaths, reindex } from '../../../src/node/index.js'
import { checkIndexAgainstLedger } from '../../../src/node/index-check.js'

/**
 * The damage matrix, fast form (issue 22, docs/threat-model.md "Damage matrix"): one real node home
 * (24 memories, attestations), each kind of damage done to a copy, then what the node must do:
 * `ledger verify` reports it with the finding kinds named here, `ledger repair` fixes it, and the
 * node's query answers are those from before the damage except the records whose own bytes were
 * destroyed, which the repair names. The long form is bench/damage-long.ts (kill -9 loops).
 */

const MEMORIES = 24

interface Damage {
  name: string
  /** Does the damage to the copy's data directory; returns the record ids whose bytes it destroyed. */
  apply: (dataDir: string) => Promise<string[]>
  /** Finding kinds `ledger verify` must report. */
  finds: string[]
}

async function streamShard (dataDir: string): Promise<string> {
  const root = join(dataDir, 'streams', 'default')
  const [instance] = await readdir(root)
  const dir = join(root, instance as string)
  const [day] = await readdir(dir)
  return join(dir, day as string)
}

async function viewShard (dataDir: string): Promise<string> {
  const dir = join(dataDir, 'views', 'facts', 'default')
  const [month] = await readdir(dir)
  return join(dir, month as string)
}

/** The index of the first line that carries a memory, and that memory's id. */
function memoryLine (lines: string[]): { index: number, id: string } {
  const index = lines.findIndex((l) => l.includes('"type":"memory.captured"'))
  const id = (JSON.parse(lines[index] as string) as { payload: { id: string } }).payload.id
  return { index, id }
}

const DAMAGES: Damage[] = [
  {
    name: 'a flipped byte in a streams/ line (a memory event)',
    finds: ['hash_mismatch'],
    apply: async (dataDir) => {
      const file = await streamShard(dataDir)
      const lines = (await readFile(file, 'utf8')).split('\n')
      const { index, id } = memoryLine(lines)
      lines[index] = (lines[index] as string).replace('"summary":"m', '"summary":"M')
      await writeFile(file, lines.join('\n'))
      return [id]
    }
  },
  {
    name: 'a garbage line in the middle of a streams/ shard',
    finds: ['json_invalid'],
    apply: async (dataDir) => {
      const file = await streamShard(dataDir)
      const lines = (await readFile(file, 'utf8')).split('\n')
      lines.splice(Math.floor(lines.length / 2), 0, 'garbage \u0000 not json')
      await writeFile(file, lines.join('\n'))
      return []
    }
  },
  {
    name: 'a torn tail on a streams/ shard',
    finds: ['torn_tail'],
    apply: async (dataDir) => { await appendFile(await streamShard(dataDir), '{"schema_version":"diasync-v1-ev'); return [] }
  },
  {
    name: 'a garbage line in a views/ shard',
    finds: ['json_invalid'],
    apply: async (dataDir) => { await appendFile(await viewShard(dataDir), 'not a view object\n'); return [] }
  },
  {
    name: 'a deleted index',
    finds: ['index_missing'],
    apply: async (dataDir) => { await rm(join(dataDir, 'index'), { recursive: true }); return [] }
  },
  {
    name: 'flipped bytes in a LevelDB table of the index',
    finds: ['index_corrupt'],
    apply: async (dataDir) => {
      const dir = join(dataDir, 'index', 'records')
      for (const name of (await readdir(dir)).filter((f) => f.endsWith('.ldb'))) {
        const bytes = await readFile(join(dir, name))
        for (let i = 10; i < bytes.length - 60; i += 37) bytes[i] = (bytes[i] as number) ^ 0xff
        await writeFile(join(dir, name), bytes)
      }
      return []
    }
  }
]

describe('the damage matrix (issue 22): each damage is found by verify and fixed by repair; answers are kept except the destroyed records', () => {
  let pristine: string
  let answers: string[]

  const audit = async (home: string): Promise<AuditReport> => await auditDataDir({
    dataDir: nodePaths(home).data, scope: 'default', verifier: nodeCryptoVerifier, now: Date.now,
    indexCheck: async (facts) => await checkIndexAgainstLedger(home, facts)
  })
  const query = async (home: string): Promise<string[]> => {
    const node = await LocalNode.open({ home, mode: 'read' })
    try {
      return (await node.store.query({ limit: 1000 })).items.map((i) => i.id).sort()
    } finally {
      await node.close()
    }
  }

  beforeAll(async () => {
    pristine = await mkdtemp(join(tmpdir(), 'isnad-damage-'))
    await initHome(pristine)
    const keystore = createKeystore({ directory: join(pristine, 'keys') })
    const author = await keystore.load(await keystore.defaultDid() as string)
    const witness = await keystore.load((await keystore.create({ label: 'witness' })).did)
    // distinct keystore entry for the witness; the node attests with it
    const node = await LocalNode.open({ home: pristine })
    try {
      for (let k = 0; k < MEMORIES; k++) {
        const view = await node.remember({ type: 'fact', summary: `m${k}`, tags: ['matrix'] }, author)
        if (k % 3 === 0) await node.attest({ memory: view.id, verdict: 'confirm' }, witness)
      }
    } finally {
      await node.close()
    }
    answers = await query(pristine)
    expect(answers).toHaveLength(MEMORIES)
    expect((await audit(pristine)).status).toBe('healthy')
  }, 120_000)
  afterAll(async () => { await rm(pristine, { recursive: true, force: true }) })

  for (const damage of DAMAGES) {
    it(damage.name, async () => {
      const home = await mkdtemp(join(tmpdir(), 'isnad-damage-case-'))
      try {
        await cp(pristine, home, { recursive: true })
        const destroyed = await damage.apply(nodePaths(home).data)
        const found = await audit(home)
        expect(found.status, damage.name).not.toBe('healthy')
        for (const kind of damage.finds) expect(found.findings.map((f) => f.kind), damage.name).toContain(kind)

        const plan = planRepair(found, { now: Date.now })
        const outcome = await executeRepair(plan, { dataDir: nodePaths(home).data, reindex: async () => { await reindex(home) } })
        expect(outcome.executions.filter((e) => e.status === 'failed'), damage.name).toEqual([])
        // the records whose bytes were destroyed are named by the repair
        const details = outcome.executions.map((e) => e.detail).join('\n')
        for (const id of destroyed) expect(details, damage.name).toContain(id)

        expect(await query(home), damage.name).toEqual(answers.filter((id) => !destroyed.includes(id)))
        const after = await audit(home)
        // nothing destroyed: healthy; a destroyed event: only the hole it left, explained by the set-aside file
        if (destroyed.length === 0) expect(after.findings, damage.name).toEqual([])
        else expect(after.errors, damage.name).toBe(0)
      } finally {
        await rm(home, { recursive: true, force: true })
      }
    }, 120_000)
  }
})
