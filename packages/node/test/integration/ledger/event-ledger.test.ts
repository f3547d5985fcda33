import { appendFile, mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { isIsnadError } from '../../../src/errors/index.js'
import {
  archivePathFor, busShardPath, createMemoryIdempotency, DATA_DIRECTORIES, eventIdFor, openEventLedger, recoverTail, streamShardPath,
  validateOperationalLine, verifyLineHash, withLineHash, type EventLedger
} from '../../../src/ledger/index.js'
import { EventSchema } from '../../../src/schema/ledger-lines.js'
import { assertStrictlyIncreasing, collect, createTempDataDir, eventInput, listFiles, readJsonLines, steppingClock } from './helpers.js'

describe('the event ledger (spec §4–§9)', () => {
  let dir: { dataDir: string, remove: () => Promise<void> }
  let ledger: EventLedger | undefined

  beforeEach(async () => { dir = await createTempDataDir('events') })
  afterEach(async () => {
    await ledger?.close()
    ledger = undefined
    await dir.remove()
  })

  async function open (over: { clock?: () => number, idempotency?: ReturnType<typeof createMemoryIdempotency>, scope?: string } = {}): Promise<EventLedger> {
    ledger = await openEventLedger({ dataDir: dir.dataDir, scope: over.scope ?? 'default', clock: over.clock ?? steppingClock(), ...(over.idempotency === undefined ? {} : { idempotency: over.idempotency }) })
    return ledger
  }

  it('creates the spec §3 tree and appends and reads back events, routed to streams/ and bus/', async () => {
    const l = await open()
    for (const d of DATA_DIRECTORIES) expect((await stat(join(dir.dataDir, d))).isDirectory(), d).toBe(true)
    const results = await l.append([eventInput(1), eventInput(2, { type: 'memory.published' }), eventInput(3, { type: 'memory.attested' })])
    expect(results.map((r) => r.appended)).toEqual([true, true, true])
    const events = results.map((r) => r.event)
    expect(events.map((e) => e?.lc)).toEqual([1, 2, 3])
    expect(events[0]?.event_id).toBe(eventIdFor('default', 'key-1'))
    const stream = await readJsonLines(streamShardPath(dir.dataDir, 'default', l.instanceId, '2026-02-06'))
    const bus = await readJsonLines(busShardPath(dir.dataDir, 'default', '2026-02-06'))
    expect(stream.map((e) => e.type)).toEqual(['memory.captured', 'memory.attested'])
    expect(bus.map((e) => e.type)).toEqual(['memory.published'])
    for (const line of [...stream, ...bus]) {
      expect(verifyLineHash(line)).toBe(true)
      expect(EventSchema.safeParse(line).success).toBe(true)
    }
    expect(await collect(l.readEvents())).toEqual(events)
    expect((await collect(l.readEvents(2))).map((e) => e.lc)).toEqual([2, 3])
  })

  it('shards by the UTC day of ts_wall', async () => {
    let now = Date.parse('2026-02-06T23:59:59.500Z')
    const l = await open({ clock: () => now })
    await l.append([eventInput(1)])
    now += 1000
    await l.append([eventInput(2)])
    const files = await listFiles(join(dir.dataDir, 'streams'))
    expect(files).toEqual([`default/${l.instanceId}/2026-02-06.jsonl`, `default/${l.instanceId}/2026-02-07.jsonl`])
    expect((await collect(l.readEvents())).map((e) => e.lc)).toEqual([1, 2])
  })

  it('stores the same idempotency key once: in one call, across calls, in flight, and across reopen', async () => {
    const index = createMemoryIdempotency()
    const l = await open({ idempotency: index })
    const [a, b] = await Promise.all([l.append([eventInput(1), eventInput(1)]), l.append([eventInput(1), eventInput(2)])])
    expect(a?.map((r) => r.appended)).toEqual([true, false])
    expect(b?.map((r) => r.appended)).toEqual([false, true])
    expect(b?.[0]?.event).toEqual(a?.[0]?.event)
    await l.close()
    ledger = undefined
    // reopened with the same memory index
    const again = await open({ idempotency: index })
    const results = await again.append([eventInput(1), eventInput(2), eventInput(3)])
    expect(results.map((r) => r.appended)).toEqual([false, false, true])
    expect(results[0]?.event_id).toBe(eventIdFor('default', 'key-1'))
    expect(results[0]?.event?.lc).toBe(1)
    await again.close()
    // reopened with the default index, which scans the ledger
    const scanned = await open()
    expect((await scanned.append([eventInput(3), eventInput(1), eventInput(4)])).map((r) => r.appended)).toEqual([false, false, true])
    await scanned.close()
    ledger = await open()
    const events = await collect(ledger.readEvents())
    expect(events.map((e) => e.idempotency_key)).toEqual(['key-1', 'key-2', 'key-3', 'key-4'])
  })

  it('accepts an index that answers with event ids only', async () => {
    const l = await openEventLedger({
      dataDir: dir.dataDir, scope: 'default', clock: steppingClock(), idempotency: { lookup: async (keys) => new Map(keys.map((k) => [k, `evt_${'q'.repeat(26)}`])) }
    })
    ledger = l
    expect(await l.append([eventInput(1)])).toEqual([{ appended: false, event_id: `evt_${'q'.repeat(26)}`, event: undefined }])
  })

  it('continues the Lamport clock across restarts and past observed values', async () => {
    const l = await open()
    await l.append([eventInput(1), eventInput(2, { type: 'memory.handoff' })])
    await l.close()
    const l2 = await open()
    expect(l2.lastLc).toBe(2)
    const [r] = await l2.append([eventInput(3, { observedLc: 40 })])
    expect(r?.event?.lc).toBe(41)
    expect((await l2.append([eventInput(4)]))[0]?.event?.lc).toBe(42)
    const events = await collect(l2.readEvents())
    assertStrictlyIncreasing(events)
    expect(events.map((e) => e.lc)).toEqual([1, 2, 41, 42])
  })

  it('refuses an invalid batch as a whole, without consuming lc', async () => {
    const l = await open()
    await expect(l.append([eventInput(1), eventInput(2, { payload: { bad: Number.NaN } })])).rejects.toMatchObject({ code: 'SCHEMA_INVALID' })
    expect(l.lastLc).toBe(0)
    expect((await l.append([eventInput(1)]))[0]?.event?.lc).toBe(1)
  })

  it('reads archived .jsonl.gz shards, and not twice when the live shard is still there', async () => {
    const l = await open()
    await l.append([eventInput(1), eventInput(2, { type: 'memory.published' })])
    await l.close()
    ledger = undefined
    const shard = streamShardPath(dir.dataDir, 'default', l.instanceId, '2026-02-06')
    const archived = archivePathFor(dir.dataDir, shard)
    await mkdir(dirname(archived), { recursive: true })
    await writeFile(archived, gzipSync(await readFile(shard)))
    const l2 = await open()
    expect((await collect(l2.readEvents())).map((e) => e.lc)).toEqual([1, 2])
    await rm(shard)
    expect((await collect(l2.readEvents())).map((e) => e.lc)).toEqual([1, 2])
    await l2.close()
    const l3 = await open()
    expect(l3.lastLc).toBe(2) // the clock continues from the archive too
  })

  it('reports a corrupt line in the middle of a shard: an entry for auditors, LEDGER_CORRUPT for readers', async () => {
    const l = await open()
    await l.append([eventInput(1), eventInput(2), eventInput(3)])
    await l.close()
    ledger = undefined
    const shard = streamShardPath(dir.dataDir, 'default', l.instanceId, '2026-02-06')
    const text = await readFile(shard, 'utf8')
    await writeFile(shard, text.replace('"n":2', '"n":9'))
    const l2 = await open()
    const entries = await collect(l2.readEntries())
    expect(entries.map((e) => e.kind)).toEqual(['record', 'corrupt', 'record'])
    expect(entries[1]).toMatchObject({ kind: 'corrupt', reason: 'hash', line: 2, file: shard, offset: text.indexOf('\n') + 1 })
    const error = await collect(l2.readEvents()).catch((err: unknown) => err)
    expect(isIsnadError(error, 'LEDGER_CORRUPT')).toBe(true)
    expect(l2.findings).toEqual([]) // a middle line is not a torn tail: nothing was cut
  })

  it('reports a line whose lc does not go up within its shard as an order entry', async () => {
    const l = await open()
    await l.append([eventInput(1), eventInput(2), eventInput(3)])
    await l.close()
    ledger = undefined
    const shard = streamShardPath(dir.dataDir, 'default', l.instanceId, '2026-02-06')
    const [a, b, c] = (await readFile(shard, 'utf8')).trimEnd().split('\n')
    await writeFile(shard, [a, c, b].join('\n') + '\n')
    const l2 = await open()
    const entries = await collect(l2.readEntries())
    expect(entries.map((e) => e.kind === 'corrupt' ? e.reason : e.kind)).toEqual(['record', 'record', 'order'])
    await expect(collect(l2.readEvents())).rejects.toMatchObject({ code: 'LEDGER_CORRUPT' })
  })

  it('recovers a torn tail at open: copies it, records a finding, truncates to the last complete line', async () => {
    const l = await open()
    await l.append([eventInput(1), eventInput(2)])
    await l.close()
    ledger = undefined
    const shard = streamShardPath(dir.dataDir, 'default', l.instanceId, '2026-02-06')
    const intact = await readFile(shard)
    const torn = Buffer.from('{"schema_version":"diasync-v1-event","event_id":"evt_')
    await appendFile(shard, torn)
    const l2 = await open()
    expect(await readFile(shard)).toEqual(intact)
    expect(l2.findings).toHaveLength(1)
    const finding = l2.findings[0]
    expect(finding).toMatchObject({ kind: 'torn_tail', offset: intact.length, bytes: torn.length, reason: 'unterminated', file: `streams/default/${l.instanceId}/2026-02-06.jsonl` })
    expect(await readFile(join(dir.dataDir, finding?.evidence ?? ''))).toEqual(torn)
    const recorded = await readJsonLines(join(dir.dataDir, 'governance/findings/findings.jsonl'))
    expect(recorded).toEqual([finding])
    expect(verifyLineHash(recorded[0])).toBe(true)
    expect((await collect(l2.readEvents())).map((e) => e.lc)).toEqual([1, 2])
    expect((await l2.append([eventInput(3)]))[0]?.event?.lc).toBe(3)
  })

  it('treats a complete last line that fails its hash as torn, too (a partial page after power loss)', async () => {
    const l = await open()
    await l.append([eventInput(1), eventInput(2, { type: 'memory.published' })])
    await l.close()
    ledger = undefined
    const bus = busShardPath(dir.dataDir, 'default', '2026-02-06')
    const text = await readFile(bus, 'utf8')
    await writeFile(bus, text.replace('"n":2', '"n":3'))
    const l2 = await open()
    expect(l2.findings).toMatchObject([{ reason: 'hash', offset: 0, file: 'bus/default/2026-02-06.jsonl' }])
    expect((await readFile(bus)).length).toBe(0)
    expect(l2.lastLc).toBe(1)
  })
})

describe('the event ledger under concurrency and damage to its operational ledgers', () => {
  let dir: { dataDir: string, remove: () => Promise<void> }

  beforeEach(async () => { dir = await createTempDataDir('events2') })
  afterEach(async () => { await dir.remove() })

  it('group-commits concurrent appends into few syncs', async () => {
    const l = await openEventLedger({ dataDir: dir.dataDir, scope: 'default', clock: steppingClock(), idempotency: createMemoryIdempotency() })
    try {
      await l.append([eventInput('warm')])
      const before = l.stats().syncs
      await Promise.all(Array.from({ length: 400 }, async (_, i) => await l.append([eventInput(i)])))
      expect(l.stats().syncs - before).toBeLessThanOrEqual(4) // one stream and one bus shard, a sync or two each
      expect(l.lastLc).toBe(401)
    } finally {
      await l.close()
    }
  })

  it('reads only durable lines while appends are in flight: never a spurious torn tail', async () => {
    const l = await openEventLedger({ dataDir: dir.dataDir, scope: 'default', clock: steppingClock(), idempotency: createMemoryIdempotency() })
    try {
      const writers = Array.from({ length: 50 }, async (_, w) => {
        for (let i = 0; i < 20; i++) await l.append([eventInput(`${w}-${i}`, i % 3 === 0 ? { type: 'memory.published' } : {})])
      })
      let reads = 0
      const reader = (async () => {
        for (let r = 0; r < 10; r++) {
          const events = await collect(l.readEvents())
          assertStrictlyIncreasing(events)
          reads++
        }
      })()
      await Promise.all([...writers, reader])
      expect(reads).toBe(10)
      expect(await collect(l.readEvents())).toHaveLength(1000)
    } finally {
      await l.close()
    }
  })

  it('recovers torn tails of leases.jsonl and of findings.jsonl itself', async () => {
    const first = await openEventLedger({ dataDir: dir.dataDir, scope: 'default', clock: steppingClock() })
    await first.close()
    await appendFile(join(dir.dataDir, 'coordination/leases.jsonl'), '{"kind":"acq')
    await mkdir(join(dir.dataDir, 'governance/findings'), { recursive: true })
    await appendFile(join(dir.dataDir, 'governance/findings/findings.jsonl'), '{"id":"fnd_')
    const l = await openEventLedger({ dataDir: dir.dataDir, scope: 'default', clock: steppingClock() })
    try {
      expect(l.findings.map((f) => f.file).sort()).toEqual(['coordination/leases.jsonl', 'governance/findings/findings.jsonl'])
      const findings = await readJsonLines(join(dir.dataDir, 'governance/findings/findings.jsonl'))
      expect(findings).toHaveLength(2)
      expect(findings.every((f) => verifyLineHash(f))).toBe(true)
      const leases = await readJsonLines(join(dir.dataDir, 'coordination/leases.jsonl'))
      expect(leases.map((x) => x.kind)).toEqual(['acquired', 'released', 'acquired'])
    } finally {
      await l.close()
    }
  })

  it('lends its recovery to other ledger files the writer appends to (views/)', async () => {
    const l = await openEventLedger({ dataDir: dir.dataDir, scope: 'default', clock: steppingClock() })
    try {
      const view = join(dir.dataDir, 'views/facts/default/2026-02.jsonl')
      await mkdir(dirname(view), { recursive: true })
      await writeFile(view, JSON.stringify(withLineHash({ n: 1 })) + '\n{"n":2,')
      const { finding, tail } = await recoverTail(view, validateOperationalLine, l.recovery)
      expect(finding).toMatchObject({ kind: 'torn_tail', file: 'views/facts/default/2026-02.jsonl', reason: 'unterminated' })
      expect((await stat(view)).size).toBe(tail.validEnd)
      expect((await readJsonLines(join(dir.dataDir, 'governance/findings/findings.jsonl'))).map((f) => f.id)).toEqual([finding?.id])
    } finally {
      await l.close()
    }
  })

  it('refuses a scope that is not a safe directory name', async () => {
    const error = await openEventLedger({ dataDir: dir.dataDir, scope: '../escape' }).catch((err: unknown) => err)
    expect(isIsnadError(error, 'USAGE')).toBe(true)
  })
})
