import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { generateJsonSchemas, JSON_SCHEMA_SOURCES, RECORD_CID_PATTERN } from '../../../src/schema/index.js'

const DIR = new URL('../../../protocols/schemas/', import.meta.url)

function committed (fileName: string): string | null {
  try {
    return readFileSync(new URL(fileName, DIR), 'utf8')
  } catch {
    return null
  }
}

describe('protocols/schemas (record-v1 §9)', () => {
  const generated = generateJsonSchemas()

  it('publishes one schema per name', () => {
    expect(generated.map((s) => s.fileName)).toEqual(Object.keys(JSON_SCHEMA_SOURCES).map((name) => `${name}.schema.json`))
  })

  for (const { fileName, text } of generated) {
    it(`${fileName} is up to date`, () => {
      // Stale or missing: the zod schemas changed without regenerating.
      expect(committed(fileName), `protocols/schemas/${fileName} is stale or missing: run \`npm run schemas\` and commit the result`).toBe(text)
    })

    it(`${fileName} is closed draft 2020-12`, () => {
      const schema = JSON.parse(text) as Record<string, unknown>
      expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema')
      if (schema.type === 'object') expect(schema.additionalProperties, fileName).toBe(false)
    })
  }

  it('carries the exact record CID pattern (record-v1 R6)', () => {
    const memory = generated.find((s) => s.name === 'attestation')
    expect(JSON.parse(memory?.text ?? '{}')).toMatchObject({ properties: { memory: { pattern: RECORD_CID_PATTERN.source } } })
  })
})
