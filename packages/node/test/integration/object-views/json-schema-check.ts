/**
 * A minimal JSON Schema (draft 2020-12) checker for the keywords the generated `_meta/` schemas use:
 * type, const, enum, pattern, minLength, maxLength, minimum, maximum, items, minItems, maxItems,
 * properties, required, additionalProperties, propertyNames. Enough to show that what the reducer
 * writes is accepted by the schema it publishes, without a JSON Schema library. Unknown keywords fail
 * loudly, so a schema growing a new keyword cannot be silently half-checked.
 */
type Schema = Record<string, unknown>

const KNOWN = new Set(['$schema', 'title', 'description', 'type', 'const', 'enum', 'pattern', 'minLength', 'maxLength', 'minimum',
  'maximum', 'items', 'minItems', 'maxItems', 'properties', 'required', 'additionalProperties', 'propertyNames', 'format'])

export function checkJsonSchema (schema: Schema, value: unknown, path = '$'): string[] {
  const errors: string[] = []
  const fail = (message: string): void => { errors.push(`${path}: ${message}`) }
  for (const key of Object.keys(schema)) if (!KNOWN.has(key)) throw new Error(`${path}: unsupported keyword ${key}`)
  if (schema.type !== undefined && !hasType(value, schema.type as string)) return [`${path}: not a ${String(schema.type)}`]
  if ('const' in schema && value !== schema.const) fail(`not ${JSON.stringify(schema.const)}`)
  if (Array.isArray(schema.enum) && !schema.enum.includes(value)) fail('not in enum')
  if (typeof value === 'string') {
    if (typeof schema.pattern === 'string' && !new RegExp(schema.pattern, 'u').test(value)) fail(`does not match ${schema.pattern}`)
    const length = Array.from(value).length // JSON Schema counts code points
    if (typeof schema.minLength === 'number' && length < schema.minLength) fail('too short')
    if (typeof schema.maxLength === 'number' && length > schema.maxLength) fail('too long')
  }
  if (typeof value === 'number') {
    if (typeof schema.minimum === 'number' && value < schema.minimum) fail('below minimum')
    if (typeof schema.maximum === 'number' && value > schema.maximum) fail('above maximum')
  }
  if (Array.isArray(value)) {
    if (typeof schema.minItems === 'number' && value.length < schema.minItems) fail('too few items')
    if (typeof schema.maxItems === 'number' && value.length > schema.maxItems) fail('too many items')
    if (typeof schema.items === 'object' && schema.items !== null) {
      value.forEach((item, i) => errors.push(...checkJsonSchema(schema.items as Schema, item, `${path}[${i}]`)))
    }
  }
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const record = value as Record<string, unknown>
    const properties = (schema.properties ?? {}) as Record<string, Schema>
    for (const key of (schema.required ?? []) as string[]) if (!(key in record)) fail(`missing ${key}`)
    for (const [key, item] of Object.entries(record)) {
      const sub = properties[key]
      if (sub !== undefined) errors.push(...checkJsonSchema(sub, item, `${path}.${key}`))
      else if (schema.additionalProperties === false) fail(`unexpected ${key}`)
      else if (typeof schema.additionalProperties === 'object') errors.push(...checkJsonSchema(schema.additionalProperties as Schema, item, `${path}.${key}`))
      if (typeof schema.propertyNames === 'object') errors.push(...checkJsonSchema(schema.propertyNames as Schema, key, `${path}{${key}}`))
    }
  }
  return errors
}

function hasType (value: unknown, type: string): boolean {
  switch (type) {
    case 'string': return typeof value === 'string'
    case 'number': return typeof value === 'number' && Number.isFinite(value)
    case 'integer': return Number.isInteger(value)
    case 'boolean': return typeof value === 'boolean'
    case 'array': return Array.isArray(value)
    case 'object': return typeof value === 'object' && value !== null && !Array.isArray(value)
    case 'null': return value === null
    default: throw new Error(`unsupported type ${type}`)
  }
}
