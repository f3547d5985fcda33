import { appendFile, cp, mkdtemp, readdir, readFile, rm, truncate, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Level } from 'level'
import type { CID } from 'multiformats/cid'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { blockKeyOf, blockLinks, parseCid } from '../../../src/anchor/index.js'
import { nodeCryptoVerifier } from '../../../src/fast-crypto/index.js'
import { createKeystore } from '../../../src/keystore/index.js'
import { auditDataDir, executeRepair, planRepair, writeAuditResults, type AuditReport } from '../../../src/ledger/audit/index.js'
import { withHash } from '../../../src/ledger/object-views/index.js'
import { checkBlockstore } from '../../../src/node/audit/block-check.js'
import { repairBlocks } from '../../../src/node/audit/block-repair.js'
import { salvageLostRecords } from '../../../src/node/audit/record-salvage.js'
import { reduceViewsAgain } from '../../../src/node/audit/view-repair.js'
import { initHome, LocalNode, reindex } from '../../../src/node/index.js'
import { nodePaths } from '../../../src/home/index.js'
import { checkIndexAgainstLedger } from '../../../src/node/audit/index-check.js'

/**
 * The damage matrix, fast form (docs/threat-model.md "Damage to the data directory"):
 * one real node home (memories of three types, attestations, witness requests on the bus, a file
 * anchor whose blocks are in evidence/blocks), verified once (so a scorecard holds the high-water
 * marks, as on a node whose operator ran `ledger verify`), then each kind of damage done to a copy:
 * `ledger verify` must report it with the finding kinds named here, `ledger repair` must carry out
 * its plan without a failed action, and the query answers afterwards must be those from before the
 * damage except for the records whose own bytes were destroyed, which verify or repair names. A
 * record whose ledger event was destroyed while its bytes can still be read where the index
 * locates them is saved and imported again by repair, so its answers come back too (`salvaged`). The long form is
 * bench/damage-long.ts (kill -9 loops).
 */

const MEMORIES = 12
/** Bigger than one UnixFS chunk (256 KiB): a dag-pb root and three raw leaves. */
const EVIDENCE_BYTES = 600_000
const TYPES = ['fact', 'decision', 'commitment'] as const

interface Pristine {
  memories: string[]
  /** Every record id in the ledger (memories, attestations, witness requests, the anchor). */
  records: string[]
  anchor: string
  root: CID
  leaves: CID[]
}

interface Damage {
  name: string
  /** Does the damage to the copy's data directory; returns the record ids whose bytes it destroyed. */
  apply: (dataDir: string, p: Pristine) => Promise<string[]>
  /** Finding kinds `ledger verify` must report. */
  finds: string[]
  /** What `ledger verify`'s findings must name (a reduction it cannot reproduce). */
  names?: string[]
  /** Finding kinds of which `ledger verify` must report at least one. */
  findsOneOf?: string[]
  /** The anchor's state after repair: a damaged block with no peer to send a good copy leaves it unreachable. @default 'verified' */
  anchorAfter?: 'verified' | 'unreachable'
  /**
   * The destroyed records survive in the index: repair saves them from it before the reindex and
   * imports them again after, so every answer is back (they are still named). @default false
   */
  salvaged?: boolean
  /** What `ledger verify` says after the repair. @default 'healthy' when nothing was destroyed, else no errors */
  after?: 'healthy' | 'no-errors' | { errors: string[] }
}

async function onlyEntry (dir: string): Promise<string> {
  const names = (await readdir(dir)).filter((n) => !n.startsWith('.'))
  return join(dir, names[0] as string)
}

const streamShard = async (dataDir: string): Promise<string> => await onlyEntry(await onlyEntry(join(dataDir, 'streams', 'default')))
const busShard = async (dataDir: string): Promise<string> => await onlyEntry(join(dataDir, 'bus', 'default'))
const viewShard = async (dataDir: string, kind: string): Promise<string> => await onlyEntry(join(dataDir, 'views', kind, 'default'))

async function lines (file: string): Promise<string[]> {
  return (await readFile(file, 'utf8')).split('\n')
}

/** The record ids a ledger line carries: a per-record event's one, a `memory.packed` event's all. */
function recordsOf (line: string): string[] {
  try {
    const payload = (JSON.parse(line) as { payload?: { id?: unknown, record?: unknown, records?: unknown, pack?: unknown } }).payload
    if (Array.isArray(payload?.records) && typeof payload.pack === 'string') return payload.records.filter((id): id is string => typeof id === 'string')
    return payload?.record !== undefined && typeof payload.id === 'string' ? [payload.id] : []
  } catch {
    return []
  }
}

/**
 * Changes one character of the `nth` line of event type `type` (views: of the `nth` non-empty line)
 * inside a free string (an event's idempotency key, a view line's hash), so the line still parses and
 * passes its schema: only its hash check fails. Returns the record id the line carried.
 */
async function flipIn (file: string, type: string | undefined, nth = 0): Promise<string[]> {
  const all = await lines(file)
  const matching = all.map((l, i) => ({ l, i })).filter(({ l }) => l.length > 0 && (type === undefined || l.includes(`"type":"${type}"`)))
  const { l: line, i: index } = matching[nth] as { l: string, i: number }
  const field = type === undefined ? '"hash":"sha256:' : '"idempotency_key":"'
  const at = line.indexOf(field) + field.length + 4
  all[index] = `${line.slice(0, at)}${line[at] === 'a' ? 'b' : 'a'}${line.slice(at + 1)}`
  await writeFile(file, all.join('\n'))
  return recordsOf(line)
}

async function insertGarbage (file: string): Promise<string[]> {
  const all = await lines(file)
  all.splice(Math.max(1, Math.floor(all.length / 2)), 0, 'garbage \u0000 not json {')
  await writeFile(file, all.join('\n'))
  return []
}

async function tearTail (file: string): Promise<string[]> {
  await appendFile(file, '{"schema_version":"diasync-v1-ev')
  return []
}

/** Cuts the file in the middle of a line past its middle: that line and every later one are gone. */
async function truncateMidFile (file: string): Promise<string[]> {
  const text = await readFile(file, 'utf8')
  const all = text.split('\n')
  const keep = Math.floor(all.length * 0.6)
  const offset = Buffer.byteLength(all.slice(0, keep).join('\n'), 'utf8') + 1 + 20
  await truncate(file, offset)
  return all.slice(keep).flatMap((l) => recordsOf(l))
}

/** Rewrites line `index` (negative: from the end) of a JSONL file with `edit`, its spec §8 hash recomputed: a consistent rewrite. */
async function rewriteLine (file: string, index: number, edit: (line: Record<string, unknown>) => void): Promise<string[]> {
  const all = (await lines(file)).filter((l) => l.length > 0)
  const at = index < 0 ? all.length + index : index
  const line = JSON.parse(all[at] as string) as Record<string, unknown>
  edit(line)
  all[at] = JSON.stringify(withHash(line))
  await writeFile(file, `${all.join('\n')}\n`)
  return []
}

/** Deletes line `index` (negative: from the end) of a JSONL file: no trace is left in the file. */
async function deleteLine (file: string, index: number): Promise<string[]> {
  const all = (await lines(file)).filter((l) => l.length > 0)
  all.splice(index < 0 ? all.length + index : index, 1)
  await writeFile(file, `${all.join('\n')}\n`)
  return []
}

const FORGED_REDUCTION = 'red_aaaaaaaaaaaaaaaaaaaaaaaaaa'

const reducersFile = (dataDir: string): string => join(dataDir, 'coordination', 'reducers.jsonl')

async function withBlocks (dataDir: string, fn: (db: Level<string, Uint8Array>) => Promise<void>): Promise<void> {
  const db = new Level<string, Uint8Array>(join(dataDir, 'evidence', 'blocks'), { createIfMissing: false, valueEncoding: 'view' })
  await db.open()
  try {
    await fn(db)
  } finally {
    await db.close()
  }
}

const DAMAGES: Damage[] = [
  // ledger lines, in each ledger and view kind
  // the third memory (m2): no attestation, witness request or anchor hangs on it
  // The index still holds the record: repair saves it from there and imports it again.
  { name: 'a flipped byte in a streams/ line (a batch: a memory.packed event)', finds: ['hash_mismatch'], salvaged: true, apply: async (d) => await flipIn(await streamShard(d), 'memory.packed', 2) },
  { name: 'a flipped byte in a bus/ line (a witness request)', finds: ['hash_mismatch'], salvaged: true, apply: async (d) => await flipIn(await busShard(d), 'memory.witness_requested') },
  // The first line of a view shard is an object's first state, which a reducer line names: lost with
  // the line set aside, it is settled by repair, which reduces the memory again.
  ...['facts', 'decisions', 'commitments', 'attach'].map((kind): Damage => ({
    name: `a flipped byte in a views/${kind} line`, finds: ['hash_mismatch', 'reduction_unresolved'], apply: async (d) => await flipIn(await viewShard(d, kind), undefined)
  })),
  // the views against coordination/reducers.jsonl (docs/views.md, "Reductions")
  ...['facts', 'attach'].map((kind): Damage => ({
    name: `a views/${kind} line rewritten with a valid hash (its state changed)`,
    finds: ['reduction_unresolved'],
    apply: async (d) => await rewriteLine(await viewShard(d, kind), -1, (line) => {
      if (kind === 'attach') line.trust = { score: 1, level: 'Anchored' }
      else line.summary = 'a summary no memory has'
    })
  })),
  {
    name: 'a view line appended that no reduction names (a copy of the newest, its summary changed, a valid hash)',
    finds: ['reduction_unrecorded'],
    apply: async (d) => {
      const file = await viewShard(d, 'decisions')
      const newest = JSON.parse((await lines(file)).filter((l) => l.length > 0).at(-1) as string) as Record<string, unknown>
      await appendFile(file, `${JSON.stringify(withHash({ ...newest, summary: 'a decision nobody took' }))}\n`)
      return []
    }
  },
  {
    name: 'a view line deleted from the middle of a shard',
    finds: ['reduction_unresolved'],
    apply: async (d) => await deleteLine(await viewShard(d, 'facts'), 1)
  },
  {
    name: 'the last line of coordination/reducers.jsonl deleted',
    finds: ['reduction_unrecorded'],
    apply: async (d) => await deleteLine(reducersFile(d), -1)
  },
  {
    name: 'a reduction id in coordination/reducers.jsonl changed (the line\'s hash recomputed)',
    finds: ['reduction_unresolved'],
    names: [FORGED_REDUCTION],
    apply: async (d) => await rewriteLine(reducersFile(d), -1, (line) => {
      const shards = line.reductions as Record<string, Record<string, string>>
      const [objects] = Object.values(shards)
      const [object] = Object.keys(objects ?? {})
      if (objects === undefined || object === undefined) throw new Error('the last reducer line is a round line')
      objects[object] = FORGED_REDUCTION
    })
  },
  { name: 'a garbage line in the middle of a streams/ shard', finds: ['json_invalid'], apply: async (d) => await insertGarbage(await streamShard(d)) },
  { name: 'a garbage line in the middle of a bus/ shard', finds: ['json_invalid'], apply: async (d) => await insertGarbage(await busShard(d)) },
  ...['facts', 'decisions', 'commitments', 'attach'].map((kind): Damage => ({
    name: `a garbage line in a views/${kind} shard`, finds: ['json_invalid'], apply: async (d) => await insertGarbage(await viewShard(d, kind))
  })),
  { name: 'a torn tail on a streams/ shard', finds: ['torn_tail'], apply: async (d) => await tearTail(await streamShard(d)) },
  { name: 'a torn tail on a bus/ shard', finds: ['torn_tail'], apply: async (d) => await tearTail(await busShard(d)) },
  { name: 'a torn tail on a views/ shard', finds: ['torn_tail'], apply: async (d) => await tearTail(await viewShard(d, 'facts')) },
  { name: 'a torn tail on an operational ledger (coordination/leases.jsonl)', finds: ['torn_tail'], apply: async (d) => await tearTail(join(d, 'coordination', 'leases.jsonl')) },
  {
    // The lines cut off are gone from the ledger, and with them the records of their packs: a record
    // is stored once, the index holds only where it was. Verify names them (the index's
    // log still lists them), repair's salvage finds them unreadable and names them, and verify keeps
    // reporting the hole the lost events left (lc_gap) and that the ledger ends below the lc it once
    // reached (lc_regressed: nothing was imported past it). Before records were stored once,
    // the index held a second copy and repair imported them again, as new events past that lc.
    name: 'a streams/ shard truncated in the middle (not only a torn tail)',
    finds: ['torn_tail', 'lc_regressed', 'index_mismatch'],
    apply: async (d) => await truncateMidFile(await streamShard(d)),
    after: { errors: ['lc_gap', 'lc_regressed'] }
  },
  { name: 'a views/ shard truncated in the middle', finds: ['torn_tail', 'reduction_unresolved'], apply: async (d) => await truncateMidFile(await viewShard(d, 'decisions')) },
  // the index
  { name: 'a deleted index', finds: ['index_missing'], apply: async (d) => { await rm(join(d, 'index'), { recursive: true }); return [] } },
  {
    name: 'flipped bytes in a LevelDB table of the index',
    // LevelDB does not check every block's checksum on read: depending on which blocks the
    // compaction left where the flips land, the index fails to open or read (corrupt) or answers
    // with damaged entries (mismatch). Either way reindex rebuilds it.
    finds: [],
    findsOneOf: ['index_corrupt', 'index_mismatch'],
    apply: async (d) => {
      const dir = join(d, 'index', 'records')
      for (const name of (await readdir(dir)).filter((f) => f.endsWith('.ldb'))) {
        const bytes = await readFile(join(dir, name))
        for (let i = 10; i < bytes.length - 60; i += 37) bytes[i] = (bytes[i] as number) ^ 0xff
        await writeFile(join(dir, name), bytes)
      }
      return []
    }
  },
  // the blockstore (evidence/blocks): content, not ledger; nothing in the ledger is destroyed
  {
    name: 'a flipped byte in a block of the blockstore',
    finds: ['block_corrupt'],
    anchorAfter: 'unreachable',
    apply: async (d, p) => {
      await withBlocks(d, async (db) => {
        const key = blockKeyOf(p.leaves[1] as CID)
        const bytes = Uint8Array.from(await db.get(key) as Uint8Array)
        bytes[1000] = (bytes[1000] as number) ^ 0x01
        await db.put(key, bytes)
      })
      return []
    }
  },
  {
    name: 'a truncated block',
    finds: ['block_corrupt'],
    anchorAfter: 'unreachable',
    apply: async (d, p) => {
      await withBlocks(d, async (db) => {
        const key = blockKeyOf(p.leaves[0] as CID)
        await db.put(key, (await db.get(key) as Uint8Array).subarray(0, 4096))
      })
      return []
    }
  },
  {
    name: 'a deleted block',
    finds: ['block_missing'],
    anchorAfter: 'unreachable',
    apply: async (d, p) => { await withBlocks(d, async (db) => { await db.del(blockKeyOf(p.leaves[2] as CID)) }); return [] }
  },
  {
    name: 'a stray block of no anchor that does not hash to its key',
    finds: ['block_corrupt'],
    apply: async (d, p) => { await withBlocks(d, async (db) => { await db.put(blockKeyOf(parseCid(p.anchor)), new Uint8Array([1, 2, 3])) }); return [] }
  },
  {
    name: 'a deleted blockstore (evidence/blocks)',
    finds: ['block_missing'],
    anchorAfter: 'unreachable',
    apply: async (d) => { await rm(join(d, 'evidence', 'blocks'), { recursive: true }); return [] }
  },
  {
    name: 'flipped bytes in a LevelDB table of the blockstore',
    finds: ['blockstore_corrupt'],
    anchorAfter: 'unreachable',
    apply: async (d) => {
      const dir = join(d, 'evidence', 'blocks')
      for (const name of (await readdir(dir)).filter((f) => f.endsWith('.ldb') || f.endsWith('.log'))) {
        const bytes = await readFile(join(dir, name))
        for (let i = 10; i < bytes.length - 60; i += 997) bytes[i] = (bytes[i] as number) ^ 0xff
        await writeFile(join(dir, name), bytes)
      }
      return []
    }
  }
]

/** `ledger verify` as the CLI runs it; `ids` gets every record id the audit read from the ledger (for repair's salvage). */
const audit = async (home: string, ids: { value: ReadonlySet<string> } = { value: new Set() }): Promise<AuditReport> => await auditDataDir({
  dataDir: nodePaths(home).data,
  scope: 'default',
  verifier: nodeCryptoVerifier,
  now: Date.now,
  indexCheck: async (facts) => { ids.value = facts.ids; return await checkIndexAgainstLedger(home, facts) },
  blockCheck: async (anchors) => await checkBlockstore(home, anchors)
})

/**
 * What the node answers, as facts each tied to one record: every record the ledger held is found,
 * every memory is listed by a query with its witnesses and anchors, and the anchor's state.
 */
async function answers (home: string, p: Pristine): Promise<{ facts: Map<string, string[]>, anchorState: string | undefined }> {
  const node = await LocalNode.open({ home, mode: 'read' })
  try {
    // each fact with the records it rests on: destroying any of them may take the fact away
    const facts = new Map<string, string[]>()
    for (const id of p.records) if (await node.store.exists(id)) facts.set(`record ${id}`, [id])
    let anchorState: string | undefined
    for (const item of (await node.store.query({ limit: 1000 })).items) {
      facts.set(`memory ${item.id}`, [item.id])
      const view = await node.show(item.id)
      for (const w of view.witnesses) facts.set(`witness ${w.id} of ${item.id}`, [w.id, item.id])
      for (const a of view.anchors) {
        facts.set(`anchor ${a.id} of ${item.id}`, [a.id, item.id])
        if (a.id === p.anchor) anchorState = a.verification.state
      }
    }
    return { facts, anchorState }
  } finally {
    await node.close()
  }
}

describe('the damage matrix: each damage is found by verify and fixed by repair; answers are kept except the destroyed records, which are named', () => {
  let pristine: string
  let p: Pristine
  let before: Map<string, string[]>

  beforeAll(async () => {
    pristine = await mkdtemp(join(tmpdir(), 'isnad-damage-'))
    await initHome(pristine)
    const keystore = createKeystore({ directory: join(pristine, 'keys') })
    const author = await keystore.load(await keystore.defaultDid() as string)
    const witness = await keystore.load((await keystore.create({ label: 'witness' })).did)
    const evidence = join(pristine, 'evidence.bin')
    await writeFile(evidence, Uint8Array.from({ length: EVIDENCE_BYTES }, (_, i) => (i * 7919) % 251))
    const node = await LocalNode.open({ home: pristine })
    const memories: string[] = []
    let anchor = ''
    try {
      for (let k = 0; k < MEMORIES; k++) {
        const view = await node.remember({ type: TYPES[k % 3] as (typeof TYPES)[number], summary: `m${k}`, tags: ['matrix'] }, author)
        memories.push(view.id)
        if (k % 3 === 0) await node.attest({ memory: view.id, verdict: 'confirm' }, witness)
        if (k % 4 === 1) await node.requestWitnesses({ memory: view.id, to: [witness.did] }, author)
      }
      anchor = (await node.addAnchor({ source: 'file', path: evidence, memory: memories[0] as string }, author)).anchor
    } finally {
      await node.close()
    }
    let records: string[] = []
    const report = await auditDataDir({
      dataDir: nodePaths(pristine).data, scope: 'default', verifier: nodeCryptoVerifier, now: Date.now,
      indexCheck: async (facts) => { records = [...facts.ids]; return await checkIndexAgainstLedger(pristine, facts) },
      blockCheck: async (anchors) => await checkBlockstore(pristine, anchors)
    })
    expect(report.findings).toEqual([])
    expect(report.blocks).toMatchObject({ blocks: 4, checked: 4, sampled: false, anchors: 1 })
    await writeAuditResults(report)
    const anchorRecord = await (async () => {
      const reader = await LocalNode.open({ home: pristine, mode: 'read' })
      try { return await reader.store.get(anchor) } finally { await reader.close() }
    })()
    const root = parseCid((anchorRecord?.signed.record as { reference: string }).reference)
    let leaves: CID[] = []
    await withBlocks(nodePaths(pristine).data, async (db) => { leaves = blockLinks(root, await db.get(blockKeyOf(root)) as Uint8Array) })
    expect(leaves).toHaveLength(3)
    p = { memories, records, anchor, root, leaves }
    const start = await answers(pristine, p)
    before = start.facts
    expect(start.anchorState).toBe('verified')
    expect([...before.keys()].filter((k) => k.startsWith('memory '))).toHaveLength(MEMORIES)
  }, 180_000)
  afterAll(async () => { await rm(pristine, { recursive: true, force: true }) })

  for (const damage of DAMAGES) {
    it.concurrent(damage.name, async () => {
      const home = await mkdtemp(join(tmpdir(), 'isnad-damage-case-'))
      try {
        await cp(pristine, home, { recursive: true })
        const destroyed = await damage.apply(nodePaths(home).data, p)
        const ledgerIds = { value: new Set<string>() as ReadonlySet<string> }
        const found = await audit(home, ledgerIds)
        expect(found.status, damage.name).not.toBe('healthy')
        const kinds = found.findings.map((f) => f.kind)
        for (const kind of damage.finds) expect(kinds, damage.name).toContain(kind)
        for (const name of damage.names ?? []) expect(found.findings.map((f) => f.message).join('\n'), damage.name).toContain(name)
        if (damage.findsOneOf !== undefined) expect(kinds.some((kind) => damage.findsOneOf?.includes(kind)), `${damage.name}: ${kinds.join(', ')}`).toBe(true)

        const plan = planRepair(found, { now: Date.now })
        const outcome = await executeRepair(plan, {
          dataDir: nodePaths(home).data,
          reindex: async () => { await reindex(home) },
          repairBlocks: async (action) => await repairBlocks(home, action),
          salvageRecords: async () => await salvageLostRecords(home, ledgerIds.value),
          reduceViews: async (action) => await reduceViewsAgain(home, action)
        })
        expect(outcome.executions.filter((e) => e.status === 'failed'), damage.name).toEqual([])
        // the records whose bytes were destroyed are named, by verify's findings or by the repair
        const named = [...found.findings.map((f) => f.message), ...outcome.executions.map((e) => e.detail)].join('\n')
        for (const id of destroyed) expect(named, `${damage.name}: ${id} named`).toContain(id)

        const after = await answers(home, p)
        const gone = damage.salvaged === true ? [] : destroyed
        const expected = [...before].filter(([, ids]) => !ids.some((id) => gone.includes(id))).map(([fact]) => fact).sort()
        expect([...after.facts.keys()].sort(), damage.name).toEqual(expected)
        expect(after.anchorState, damage.name).toBe(gone.includes(p.anchor) ? undefined : damage.anchorAfter ?? 'verified')

        const again = await audit(home)
        const want = damage.after ?? (destroyed.length === 0 ? 'healthy' : 'no-errors')
        if (want === 'healthy') expect(again.findings, damage.name).toEqual([])
        else if (want === 'no-errors') expect(again.errors, damage.name).toBe(0) // a set-aside event leaves a hole, explained
        else expect(again.findings.filter((f) => f.severity === 'error').map((f) => f.kind).sort(), damage.name).toEqual(want.errors)
      } finally {
        await rm(home, { recursive: true, force: true })
      }
    }, 120_000)
  }
})
