import {
  AnchorRecordSchema, AttestationDrawSchema, AttestationRecordSchema, MemoryAuthorSchema, MemoryContentSchema, MemoryContextSchema,
  MemoryLineageSchema, MemoryRecordSchema, SignedRecordSchema, WitnessRequestRecordSchema
} from '../schema/index.js'

/**
 * The field names of record-v1 (every record schema's keys, and `record`, `signature`), by UTF-8
 * length: canonical-cbor.ts returns a map key equal to one of them as that constant, without building a string
 * (a record has ~20 keys) and already internalized for the property store that follows.
 */
export const RECORD_FIELD_NAMES_BY_LENGTH: ReadonlyArray<readonly string[]> = (() => {
  const names = new Set<string>()
  for (const schema of [
    SignedRecordSchema, MemoryRecordSchema, MemoryContentSchema, MemoryAuthorSchema, MemoryContextSchema,
    MemoryLineageSchema, AttestationRecordSchema, AttestationDrawSchema, AnchorRecordSchema, WitnessRequestRecordSchema
  ]) {
    for (const key of Object.keys(schema.shape)) names.add(key)
  }
  const byLength: string[][] = []
  for (const name of names) (byLength[name.length] ??= []).push(name) // ASCII: characters are bytes
  return byLength
})()
