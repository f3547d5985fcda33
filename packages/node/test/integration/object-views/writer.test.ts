import { execFile } from 'node:child_process'
import { appendFile, mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  AnyReductionRecordSchema, AttachmentSchema, createFsAppend, MAX_REDUCTIONS_PER_EVENT, createViewWriter, hashLine, isLineHashValid, reduceMemory, ReductionRecordSchema,
  reductionIdOf, type AppendLines, type ReduceInput
} from '../../../src/ledger/object-views/index.js'
import { ViewObjectSchema } from '../../../src/schema/index.js'
import { EVIDENCE, inputOf, memoryOf, TRUST } from '../../unit/object-views/fixtures.js'

/** Reductions on disk (spec §4, §10, §11): idempotent appends, crash retries, and grep-able views. */

let dataDir: string
beforeEach(async () => { dataDir = await mkdtemp(join(tmpdir(), 'isnad-views-')) })
afterEach(async () => { await rm(dataDir, { recursive: true, force: true }) })

const NOW = '2026-03-01T12:00:00Z'
const run = promisify(execFile)
const linesOf = async (file: string): Promise<Array<Record<string, unknown>>> => {
  const text = await readFile(join(dataDir, file), 'utf8').catch(() => '')
  return text.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as Record<string, unknown>)
}

const decision = memoryOf({ type: 'decision', summary: 'Chose append-only JSONL ledgers', body: 'auditable and greppable', tags: ['project:isnad'] })
const insight = memoryOf({ type: 'insight', summary: 'Synthesis is harder than storage', created_at: '2026-01-20T08:00:00Z' })
const promise = memoryOf({ type: 'commitment', summary: 'Publish the benchmark table', tags: ['due:2026-03-15'] })

describe('ViewWriter', () => {
  it('writes the object, its attachment and the reducer line to their shards', async () => {
    const writer = createViewWriter({ dataDir })
    const reduction = reduceMemory(inputOf(decision, { evidence: EVIDENCE }))
    const result = await writer.write(reduction, NOW)
    expect(result.written).toEqual({ object: true, attachment: true, reduction: true })
    expect(result.files).toEqual({
      object: 'views/decisions/default/2026-02.jsonl', attachment: 'views/attach/default/2026-02.jsonl', reducers: 'coordination/reducers.jsonl'
    })
    expect(await linesOf(result.files.object)).toEqual([reduction.object])
    expect(await linesOf('views/attach/default/2026-02.jsonl')).toEqual([reduction.attachment])
    const [record] = await linesOf('coordination/reducers.jsonl')
    expect(ReductionRecordSchema.safeParse(record).success).toBe(true)
    expect(record).toEqual(result.record)
    expect(result.record?.reductions).toEqual({ [result.files.object]: { [reduction.object.id]: result.reductionId } })
    expect(result.reductionId).toBe(reductionIdOf(reduction.object.id, reduction.object.hash, reduction.attachment?.hash, undefined))
  })

  it('writes a round\'s new states in one reducer line, in the order given, and skips the recorded ones', async () => {
    const writer = createViewWriter({ dataDir })
    const first = await writer.writeRound([reduceMemory(inputOf(decision, { evidence: EVIDENCE })), reduceMemory(inputOf(insight))], NOW)
    expect(first.records).toHaveLength(1)
    const round = [decision, insight, promise].map((m) => reduceMemory(inputOf(m, { evidence: EVIDENCE })))
    const second = await writer.writeRound(round, NOW)
    // decision unchanged; insight got evidence (a new state chained to its first); promise is new
    expect(second.results.map((r) => r.written.reduction)).toEqual([false, true, true])
    expect(second.results[0]?.reductionId).toBe(first.results[0]?.reductionId)
    expect(second.results[1]?.reductionId).toBe(reductionIdOf(round[1]!.object.id, round[1]!.object.hash, round[1]!.attachment?.hash, first.results[1]?.reductionId))
    const lines = await linesOf('coordination/reducers.jsonl')
    expect(lines).toEqual([...first.records, ...second.records])
    expect(lines[1]?.reductions).toEqual({
      'views/facts/default/2026-01.jsonl': { [round[1]!.object.id]: second.results[1]?.reductionId },
      'views/commitments/default/2026-02.jsonl': { [round[2]!.object.id]: second.results[2]?.reductionId }
    })
    for (const line of lines) expect(AnyReductionRecordSchema.safeParse(line).success && isLineHashValid(line)).toBe(true)
    expect((await writer.writeRound(round, NOW)).records, 'nothing new').toEqual([])
  })

  it('an object with two states in one round: two lines, the second chained to the first', async () => {
    const writer = createViewWriter({ dataDir })
    const states = [reduceMemory(inputOf(insight)), reduceMemory(inputOf(insight, { supersededBy: [decision.id] }))]
    const { results, records } = await writer.writeRound(states, NOW)
    expect(records).toHaveLength(2)
    expect(results[1]?.reductionId).toBe(reductionIdOf(states[1]!.object.id, states[1]!.object.hash, undefined, results[0]?.reductionId))
    // A fresh writer reads the chain from the lines' order: the newest state is recorded.
    const again = await createViewWriter({ dataDir }).write(states[1]!, NOW)
    expect(again.written.reduction).toBe(false)
    expect(again.reductionId).toBe(results[1]?.reductionId)
  })

  it('reads reducer lines of the per-state forms (v1, v2) and chains its round lines after them', async () => {
    const reduction = reduceMemory(inputOf(decision, { evidence: EVIDENCE }))
    const { object, attachment } = reduction
    // As code before the round form wrote them: a v1 line of an earlier state, then a v2 line of this one.
    const v1Id = reductionIdOf(object.id, 'sha256:' + '1'.repeat(64), undefined, undefined)
    const v1 = {
      schema_version: 'isnad-reduction-v1', id: v1Id, reducer: 'isnad-views/v1', memory: decision.id, object: object.id, object_type: 'decision',
      object_hash: 'sha256:' + '1'.repeat(64), shard: 'views/decisions/default/2026-02.jsonl', ts: NOW
    }
    const v2Id = reductionIdOf(object.id, object.hash, attachment?.hash, v1Id)
    const v2 = {
      schema_version: 'isnad-reduction-v2', id: v2Id, object: object.id, object_hash: object.hash, shard: 'views/decisions/default/2026-02.jsonl',
      attachment_hash: attachment?.hash, previous: v1Id, ts: NOW
    }
    await createFsAppend()(join(dataDir, 'coordination/reducers.jsonl'), [v1, v2].map((l) => JSON.stringify({ ...l, hash: hashLine(l) })))
    const unchanged = await createViewWriter({ dataDir }).write(reduction, NOW)
    expect(unchanged.written.reduction).toBe(false)
    expect(unchanged.reductionId).toBe(v2Id)
    const changed = reduceMemory(inputOf(decision, { evidence: EVIDENCE, supersededBy: [insight.id] }))
    const next = await createViewWriter({ dataDir }).write(changed, NOW)
    expect(next.reductionId).toBe(reductionIdOf(object.id, changed.object.hash, changed.attachment?.hash, v2Id))
    const lines = await linesOf('coordination/reducers.jsonl')
    expect(lines.map((l) => l.schema_version)).toEqual(['isnad-reduction-v1', 'isnad-reduction-v2', 'isnad-reduction-v3'])
    for (const line of lines) expect(AnyReductionRecordSchema.safeParse(line).success && isLineHashValid(line)).toBe(true)
  })

  it('is idempotent: an unchanged reduction writes nothing, also from a fresh writer', async () => {
    const reduction = reduceMemory(inputOf(decision, { evidence: EVIDENCE }))
    const first = await createViewWriter({ dataDir }).write(reduction, NOW)
    for (const writer of [createViewWriter({ dataDir }), createViewWriter({ dataDir })]) {
      const again = await writer.write(reduceMemory(inputOf(decision, { evidence: EVIDENCE })), '2026-04-01T00:00:00Z')
      expect(again.written).toEqual({ object: false, attachment: false, reduction: false })
      expect(again.record).toBeNull()
      expect(again.reductionId).toBe(first.reductionId) // the round's event names the recorded reduction
    }
    expect(await linesOf('views/decisions/default/2026-02.jsonl')).toHaveLength(1)
    expect(await linesOf('coordination/reducers.jsonl')).toHaveLength(1)
  })

  it('appends a new state, chains its reduction, and writes a state seen before again (v1 → v2 → v1)', async () => {
    const writer = createViewWriter({ dataDir })
    const v1: ReduceInput = inputOf(insight)
    const v2: ReduceInput = inputOf(insight, { supersededBy: [decision.id] })
    const a = await writer.write(reduceMemory(v1), NOW)
    const b = await writer.write(reduceMemory(v2), NOW)
    const c = await writer.write(reduceMemory(v1), NOW)
    for (const r of [b, c]) expect(r.written.object).toBe(true)
    const objects = await linesOf('views/facts/default/2026-01.jsonl')
    expect(objects.map((o) => o.status)).toEqual(['active', 'superseded', 'active']) // the newest line wins
    const records = await linesOf('coordination/reducers.jsonl')
    const named = records.map((r) => Object.values(r.reductions as Record<string, Record<string, string>>).flatMap((o) => Object.values(o)))
    expect(named).toEqual([[a.reductionId], [b.reductionId], [c.reductionId]])
    expect(new Set(named.flat()).size).toBe(3)
    // Each chained to the one before (the file's order gives `previous`).
    const [s1, s2] = [reduceMemory(v2), reduceMemory(v1)]
    expect(b.reductionId).toBe(reductionIdOf(s1.object.id, s1.object.hash, undefined, a.reductionId))
    expect(c.reductionId).toBe(reductionIdOf(s2.object.id, s2.object.hash, undefined, b.reductionId))
  })

  it('a new attestation alone changes the attachment, not the object', async () => {
    const writer = createViewWriter({ dataDir })
    await writer.write(reduceMemory(inputOf(promise, { evidence: { attestations: EVIDENCE.attestations.slice(0, 1), anchors: [] } })), NOW)
    const more = await writer.write(reduceMemory(inputOf(promise, { evidence: { attestations: EVIDENCE.attestations, anchors: [] } })), NOW)
    expect(more.written).toEqual({ object: false, attachment: true, reduction: true })
  })

  it('after a failed append, a retry writes exactly the missing lines', async () => {
    const fsAppend = createFsAppend()
    let failReducers = true
    const flaky: AppendLines = async (file, lines) => {
      if (file.endsWith('reducers.jsonl') && failReducers) { failReducers = false; throw new Error('disk full') }
      await fsAppend(file, lines)
    }
    const writer = createViewWriter({ dataDir, append: flaky })
    const reduction = reduceMemory(inputOf(decision, { evidence: EVIDENCE }))
    await expect(writer.write(reduction, NOW)).rejects.toThrow('disk full')
    const retry = await writer.write(reduction, NOW)
    expect(retry.written).toEqual({ object: false, attachment: false, reduction: true })
    expect(await linesOf('views/decisions/default/2026-02.jsonl')).toHaveLength(1)
    expect(await linesOf('coordination/reducers.jsonl')).toHaveLength(1)
  })

  it('keeps a torn last line on its own line and skips it when reading', async () => {
    await createViewWriter({ dataDir }).write(reduceMemory(inputOf(decision)), NOW)
    await appendFile(join(dataDir, 'views/decisions/default/2026-02.jsonl'), '{"schema_version":"diasync-v1-obj')
    const other = memoryOf({ type: 'decision', summary: 'Second decision' })
    await createViewWriter({ dataDir }).write(reduceMemory(inputOf(other)), NOW)
    const text = await readFile(join(dataDir, 'views/decisions/default/2026-02.jsonl'), 'utf8')
    const lines = text.split('\n').filter((l) => l !== '')
    expect(lines).toHaveLength(3)
    expect(JSON.parse(lines[2] ?? '')).toMatchObject({ summary: 'Second decision' })
  })

  it('a round line torn by a crash names nothing: the next round records its states again, on a line of its own', async () => {
    const round = [decision, insight].map((m) => reduceMemory(inputOf(m, { evidence: EVIDENCE })))
    const first = await createViewWriter({ dataDir }).writeRound(round, NOW)
    const file = join(dataDir, 'coordination/reducers.jsonl')
    const whole = await readFile(file, 'utf8')
    await rm(file)
    await appendFile(file, whole.slice(0, whole.length - 40)) // the line without its end (and newline)
    const again = await createViewWriter({ dataDir }).writeRound(round, NOW)
    expect(again.results.map((r) => r.written)).toEqual([
      { object: false, attachment: false, reduction: true }, { object: false, attachment: false, reduction: true }
    ])
    expect(again.results.map((r) => r.reductionId)).toEqual(first.results.map((r) => r.reductionId))
    const lines = (await readFile(file, 'utf8')).split('\n').filter((l) => l !== '')
    expect(lines).toHaveLength(2)
    expect(JSON.parse(lines[1] ?? '')).toEqual(again.records[0])
  })

  it('a round of more than MAX_REDUCTIONS_PER_EVENT new states takes several lines, each under the limit', async () => {
    const round = Array.from({ length: MAX_REDUCTIONS_PER_EVENT + 6 }, (_, i) => reduceMemory(inputOf(memoryOf({ type: 'fact', summary: `round fact ${i}` }))))
    const { records, results } = await createViewWriter({ dataDir }).writeRound(round, NOW)
    const sizes = records.map((r) => Object.values(r.reductions).reduce((n, objects) => n + Object.keys(objects).length, 0))
    expect(sizes).toEqual([MAX_REDUCTIONS_PER_EVENT, 6])
    expect(records.flatMap((r) => Object.values(r.reductions).flatMap((o) => Object.values(o)))).toEqual(results.map((r) => r.reductionId))
    expect(await linesOf('coordination/reducers.jsonl')).toHaveLength(2)
  })

  it('serialises concurrent writes', async () => {
    const writer = createViewWriter({ dataDir })
    const memories = Array.from({ length: 20 }, (_, i) => memoryOf({ type: 'fact', summary: `fact number ${i}` }))
    const reductions = memories.map((m) => reduceMemory(inputOf(m)))
    await Promise.all([...reductions, ...reductions].map(async (r) => await writer.write(r, NOW)))
    expect(await linesOf('views/facts/default/2026-02.jsonl')).toHaveLength(20)
    expect(await linesOf('coordination/reducers.jsonl')).toHaveLength(20)
  })
})

describe('recall is filesystem-native (spec §11)', () => {
  it('grep -r finds an object by a word of its summary, and the line is a valid view object', async () => {
    const writer = createViewWriter({ dataDir })
    for (const memory of [decision, insight, promise]) {
      await writer.write(reduceMemory(inputOf(memory, { evidence: EVIDENCE, trust: TRUST })), NOW)
    }
    const grep = async (...args: string[]): Promise<string[]> =>
      (await run('grep', ['-r', ...args], { cwd: dataDir })).stdout.split('\n').filter((line) => line !== '')

    for (const [word, memory, file] of [
      ['append-only', decision, 'views/decisions/default/2026-02.jsonl'],
      ['Synthesis', insight, 'views/facts/default/2026-01.jsonl'],
      ['benchmark', promise, 'views/commitments/default/2026-02.jsonl']
    ] as const) {
      expect(await grep('-l', word, 'views/'), word).toEqual([file])
      const [line] = await grep('--no-filename', word, 'views/')
      const object = ViewObjectSchema.parse(JSON.parse(line ?? ''))
      expect(object.summary, word).toBe(memory.signed.record.content.summary)
      expect(object.source, word).toBe(memory.id)
      expect(isLineHashValid(object), word).toBe(true)

      // Following evidence_ref leads to the attachment with the anchors and attestations, and
      // grep for it over views/ finds the object and its attachment: the compact line needs no back-reference.
      const [attachment] = await grep('--no-filename', object.evidence_ref ?? 'none', 'views/attach/')
      expect(AttachmentSchema.parse(JSON.parse(attachment ?? '')), word).toMatchObject({
        id: object.evidence_ref, attestations: Object.fromEntries(EVIDENCE.attestations.map((a) => [a.id, a.verdict]))
      })
      expect((await grep('-l', object.evidence_ref ?? 'none', 'views/')).sort(), word).toEqual([`views/attach/default/${object.ts.slice(0, 7)}.jsonl`, file].sort())
    }
  })
})
