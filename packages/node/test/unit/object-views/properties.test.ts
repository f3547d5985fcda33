import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  AttachmentSchema, buildAttachment, buildReductionRound, isLineHashValid, objectIdOf, reduceMemory, ReductionRecordSchema, reductionFilesOf, roundEntryOf
} from '../../../src/ledger/object-views/index.js'
import { ViewObjectSchema } from '../../../src/schema/index.js'
import { reduceInput } from './arbitraries.js'

/** Every object the reducer produces from any valid input is a valid spec §6 object, deterministically. */

const RUNS = 300

describe('reducer properties', () => {
  it('every object, attachment and reduction record is schema-valid and hash-valid', () => {
    fc.assert(fc.property(reduceInput, (input) => {
      const reduction = reduceMemory(input)
      const parsed = ViewObjectSchema.safeParse(reduction.object)
      expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true)
      expect(isLineHashValid(reduction.object)).toBe(true)
      if (reduction.attachment !== null) {
        expect(AttachmentSchema.safeParse(reduction.attachment).success).toBe(true)
        expect(isLineHashValid(reduction.attachment)).toBe(true)
      }
      const record = buildReductionRound([roundEntryOf(reduction)], '2030-01-01T00:00:00Z')
      expect(ReductionRecordSchema.safeParse(record).success).toBe(true)
      expect(isLineHashValid(record)).toBe(true)
    }), { numRuns: RUNS })
  })

  // The node reduces without the self-check (selfCheck: false): this is the check, on any valid
  // input, that what it builds then is what the checked path returns, and valid.
  it('without the self-check: the same lines, each schema-valid and hash-valid', () => {
    fc.assert(fc.property(reduceInput, (input) => {
      let checked: ReturnType<typeof reduceMemory>
      try {
        checked = reduceMemory(input)
      } catch {
        return // a hint outside the schema: only the checked path refuses it (the node gives none)
      }
      const reduction = reduceMemory(input, { selfCheck: false })
      expect(JSON.stringify(reduction)).toBe(JSON.stringify(checked))
      const parsed = ViewObjectSchema.safeParse(reduction.object)
      expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true)
      if (reduction.attachment !== null) expect(AttachmentSchema.safeParse(reduction.attachment).success).toBe(true)
    }), { numRuns: RUNS })
    const noHints = fc.sample(reduceInput, { seed: 7, numRuns: RUNS }).map(({ hints: _hints, ...input }) => input)
    for (const input of noHints) {
      const reduction = reduceMemory(input, { selfCheck: false })
      expect(ViewObjectSchema.safeParse(reduction.object).success).toBe(true)
      expect(isLineHashValid(reduction.object)).toBe(true)
      if (reduction.attachment !== null) expect(AttachmentSchema.safeParse(reduction.attachment).success).toBe(true)
    }
  })

  it('attachment entries are in id order whatever their number and order (insertion sort up to 16, Array#sort beyond)', () => {
    const ids = fc.uniqueArray(fc.stringMatching(/^baf[a-z2-7]{6}$/), { minLength: 0, maxLength: 40 })
    fc.assert(fc.property(ids, fc.integer(), (list, seed) => {
      const shuffled = [...list].sort((a, b) => ((a.charCodeAt(4) * seed) % 7) - ((b.charCodeAt(4) * seed) % 7))
      const evidence = { attestations: shuffled.map((id) => ({ id, verdict: 'confirm' as const })), anchors: [] }
      const attachment = buildAttachment({ objectId: 'fac_aaaaaaaaaaaaaaaaaaaaaaaaaa', evidence, trust: { score: 0.5, level: 'Attested', dispute_count: 0 } })
      expect(Object.keys(attachment.attestations ?? {})).toEqual([...list].sort())
    }), { numRuns: 200 })
  })

  it('the same input gives the same lines; the id is a function of type and memory CID', () => {
    fc.assert(fc.property(reduceInput, (input) => {
      const a = reduceMemory(input)
      const b = reduceMemory(structuredClone(input))
      expect(JSON.stringify(b)).toBe(JSON.stringify(a))
      expect(a.object.id).toBe(objectIdOf(a.object.type, input.memory.id))
      expect(a.object.source).toBe(input.memory.id)
      expect(a.object.evidence_ref === undefined).toBe(a.attachment === null)
    }), { numRuns: RUNS })
  })

  it('shards follow the object\'s month and scope', () => {
    fc.assert(fc.property(reduceInput, (input) => {
      const reduction = reduceMemory(input)
      const files = reductionFilesOf(reduction)
      const month = input.memory.signed.record.created_at.slice(0, 7)
      expect(files.object).toBe(`views/${reduction.object.type}s/${input.scope}/${month}.jsonl`)
      if (reduction.attachment !== null) expect(files.attachment).toBe(`views/attach/${input.scope}/${month}.jsonl`)
    }), { numRuns: RUNS })
  })
})
