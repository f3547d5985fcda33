import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  AttachmentSchema, buildReductionRecord, isLineHashValid, objectIdOf, reduceMemory, ReductionRecordSchema, reductionFilesOf
} from '../../../src/ledger/views/index.js'
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
      const record = buildReductionRecord(reduction, '2030-01-01T00:00:00Z')
      expect(ReductionRecordSchema.safeParse(record).success).toBe(true)
    }), { numRuns: RUNS })
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
