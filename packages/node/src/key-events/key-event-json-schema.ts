import { z } from 'zod'
import { KeyEventSchema, KeyLogSchema, SignedKeyEventSchema } from './schema.js'

/** The JSON Schemas of key events (record-v1 §13.5), generated like those of src/schema/json-schema.ts. */
export const KEY_EVENT_JSON_SCHEMA_SOURCES = {
  'key-event': { schema: KeyEventSchema, title: 'isnad key event (record-v1 §13)' },
  'signed-key-event': { schema: SignedKeyEventSchema, title: 'isnad signed key event { record, signature, co_signature? } (record-v1 §13)' },
  'key-log': { schema: KeyLogSchema, title: 'isnad key log { events } (record-v1 §13, gossip-v1 §9)' }
} as const

// The published schemas' text names the folder as it was (src/key-events now): changing it would change them.
const DESCRIPTION = 'Generated from src/keyring by scripts/generate-schemas.ts (npm run schemas); do not edit. ' +
  'Normative text: protocols/record-v1.md §13. A document valid against this schema may still break a rule ' +
  'JSON Schema cannot express (the chain rules K3–K13); verifiers run the full checks.'

/** Each schema as the text of its file (`<name>.schema.json`, 2-space JSON, final newline). */
export function generateKeyEventJsonSchemas (): Array<{ name: string, fileName: string, text: string }> {
  return Object.entries(KEY_EVENT_JSON_SCHEMA_SOURCES).map(([name, { schema, title }]) => {
    const json = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input', unrepresentable: 'throw' })
    const { $schema, ...rest } = json
    const document = { $schema, title, description: DESCRIPTION, ...rest }
    return { name, fileName: `${name}.schema.json`, text: JSON.stringify(document, null, 2) + '\n' }
  })
}
