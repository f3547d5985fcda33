import { IsnadError } from '../../errors/index.js'
import type { RecordLocation } from '../../schema/index.js'

/*
 * The value of a record in the `records` sublevel (key-layout.ts) since layout 5: where the record's
 * canonical bytes are, not the bytes themselves (docs/ledger-packs.md: each record stored once, beside the
 * ledger). One tag byte, then unsigned LEB128 varints:
 *
 *   0x00 <bytes…>                                held: the bytes themselves (a witness request,
 *                                                whose ledger event embeds it as JSON; a record of
 *                                                a per-record event of the layout before packs; a
 *                                                store without a ledger)
 *   0x01 <file> <base> <offset> <length>         inline: a pack inside its event's line (RecordLocation)
 *   0x02 <file> <offset> <length>                pack: a pack file
 *
 * `file` is a number the `files` sublevel maps to a path relative to `.memory/` (a stream shard or
 * a pack file is named once, not once per record): a location is 8–12 bytes where the bytes were
 * ~460 (a memory) or ~330 (an attestation).
 */

export const HELD = 0x00
const INLINE = 0x01
const PACK = 0x02

/** A decoded value: the bytes themselves, or where they are (with the file as its number). */
export type StoredValue =
  | { kind: 'held', bytes: Uint8Array }
  | { kind: 'inline', file: number, base: number, offset: number, length: number }
  | { kind: 'pack', file: number, offset: number, length: number }

export function encodeHeld (bytes: Uint8Array): Uint8Array {
  const out = new Uint8Array(bytes.length + 1)
  out[0] = HELD
  out.set(bytes, 1)
  return out
}

export function encodeLocation (location: RecordLocation, file: number): Uint8Array {
  const parts = location.kind === 'inline'
    ? [file, location.base, location.offset, location.length]
    : [file, location.offset, location.length]
  const out: number[] = [location.kind === 'inline' ? INLINE : PACK]
  for (const n of parts) writeVarint(out, n)
  return Uint8Array.from(out)
}

export function decodeStoredValue (id: string, value: Uint8Array): StoredValue {
  const tag = value[0]
  if (tag === HELD) return { kind: 'held', bytes: value.subarray(1) }
  const numbers: number[] = []
  let at = 1
  while (at < value.length) {
    const [n, next] = readVarint(id, value, at)
    numbers.push(n)
    at = next
  }
  if (tag === INLINE && numbers.length === 4) {
    const [file, base, offset, length] = numbers as [number, number, number, number]
    return { kind: 'inline', file, base, offset, length }
  }
  if (tag === PACK && numbers.length === 3) {
    const [file, offset, length] = numbers as [number, number, number]
    return { kind: 'pack', file, offset, length }
  }
  throw damaged(id)
}

/** Unsigned LEB128 of a safe integer (numbers above 2³¹ are not shifted: offsets may pass 4 GiB). */
function writeVarint (out: number[], n: number): void {
  if (!Number.isSafeInteger(n) || n < 0) throw new IsnadError('USAGE', `a record location holds a whole number ≥ 0, got ${n}`)
  while (n >= 0x80) {
    out.push((n % 0x80) | 0x80)
    n = Math.floor(n / 0x80)
  }
  out.push(n)
}

function readVarint (id: string, bytes: Uint8Array, at: number): [number, number] {
  let n = 0
  let scale = 1
  for (let i = at; i < bytes.length && i < at + 8; i++) {
    const byte = bytes[i] as number
    n += (byte & 0x7f) * scale
    if ((byte & 0x80) === 0) return [n, i + 1]
    scale *= 0x80
  }
  throw damaged(id)
}

function damaged (id: string): IsnadError {
  return new IsnadError('DECODE_FAILED', `the index entry of record ${id} is damaged: the index must be rebuilt (isnad ledger reindex)`, { details: { id } })
}
