import { IsnadError } from '../../errors/index.js'
import { decodeIndexedMemory, encodeIndexedMemory, type IndexedMemory } from '../indexed-memory.js'
import type { TrustEntry } from '../types.js'

/*
 * The value of a memory's entry in the `memories` sublevel (keys.ts): what a query filters on and
 * the memory's indexed trust, together, so scoring a memory reads one entry and writes one entry.
 *
 *   <score> NUL <level> NUL <policy> NUL <computed_at> NUL <IndexedMemory as encodeIndexedMemory>
 *
 * A memory never scored has four empty trust fields. Score is the decimal JavaScript number (a
 * TrustEntry score has at most 4 decimals, which a number prints exactly and parses back the same);
 * level and policy are names and computed_at a timestamp, none of which can hold NUL.
 */
const SEP = '\x00'
const TRUST_FIELDS = 4

export interface MemoryEntry {
  memory: IndexedMemory
  trust: TrustEntry | undefined
}

export function encodeMemoryEntry (memory: IndexedMemory, trust: TrustEntry | undefined): string {
  const head = trust === undefined
    ? SEP.repeat(TRUST_FIELDS)
    : String(trust.score) + SEP + trust.level + SEP + trust.policy + SEP + trust.computed_at + SEP
  return head + encodeIndexedMemory(memory)
}

export function decodeMemoryEntry (id: string, value: string): MemoryEntry {
  let at = 0
  const fields: string[] = []
  for (let i = 0; i < TRUST_FIELDS; i++) {
    const end = value.indexOf(SEP, at)
    if (end < 0) throw damaged(id)
    fields.push(value.slice(at, end))
    at = end + 1
  }
  const [score, level, policy, computedAt] = fields as [string, string, string, string]
  const memory = decodeIndexedMemory(value.slice(at))
  if (score === '') return { memory, trust: undefined }
  return { memory, trust: { score: Number(score), level, policy, computed_at: computedAt } }
}

function damaged (id: string): IsnadError {
  return new IsnadError('DECODE_FAILED', `the index entry of memory ${id} is damaged: the index must be rebuilt (isnad ledger reindex)`, { details: { id } })
}
