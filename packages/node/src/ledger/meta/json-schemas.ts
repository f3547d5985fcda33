import { z } from 'zod'
import { EventSchema, ViewObjectSchema } from '../../schema/index.js'

/**
 * `_meta/event_schema.json` and `_meta/object_schema.json` (Memory Format Spec V3.1 §3, §5, §6):
 * JSON Schemas (draft 2020-12) generated from the zod contracts in src/schema/ledger-lines.ts, which stay
 * the single source of truth, the same way src/schema/json-schema.ts publishes the record schemas.
 * What JSON Schema cannot say is listed in each description.
 */

const LOST = 'Checks a JSON Schema cannot express: timestamps are real calendar instants; `hash` equals ' +
  "'sha256:' + hex SHA-256 of the RFC 8785 canonical JSON of the line without `hash` (spec §8)."

export function buildEventJsonSchema (): Record<string, unknown> {
  return generate(EventSchema, 'diasync-v1-event (Memory Format Spec V3.1 §5)',
    `One line of streams/ or bus/. ${LOST} Lamport clocks (lc) increase along one instance's stream.`)
}

export function buildObjectJsonSchema (): Record<string, unknown> {
  return generate(ViewObjectSchema, 'diasync-v1-object (Memory Format Spec V3.1 §6)',
    `One line of views/{facts,decisions,commitments}/; the newest line for an id wins. ${LOST}`)
}

function generate (schema: z.ZodType, title: string, description: string): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input', unrepresentable: 'throw' })
  const { $schema, ...rest } = json
  // Names the file as it was (src/schema/ledger-lines.ts now): every node's _meta/ holds this text.
  return { $schema, title, description: `Generated from src/schema/ledger.ts; do not edit. ${description}`, ...rest }
}
