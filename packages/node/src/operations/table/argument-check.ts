import { z } from 'zod'
import { RECORD_CID_PATTERN } from '../../schema/index.js'
import { ARGUMENT_NAMES, RENAMED_ARGUMENTS, SEVERAL_BY_ROLE, type ArgumentKind } from './argument-rule.js'
import { DID_KEY } from './fields.js'
import { pathParamsOf, type OperationSpec } from './spec.js'

/*
 * The argument naming rule's check (the rule: argument-rule.ts). test/unit/api/argument-names.test.ts
 * runs it over every operation of the table; a fault names the field, the rule and the fix.
 */

interface JsonField { type?: string, pattern?: string, items?: JsonField, enum?: unknown[], anyOf?: JsonField[] }

function jsonOf (field: z.ZodType): JsonField {
  return z.toJSONSchema(field, { io: 'input', unrepresentable: 'any' }) as JsonField
}

function referenceOf (field: JsonField): 'record' | 'agent' | undefined {
  if (field.type !== 'string') return undefined
  if (field.pattern === RECORD_CID_PATTERN.source) return 'record'
  if (field.pattern === DID_KEY.source) return 'agent'
  return undefined
}

/** A2, A3: which kind of reference a field holds, if any. */
export function argumentKindOf (field: z.ZodType): ArgumentKind {
  const json = jsonOf(field)
  const one = referenceOf(json)
  if (one !== undefined) return one
  const many = json.type === 'array' && json.items !== undefined ? referenceOf(json.items) : undefined
  return many === undefined ? 'other' : `${many}s`
}

/** A5: the shape of a field's value, bounds and descriptions aside (`array<string>`, `enum:fact|…`). */
export function argumentShapeOf (field: z.ZodType): string {
  const shape = (json: JsonField): string => {
    if (json.enum !== undefined) return `enum:${json.enum.join('|')}`
    if (json.anyOf !== undefined) return json.anyOf.map(shape).join(' or ')
    const kind = referenceOf(json)
    if (kind !== undefined) return kind
    if (json.type === 'array') return `array<${json.items === undefined ? '?' : shape(json.items)}>`
    return json.type ?? 'any'
  }
  return shape(jsonOf(field))
}

const CAMEL = /^[a-z][a-zA-Z0-9]*$/
const RESERVED: ReadonlyMap<string, ArgumentKind> = new Map(
  Object.entries(ARGUMENT_NAMES).map(([kind, names]) => [names.subject, kind as ArgumentKind])
)

/** Every way one operation's input breaks A1–A4, A6–A8, each naming the field and the fix. */
export function argumentNameFaults (spec: OperationSpec): string[] {
  const faults: string[] = []
  const shape = spec.input.shape as Record<string, z.ZodType>
  for (const [name, field] of Object.entries(shape)) {
    const at = `${spec.name}.${name}`
    if (!CAMEL.test(name)) faults.push(`${at}: A1 names are lowerCamelCase`)
    const renamed = RENAMED_ARGUMENTS[name]
    if (renamed !== undefined) faults.push(`${at}: A8 \`${name}\` is now \`${renamed}\``)
    const kind = argumentKindOf(field)
    if (kind !== 'other') {
      const names = ARGUMENT_NAMES[kind]
      if (name !== names.subject && !names.roles.includes(name)) {
        faults.push(`${at}: ${kind.startsWith('record') ? 'A2' : 'A3'} holds ${kind}: name it \`${names.subject}\` (the operation's subject) or a role of ARGUMENT_NAMES.${kind}.roles`)
      }
    }
    const reserved = RESERVED.get(name)
    if (reserved !== undefined && reserved !== kind) faults.push(`${at}: A4 \`${name}\` is reserved for ${reserved}, this holds ${kind}`)
    if (argumentShapeOf(field).startsWith('array<') && !name.endsWith('s') && !SEVERAL_BY_ROLE.has(name)) {
      faults.push(`${at}: A6 a list is named in the plural`)
    }
  }
  for (const param of pathParamsOf(spec)) {
    if (param !== 'id' && param !== 'did') faults.push(`${spec.name}: A7 path parameter {${param}} is not the subject (\`id\` or \`did\`)`)
  }
  return faults
}

/** A5 across operations: each name that means two shapes of value, with the operations that use each. */
export function argumentShapeConflicts (specs: readonly OperationSpec[]): string[] {
  const shapes = new Map<string, Map<string, string[]>>()
  for (const spec of specs) {
    for (const [name, field] of Object.entries(spec.input.shape as Record<string, z.ZodType>)) {
      const byShape = shapes.get(name) ?? new Map<string, string[]>()
      const shape = argumentShapeOf(field)
      byShape.set(shape, [...(byShape.get(shape) ?? []), spec.name])
      shapes.set(name, byShape)
    }
  }
  return [...shapes.entries()].filter(([, byShape]) => byShape.size > 1)
    .map(([name, byShape]) => `A5 \`${name}\` means ${[...byShape.entries()].map(([shape, ops]) => `${shape} in ${ops.join(', ')}`).join('; ')}`)
}
