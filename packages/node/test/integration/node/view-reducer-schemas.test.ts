import { describe, expect, it } from 'vitest'
import { AttachmentSchema, ReductionRecordSchema, isLineHashValid } from '../../../src/ledger/object-views/index.js'
import { ViewReducer } from '../../../src/node/journal/object-view-reducer.js'
import { ViewObjectSchema, type ContentType } from '../../../src/schema/index.js'
import type { StoredRecord } from '../../../src/record-index/index.js'
import { createAgent, createAnchor, createAttestation, createMemory, type TestAgent } from '../../fixtures/records.js'
import { recoveryOf, useStoreHome, viewFiles } from './view-fixtures.js'

/*
 * The node's reducer builds view lines without a schema self-check (its inputs are records the
 * store validated). This is the check that replaces it: many memories of every content type, with
 * attestations of every verdict, anchors, corrections and structured tags, reduced page by page as
 * sync stores them; every line written must pass its zod schema and its hash, as any reader of the
 * files (the audit) requires.
 */

const agents = [createAgent(90), createAgent(91), createAgent(92), createAgent(93)]
const agentAt = (n: number): TestAgent => agents[n % agents.length] as TestAgent
const TYPES: ContentType[] = ['fact', 'observation', 'insight', 'encounter', 'decision', 'commitment']
const TAGS = [[], ['key:store', 'project:isnad'], ['due:2026-03-01', 'assume:one-writer'], ['due:2026-02-30', 'key:'], ['bench']]
const VERDICTS = ['confirm', 'partial', 'dispute'] as const
const NOW = Date.parse('2026-02-06T12:00:00Z')

/** Pages of records as sync stores them: memories first seen with some evidence, more evidence later. */
function pages (): StoredRecord[][] {
  const memories: StoredRecord[] = []
  const out: StoredRecord[][] = []
  for (let page = 0; page < 8; page++) {
    const records: StoredRecord[] = []
    for (let i = 0; i < 15; i++) {
      const n = page * 15 + i
      const author = agentAt(n)
      const corrected = n % 11 === 10 ? memories[n - 3] : undefined
      const memory = createMemory(author, {
        type: corrected === undefined ? TYPES[n % TYPES.length] : 'correction',
        summary: n % 7 === 0 ? `Décision n°${n}: ¿por qué? 𝄞` : `memory ${n} of the schema check`,
        body: n % 3 === 0 ? `why ${n}` : '',
        tags: TAGS[n % TAGS.length],
        created_at: new Date(Date.UTC(2026, 0, 1 + (n % 50), n % 24)).toISOString(),
        ...(corrected === undefined ? {} : { supersedes: corrected.id })
      })
      memories.push(memory)
      records.push(memory)
      const earlier = memories[Math.max(0, n - 5)] ?? memory
      records.push(createAttestation(agentAt(n + 1), earlier.id, VERDICTS[n % VERDICTS.length]))
      if (n % 4 === 0) records.push(createAnchor(author, memory.id, `https://example.org/evidence/${n}`))
    }
    out.push(records)
  }
  return out
}

async function linesOf (dataDir: string): Promise<Array<{ file: string, line: Record<string, unknown> }>> {
  const out: Array<{ file: string, line: Record<string, unknown> }> = []
  for (const { file, text } of await viewFiles(dataDir)) {
    for (const line of text.split('\n')) {
      if (line !== '') out.push({ file, line: JSON.parse(line) as Record<string, unknown> })
    }
  }
  return out
}

describe('ViewReducer: every line it writes is schema-valid', () => {
  const env = useStoreHome('view-schemas')

  it('objects, attachments and reducer lines of 120 memories and their evidence', async () => {
    const { home, store } = env
    const reducer = new ViewReducer(home, 'default', {}, recoveryOf(home, NOW))
    let events = 0
    for (const records of pages()) {
      await store.putMany(records)
      // One round per page here: its event names every reduction the round arrived at (all new).
      for (const event of await reducer.reduce(store, ViewReducer.touchedBy(records), NOW)) events += (event.payload.reductions as string[]).length
    }
    await reducer.close()

    const lines = await linesOf(home)
    const count = { object: 0, attachment: 0, reduction: 0, roundLines: 0 }
    for (const { file, line } of lines) {
      const schema = file.startsWith('views/attach/') ? AttachmentSchema : file.startsWith('views/') ? ViewObjectSchema : ReductionRecordSchema
      const parsed = schema.safeParse(line)
      expect(parsed.success, `${file}: ${JSON.stringify(parsed.error?.issues)}`).toBe(true)
      expect(isLineHashValid(line), `${file}: hash of ${String(line.id)}`).toBe(true)
      if (file.startsWith('views/attach/')) count.attachment++
      else if (file.startsWith('views/')) count.object++
      else {
        // A round line names its new states, shard by shard (isnad-reduction-v3).
        count.roundLines++
        for (const objects of Object.values(line.reductions as Record<string, Record<string, string>>)) count.reduction += Object.keys(objects).length
      }
    }
    // Every memory has an object; corrections add one per type they were read as; evidence an attachment.
    expect(count.object).toBeGreaterThanOrEqual(120)
    expect(count.attachment).toBeGreaterThanOrEqual(100)
    expect(count.reduction).toBe(events)
    expect(count.roundLines, 'one reducer line per round (page)').toBe(8)
    expect(new Set(lines.filter((l) => l.file.startsWith('views/') && !l.file.startsWith('views/attach/')).map((l) => l.line.type))).toEqual(new Set(['fact', 'decision', 'commitment']))
  })
})
