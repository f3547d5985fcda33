import { z } from 'zod'
import {
  AnchorRecordSchema, AttestationRecordSchema, MemoryRecordSchema, SignedRecordSchema, WitnessRequestRecordSchema
} from './records.js'
import { BundleSchema, MemoryViewSchema } from './memory-view.js'

/**
 * The JSON Schemas published in protocols/schemas/ (record-v1 §9), generated from the zod schemas,
 * which stay the single source of truth. Refinements JSON Schema cannot express (UTF-8 byte limits,
 * calendar dates, claims only on partial, …) are lost; record-v1 §9 lists them.
 */
export const JSON_SCHEMA_SOURCES = {
  memory: { schema: MemoryRecordSchema, title: 'isnad Memory record (record-v1)' },
  attestation: { schema: AttestationRecordSchema, title: 'isnad Attestation record (record-v1)' },
  anchor: { schema: AnchorRecordSchema, title: 'isnad Anchor record (record-v1)' },
  'witness-request': { schema: WitnessRequestRecordSchema, title: 'isnad WitnessRequest record (record-v1)' },
  'signed-record': { schema: SignedRecordSchema, title: 'isnad signed record { record, signature } (record-v1 §3)' },
  'memory-view': { schema: MemoryViewSchema, title: 'isnad memory view (record-v1 §7)' },
  bundle: { schema: BundleSchema, title: 'isnad export bundle (record-v1 §6)' }
} as const

export type JsonSchemaName = keyof typeof JSON_SCHEMA_SOURCES

export interface GeneratedJsonSchema {
  name: JsonSchemaName
  /** `<name>.schema.json`, under protocols/schemas/. */
  fileName: string
  /** The file's exact text: 2-space JSON and a final newline. */
  text: string
}

const DESCRIPTION = 'Generated from src/schema by scripts/generate-schemas.ts (npm run schemas); do not edit. ' +
  'Normative text: protocols/record-v1.md. A document valid against this schema may still break a rule ' +
  'JSON Schema cannot express (record-v1 §9); verifiers run the full pipeline.'

/** Every published schema (draft 2020-12), in a fixed order, as the text of its file. */
export function generateJsonSchemas (): GeneratedJsonSchema[] {
  return (Object.keys(JSON_SCHEMA_SOURCES) as JsonSchemaName[]).map((name) => {
    const { schema, title } = JSON_SCHEMA_SOURCES[name]
    const json = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input', unrepresentable: 'throw' })
    const { $schema, ...rest } = json
    const document = { $schema, title, description: DESCRIPTION, ...rest }
    return { name, fileName: `${name}.schema.json`, text: JSON.stringify(document, null, 2) + '\n' }
  })
}
