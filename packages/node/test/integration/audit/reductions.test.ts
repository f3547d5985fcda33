import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createKeystore } from '../../../src/keystore/index.js'
import { nodeCryptoVerifier } from '../../../src/fast-crypto/index.js'
import {
  auditDataDir, executeRepair, planRepair, restoreSetAside, SetAsideLineSchema, type AuditFinding, type AuditReport
} from '../../../src/ledger/audit/index.js'
import { buildReductionRound, objectIdOf, withHash } from '../../../src/ledger/object-views/index.js'
import { initHome, LocalNode, reindex } from '../../../src/node/index.js'
import { nodePaths } from '../../../src/home/index.js'
import { runLedgerCli } from './ledger-cli.js'
import { reduceViewsAgain } from '../../../src/node/audit/view-repair.js'

/**
 * `ledger verify` against coordination/reducers.jsonl (docs/views.md, "Reductions"), `ledger repair`
 * and `ledger restore` on a real home: a view line rewritten with a valid hash is a state no reducer
 * line names and leaves its own state unreproduced; repair sets it aside and the node reduces the
 * memory again, which writes the original line back; restore can put the set-aside line back; a
 * state of an object no memory has stays reported after repair.
 */
describe('the views against the reducer lines: verify, repair, restore', () => {
  let pristine: string
  let memory: string
  let object: string

  beforeAll(async () => {
    pristine = await mkdtemp(join(tmpdir(), 'isnad-reductions-'))
    await initHome(pristine)
    const keystore = createKeystore({ directory: join(pristine, 'keys') })
    const author = await keystore.load(await keystore.defaultDid() as string)
    const witness = await keystore.load((await keystore.create({ label: 'witness' })).did)
    const node = await LocalNode.open({ home: pristine })
    try {
      memory = (await node.remember({ type: 'fact', summary: 'the views follow the reducer lines' }, author)).id
      await node.attest({ memory, verdict: 'confirm' }, witness)
      await node.remember({ type: 'decision', summary: 'another object' }, author)
    } finally {
      await node.close()
    }
    object = objectIdOf('fact', memory)
  }, 60_000)
  afterAll(async () => { await rm(pristine, { recursive: true, force: true }) })

  async function copy (): Promise<{ home: string, dataDir: string, facts: string, [Symbol.asyncDispose]: () => Promise<void> }> {
    const home = await mkdtemp(join(tmpdir(), 'isnad-reductions-case-'))
    await cp(pristine, home, { recursive: true })
    const dataDir = nodePaths(home).data
    const month = (await readdir(join(dataDir, 'views', 'facts', 'default')))[0] as string
    return { home, dataDir, facts: join(dataDir, 'views', 'facts', 'default', month), [Symbol.asyncDispose]: async () => { await rm(home, { recursive: true, force: true }) } }
  }

  const linesOf = async (file: string): Promise<string[]> => (await readFile(file, 'utf8')).split('\n').filter((l) => l.length > 0)
  const audit = async (home: string): Promise<AuditReport> => await auditDataDir({ dataDir: nodePaths(home).data, scope: 'default', verifier: nodeCryptoVerifier, now: Date.now })
  const kinds = (findings: readonly AuditFinding[]): string[] => findings.map((f) => f.kind).sort()

  const run = runLedgerCli

  it('a rewritten object line: verify names the state it no longer reproduces, repair writes the original line again', async () => {
    await using c = await copy()
    const original = await linesOf(c.facts)
    const newest = original.length - 1
    const forged = JSON.stringify(withHash({ ...JSON.parse(original[newest] as string) as Record<string, unknown>, summary: 'what the memory never said' }))
    await writeFile(c.facts, [...original.slice(0, newest), forged, ''].join('\n'))

    const verify = await run(c.home, 'ledger', 'verify')
    expect(verify.code).toBe(1)
    const found = verify.json<{ findings: AuditFinding[] }>().findings
    expect(found).toMatchObject([{ kind: 'reduction_unresolved', file: 'coordination/reducers.jsonl', refs: [expect.stringMatching(/^red_/), object, memory] }])

    const repair = await run(c.home, 'ledger', 'repair')
    expect(repair.code).toBe(0)
    const outcome = repair.json<{ plan: { actions: Array<{ kind: string }> }, executions: Array<{ status: string, detail: string }>, after: { status: string } }>()
    expect(outcome.plan.actions).toEqual([{ kind: 'reduce_views', memories: [memory], objects: [], settle: [found[0]?.refs?.[0]] }])
    expect(outcome.executions).toMatchObject([{ status: 'done', detail: expect.stringContaining('reduced 1 memory again') }])
    expect(outcome.after.status).toBe('healthy')
    // the memory reduced again gives the line it gave before, byte for byte: the newest line again
    expect(await linesOf(c.facts)).toEqual([...original.slice(0, newest), forged, original[newest]])
  }, 120_000)

  it('a line appended that no reduction names: set aside by repair, and verify names it again if restored', async () => {
    await using c = await copy()
    const original = await linesOf(c.facts)
    const forged = JSON.stringify(withHash({ ...JSON.parse(original.at(-1) as string) as Record<string, unknown>, summary: 'what the memory never said' }))
    await writeFile(c.facts, [...original, forged, ''].join('\n'))

    const found = await audit(c.home)
    expect(found.findings).toMatchObject([{ kind: 'reduction_unrecorded', line: original.length + 1, refs: [object, JSON.parse(forged).hash, memory] }])
    const plan = planRepair(found, { now: Date.now })
    expect(plan.actions.map((a) => a.kind)).toEqual(['set_aside', 'reindex', 'reduce_views'])
    const repair = { dataDir: c.dataDir, reindex: async () => { await reindex(c.home) }, reduceViews: async (action: Parameters<typeof reduceViewsAgain>[1]) => await reduceViewsAgain(c.home, action) }
    expect((await executeRepair(plan, repair)).executions.map((e) => e.status)).toEqual(['done', 'done', 'done'])
    expect(await linesOf(c.facts)).toEqual(original)
    expect((await audit(c.home)).findings).toEqual([])
    const aside = join(c.dataDir, 'archive', 'quarantine', 'lines', c.facts.slice(c.dataDir.length + 1))
    expect(SetAsideLineSchema.parse(JSON.parse(await readFile(aside, 'utf8')))).toMatchObject({ line: original.length + 1, text: forged })
    // the same plan run again sets nothing aside: the line there now is another one
    expect((await executeRepair(plan, repair)).executions[0]?.detail).toContain('not where the plan saw them')
    expect(await linesOf(c.facts)).toEqual(original)

    // restore does not launder it: back in its place, the newest line again, and named again
    await restoreSetAside({ dataDir: c.dataDir, file: aside })
    expect(await linesOf(c.facts)).toEqual([...original, forged])
    expect(kinds((await audit(c.home)).findings)).toEqual(['reduction_unrecorded'])
  }, 120_000)

  it('a flipped byte in the newest object line: set aside, the line written again by repair, and once fixed restored beside it', async () => {
    await using c = await copy()
    const original = await linesOf(c.facts)
    const newest = original.length - 1
    const line = original[newest] as string
    const at = line.indexOf('"hash":"sha256:') + 20
    const flipped = `${line.slice(0, at)}${line[at] === 'a' ? 'b' : 'a'}${line.slice(at + 1)}`
    await writeFile(c.facts, [...original.slice(0, newest), flipped, ''].join('\n'))

    const found = await audit(c.home)
    expect(kinds(found.findings)).toEqual(['hash_mismatch', 'reduction_unresolved'])
    const plan = planRepair(found, { now: Date.now })
    expect(plan.unresolved).toEqual([])
    // every unresolved state is settled by the plan; this one is reproduced outright
    const lost = found.findings.find((f) => f.kind === 'reduction_unresolved')?.refs?.[0]
    expect(plan.actions.at(-1)).toEqual({ kind: 'reduce_views', memories: [memory], objects: [], settle: [lost] })
    const outcome = await executeRepair(plan, {
      dataDir: c.dataDir, reindex: async () => { await reindex(c.home) }, reduceViews: async (action) => await reduceViewsAgain(c.home, action)
    })
    expect(outcome.executions.map((e) => e.status)).toEqual(['done', 'done', 'done'])
    expect((await audit(c.home)).findings).toEqual([])
    expect(await linesOf(c.facts)).toEqual(original)

    // a person fixes the set-aside text; restore puts it back where it was, beside its rewritten twin
    const aside = join(c.dataDir, 'archive', 'quarantine', 'lines', c.facts.slice(c.dataDir.length + 1))
    const entry = SetAsideLineSchema.parse(JSON.parse(await readFile(aside, 'utf8')))
    await writeFile(aside, `${JSON.stringify({ ...entry, text: line })}\n`)
    await restoreSetAside({ dataDir: c.dataDir, file: aside })
    expect((await audit(c.home)).findings).toEqual([])
  }, 120_000)

  it('a reducer line naming an object no memory has: repair cannot reproduce it and verify keeps naming it', async () => {
    await using c = await copy()
    const shard = c.facts.slice(c.dataDir.length + 1)
    const ghost = objectIdOf('fact', 'bafyreiaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa')
    const reduction = 'red_aaaaaaaaaaaaaaaaaaaaaaaaaa'
    const reducers = join(c.dataDir, 'coordination', 'reducers.jsonl')
    await writeFile(reducers, `${await readFile(reducers, 'utf8')}${JSON.stringify(buildReductionRound([{ shard, object: ghost, reduction }], new Date().toISOString()))}\n`)

    const found = await audit(c.home)
    expect(found.findings).toMatchObject([{ kind: 'reduction_unresolved', refs: [reduction, ghost] }])
    expect(found.findings[0]?.message).toContain(reduction)
    const plan = planRepair(found, { now: Date.now })
    expect(plan.actions).toEqual([{ kind: 'reduce_views', memories: [], objects: [ghost], settle: [reduction] }])
    const outcome = await executeRepair(plan, { dataDir: c.dataDir, reindex: async () => {}, reduceViews: async (action) => await reduceViewsAgain(c.home, action) })
    expect(outcome.executions[0]?.detail).toContain(`not in the store, their views stay as they are: ${ghost}`)
    // settled by the plan, but no later state of the object stands for it
    expect((await audit(c.home)).findings).toMatchObject([{ kind: 'reduction_unresolved', refs: [reduction, ghost] }])
  }, 120_000)
})
