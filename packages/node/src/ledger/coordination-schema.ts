import { z } from 'zod'
import { ID_PREFIXES, isoTimestamp, lineHash, typedId } from '../schema/index.js'
import { hashedLineValidator, type LineValidator } from './entries.js'
import { verifyLineHash } from './line-hash.js'

/**
 * Lines of the operational ledgers this module writes (spec §10): `coordination/instances.jsonl`,
 * `coordination/leases.jsonl`, and the `torn_tail` findings of `governance/findings/findings.jsonl`.
 * Like events they carry a spec §8 `hash`.
 */

const pid = z.number().int().min(0)
const hostname = z.string().min(1).max(255)

/** `registered` once per data directory (its instance id persists), `seen` once per run. */
export const InstanceLineSchema = z.strictObject({
  kind: z.enum(['registered', 'seen']),
  instance_id: typedId(ID_PREFIXES.instance),
  run_id: typedId(ID_PREFIXES.run),
  pid,
  hostname,
  ts: isoTimestamp,
  hash: lineHash
})
export type InstanceLine = z.infer<typeof InstanceLineSchema>

/** The content of `coordination/writer.lock`: who holds the data directory for writing. */
export const WriterLockInfoSchema = z.strictObject({
  pid,
  hostname,
  instance_id: typedId(ID_PREFIXES.instance),
  run_id: typedId(ID_PREFIXES.run),
  lease_id: typedId(ID_PREFIXES.lease),
  started_at: isoTimestamp
})
export type WriterLockInfo = z.infer<typeof WriterLockInfoSchema>

/** One line per lease event; `taken_over` names the dead holder whose lock was replaced. */
export const LeaseLineSchema = z.strictObject({
  kind: z.enum(['acquired', 'released', 'taken_over']),
  lease_id: typedId(ID_PREFIXES.lease),
  instance_id: typedId(ID_PREFIXES.instance),
  run_id: typedId(ID_PREFIXES.run),
  pid,
  hostname,
  ts: isoTimestamp,
  previous: WriterLockInfoSchema.optional(),
  hash: lineHash
})
export type LeaseLine = z.infer<typeof LeaseLineSchema>

/** A torn last line found at open, copied to `evidence` and then cut off its shard. */
export const TornTailFindingSchema = z.strictObject({
  id: typedId(ID_PREFIXES.finding),
  kind: z.literal('torn_tail'),
  /** The shard, relative to the data directory. */
  file: z.string().min(1),
  /** Where the torn bytes began: the shard's length after truncation. */
  offset: z.number().int().min(0),
  /** How many bytes were torn off. */
  bytes: z.number().int().min(1),
  /** Why the tail failed: no newline, or the check its last line failed. */
  reason: z.enum(['unterminated', 'utf8', 'json', 'schema', 'hash', 'order', 'archive']),
  /** The byte-for-byte copy, relative to the data directory. */
  evidence: z.string().min(1),
  /** Hex SHA-256 of the torn bytes, so the copy can be checked. */
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  ts: isoTimestamp,
  hash: lineHash
})
export type TornTailFinding = z.infer<typeof TornTailFindingSchema>

export const validateInstanceLine: LineValidator<InstanceLine> = hashedLineValidator(InstanceLineSchema)
export const validateLeaseLine: LineValidator<LeaseLine> = hashedLineValidator(LeaseLineSchema)

/**
 * The check for lines of shared operational ledgers that other writers (audit, repair, reducers)
 * append to as well: a JSON object, whose `hash` verifies when it has one. Recovery uses it to decide
 * whether a last line is torn, so it must never call another writer's well-formed line torn.
 */
export const validateOperationalLine: LineValidator<Record<string, unknown>> = (text) => {
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch (err) {
    return { ok: false, reason: 'json', message: err instanceof Error ? err.message : 'not JSON' }
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return { ok: false, reason: 'schema', message: 'not a JSON object' }
  if ('hash' in raw && !verifyLineHash(raw)) return { ok: false, reason: 'hash', message: 'hash does not match the canonical payload' }
  return { ok: true, value: raw as Record<string, unknown> }
}
