import { sha256 } from '@noble/hashes/sha2.js'
import canonicalize from 'canonicalize'
import { IsnadError } from '../../errors/index.js'

/**
 * The ledger line hash (Memory Format Spec V3.1 §8, docs/architecture.md, "The data directory"): `sha256:` + lower-case hex SHA-256 of
 * the RFC 8785 (JCS) canonical JSON of the line without its `hash` field. The ledger module owns the
 * normative implementation; this copy keeps the views pure and testable on their own, and every
 * function that hashes takes a `HashLine` so the integrator can inject the ledger's.
 */
export type HashLine = (line: Readonly<Record<string, unknown>>) => string

const encoder = new TextEncoder()

export const hashLine: HashLine = (line) => {
  const { hash: _ignored, ...rest } = line
  const text = canonicalize(rest)
  // canonicalize returns undefined only for `undefined`; a non-finite number throws (RFC 8785 §3.2.2.3).
  if (text === undefined) throw new IsnadError('SCHEMA_INVALID', 'a ledger line must be a JSON object')
  return 'sha256:' + toHex(sha256(encoder.encode(text)))
}

/** The line with its `hash` set (last, so a printed line ends with it). */
export function withHash<T extends Record<string, unknown>> (line: T, hash: HashLine = hashLine): T & { hash: string } {
  // One copy, not two, for a line without a hash yet (every line the reducer builds).
  if (!Object.hasOwn(line, 'hash')) return { ...line, hash: hash(line) }
  const { hash: _ignored, ...rest } = line
  return { ...rest, hash: hash(rest) } as T & { hash: string }
}

/** True when the line's `hash` is the hash of its other fields (spec §8: a mismatch is a validation error). */
export function isLineHashValid (line: Readonly<Record<string, unknown>>, hash: HashLine = hashLine): boolean {
  return typeof line.hash === 'string' && line.hash === hash(line)
}

export function toHex (bytes: Uint8Array): string {
  let out = ''
  for (const byte of bytes) out += byte.toString(16).padStart(2, '0')
  return out
}
