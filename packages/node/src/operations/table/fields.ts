import { z } from 'zod'
import { didKey, isoTimestamp, isRecordCid, recordCid, utf8Length } from '../../schema/index.js'
import { MAX_PASSPHRASE_BYTES } from '../constants.js'
import { CID_ISSUE, DID_ISSUE, type CliField } from './spec.js'

/*
 * Fields several operations share, each described once for a person and an LLM. A record id is
 * checked here with CID_ISSUE so that a malformed one is CID_INVALID on every surface.
 */

/** A record id: the canonical CIDv1 (dag-cbor, sha2-256, base32) string. */
export function cidField (description: string): z.ZodString {
  // recordCid keeps its pattern in the OpenAPI document; the refinement marks the issue CID_INVALID.
  return recordCid.refine(isRecordCid, { message: 'not a record id (a CID like bafyrei…)', params: CID_ISSUE }).describe(description)
}

/** A did:key's pattern (Ed25519, base58btc multibase). */
export const DID_KEY = /^did:key:z[1-9A-HJ-NP-Za-km-z]+$/

/** A did:key (Ed25519, base58btc); a malformed one is DID_INVALID. */
export function didField (description: string): z.ZodString {
  return didKey.refine((did) => did.length <= 128 && DID_KEY.test(did), { message: 'not a did:key', params: DID_ISSUE }).describe(description)
}

export function timeField (description: string): z.ZodString {
  return isoTimestamp.describe(`${description} (UTC ISO-8601 with Z, e.g. 2026-02-05T16:00:00Z)`)
}

const passphrase = z.string().min(1)
  .refine((p) => utf8Length(p) <= MAX_PASSPHRASE_BYTES, { message: `longer than ${MAX_PASSPHRASE_BYTES} UTF-8 bytes` })

/** Operations that sign name the key (`as`, default: the node's default key) and may unlock it. */
export const signerFields = {
  as: didField('did:key of the local agent that signs; absent: the home\'s default key').optional(),
  passphrase: passphrase.describe('unlocks the signing key when it is passphrase-encrypted; never stored or logged (MCP never takes it: the server reads it from its own configuration)').optional()
}

/**
 * The memory an operation acts on was `memory` in HTTP bodies and MCP arguments before the argument
 * naming rule made it `id` (argument-rule.ts A2); those operations still take the old name (`aliases`).
 */
export const OLD_NAME_MEMORY = ' (old name: `memory`, still accepted)'

/** The memory an operation acts on, as a command's positional argument: `<memory>`, without the old-name note of the other surfaces. */
export const MEMORY_ARGUMENT = { value: 'memory', description: 'the memory id (CID)' } as const satisfies CliField

/** An input with no fields. */
export const NoInput = z.strictObject({})
