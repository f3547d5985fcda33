import { z } from 'zod'
import { describe, expect, it } from 'vitest'
import { cidField, didField } from '../../../src/operations/table/fields.js'
import {
  ARGUMENT_NAMES, OPERATIONS, argumentKindOf, argumentNameFaults, argumentShapeConflicts, defineOperation, parseOperationInput, pathParamsOf, type OperationSpec
} from '../../../src/operations/index.js'

/*
 * The argument naming rule (src/operations/table/argument-rule.ts) over every operation of the table: an
 * operation added with `memory` for the memory it acts on, a list named in the singular, or a name
 * that means a list here and a string there fails here, naming the field and the fix.
 */

const ID = 'bafyreigdmqpykrgxyaxtlafqpqhzrb7qy2rh75nldvfd4tucqmqqme5yje'

/** An operation of the table's shape with this input, for the rule's own cases. */
function operation (input: z.ZodObject, path = '/v1/x'): OperationSpec {
  return defineOperation({
    name: 'example',
    summary: 'an operation made up for the naming rule\'s own cases',
    input,
    output: z.object({}),
    errors: [],
    http: { method: 'post', path, in: 'body' },
    cli: { command: 'example' },
    mcp: { excluded: 'made up for a test' },
    run: async () => ({})
  }) as unknown as OperationSpec
}

describe('the argument naming rule', () => {
  it('holds for every operation of the table', () => {
    expect(OPERATIONS.length).toBeGreaterThan(30)
    expect(OPERATIONS.flatMap(argumentNameFaults)).toEqual([])
    expect(argumentShapeConflicts(OPERATIONS)).toEqual([])
  })

  it('reads what a field holds from its schema: one record, several, one agent, several', () => {
    expect(argumentKindOf(cidField('a memory'))).toBe('record')
    expect(argumentKindOf(cidField('a memory').optional())).toBe('record')
    expect(argumentKindOf(z.array(cidField('a memory')))).toBe('records')
    expect(argumentKindOf(didField('an agent'))).toBe('agent')
    expect(argumentKindOf(z.array(didField('an agent')).optional())).toBe('agents')
    expect(argumentKindOf(z.string())).toBe('other')
  })

  it('names the memory an operation acts on `id`, several `ids`, the agent `did`, in every operation and every path', () => {
    const subjects = new Map<string, string[]>()
    for (const spec of OPERATIONS) {
      const shape = spec.input.shape as Record<string, z.ZodType>
      for (const [name, field] of Object.entries(shape)) {
        const kind = argumentKindOf(field)
        if (kind !== 'other' && name === ARGUMENT_NAMES[kind].subject) subjects.set(name, [...(subjects.get(name) ?? []), spec.name])
      }
      // A route names its subject in its path: `{id}` holds a record, `{did}` an agent.
      for (const param of pathParamsOf(spec)) {
        const field = shape[param]
        const kind = field === undefined ? 'other' : argumentKindOf(field)
        expect(kind === 'other' ? undefined : ARGUMENT_NAMES[kind].subject, `${spec.name} {${param}}`).toBe(param)
      }
    }
    // Samples of each subject, so a rule that stopped reading schemas would be seen here.
    expect(subjects.get('id')).toEqual(expect.arrayContaining(['show', 'attest', 'proveRecord']))
    expect(subjects.get('ids')).toEqual(expect.arrayContaining(['exportBundle']))
    expect(subjects.get('did')).toEqual(expect.arrayContaining(['keyInfo', 'reputation']))
  })

  it('finds each way an operation can break it, and says the fix', () => {
    const faults = argumentNameFaults(operation(z.strictObject({
      memory: cidField('the memory'),
      record_id: cidField('another'),
      witness: didField('an agent'),
      id: z.string(),
      tag: z.array(z.string())
    }), '/v1/x/{memory}'))
    expect(faults).toEqual([
      'example.memory: A8 `memory` is now `id`',
      'example.memory: A2 holds record: name it `id` (the operation\'s subject) or a role of ARGUMENT_NAMES.record.roles',
      'example.record_id: A1 names are lowerCamelCase',
      'example.record_id: A2 holds record: name it `id` (the operation\'s subject) or a role of ARGUMENT_NAMES.record.roles',
      'example.witness: A3 holds agent: name it `did` (the operation\'s subject) or a role of ARGUMENT_NAMES.agent.roles',
      'example.id: A4 `id` is reserved for record, this holds other',
      'example.tag: A6 a list is named in the plural',
      'example: A7 path parameter {memory} is not the subject (`id` or `did`)'
    ])
    const clash = operation(z.strictObject({ tags: z.string() }))
    expect(argumentShapeConflicts([...OPERATIONS, clash])).toEqual([
      'A5 `tags` means array<string> in remember, query, select; string in example'
    ])
  })

  it('refuses a renamed argument with its new name, on every surface (the one parse)', () => {
    const show = OPERATIONS.find((s) => s.name === 'show') as OperationSpec
    expect(() => parseOperationInput(show, { memory: ID })).toThrow(expect.objectContaining({
      code: 'SCHEMA_INVALID', message: expect.stringMatching(/^show input is invalid: `memory` is now `id`/) as unknown
    }))
    expect(parseOperationInput(show, { id: ID })).toEqual({ id: ID })
  })

  it('still takes `memory` where HTTP bodies and MCP arguments carried it, never beside `id`', () => {
    for (const name of ['attest', 'addAnchor', 'checkAnchors', 'requestWitnesses']) {
      const spec = OPERATIONS.find((s) => s.name === name) as OperationSpec
      expect(spec.aliases, name).toEqual({ memory: 'id' })
      expect((spec.input.shape as Record<string, z.ZodType>).id?.description, name).toMatch(/old name: `memory`, still accepted/)
    }
    const attest = OPERATIONS.find((s) => s.name === 'attest') as OperationSpec
    expect(parseOperationInput(attest, { memory: ID, verdict: 'confirm' })).toEqual({ id: ID, verdict: 'confirm' })
    expect(() => parseOperationInput(attest, { memory: ID, id: ID, verdict: 'confirm' })).toThrow(expect.objectContaining({ code: 'USAGE' }))
  })
})
