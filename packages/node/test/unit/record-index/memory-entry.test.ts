import { describe, expect, it } from 'vitest'
import { decodeMemoryEntry as decode, encodeMemoryEntry as encode } from '../../../src/record-index/level/memory-entry.js'
import type { IndexedMemory } from '../../../src/record-index/indexed-memory.js'

/** A scope dictionary as ScopeNames keeps one: numbers from 1 in the order scopes are first seen. */
function dictionary (): { numberOf: (scope: string) => number, nameOf: (n: number) => string | undefined } {
  const scopes: string[] = ['a']
  return {
    numberOf: (scope) => { const at = scopes.indexOf(scope); return at >= 0 ? at : scopes.push(scope) - 1 },
    nameOf: (n) => scopes[n]
  }
}
const { numberOf, nameOf } = dictionary()
const encodeMemoryEntry = (m: IndexedMemory, trust: Parameters<typeof encode>[1]): string => encode(m, trust, numberOf)
const decodeMemoryEntry = (id: string, value: string): ReturnType<typeof decode> => decode(id, value, nameOf)

const memory: IndexedMemory = {
  type: 'fact',
  author: 'did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK',
  created_at: '2026-01-01T00:00:00Z',
  createdMillis: Date.parse('2026-01-01T00:00:00Z'),
  tags: ['rust', 'ffi']
}

describe('the memories entry of the LevelDB index (layouts 2, 7)', () => {
  it('keeps the indexed fields and the trust of a memory in one value', () => {
    const trust = { score: 0.6123, level: 'trusted', policy: 'isnad-v0.1', computed_at: '2026-02-01T00:00:00.000Z' }
    expect(decodeMemoryEntry('m', encodeMemoryEntry(memory, trust))).toEqual({ memory, trust })
  })

  it('round-trips a memory never scored, and one without tags', () => {
    const bare = { ...memory, tags: [] }
    expect(decodeMemoryEntry('m', encodeMemoryEntry(bare, undefined))).toEqual({ memory: bare, trust: undefined })
    for (const score of [0, 1, 0.0001, 0.3, 0.9999]) {
      const trust = { score, level: 'x', policy: 'p', computed_at: '2026-02-01T00:00:00Z' }
      expect(decodeMemoryEntry('m', encodeMemoryEntry(memory, trust)).trust?.score).toBe(score)
    }
  })

  it('keeps a timestamp in its ISO form as `~` and base-36 ms, any other spelling as written (layout 7)', () => {
    const iso = { ...memory, created_at: '2026-01-01T00:00:00.250Z', createdMillis: Date.parse('2026-01-01T00:00:00.250Z') }
    const trust = { score: 0.5, level: 'Attested', policy: 'isnad-v0.1', computed_at: '2026-02-01T00:00:00.000Z' }
    const value = encodeMemoryEntry(iso, trust)
    expect(value).not.toContain('2026')
    expect(value).toContain(`~${Date.parse('2026-02-01T00:00:00.000Z').toString(36)}`)
    expect(decodeMemoryEntry('m', value)).toEqual({ memory: iso, trust })
    // Whole seconds without milliseconds are not what toISOString prints: kept as written.
    expect(encodeMemoryEntry(memory, undefined)).toContain('2026-01-01T00:00:00Z')
    const ancient = { ...memory, created_at: '0001-01-01T00:00:00.000Z', createdMillis: Date.parse('0001-01-01T00:00:00.000Z') }
    expect(decodeMemoryEntry('m', encodeMemoryEntry(ancient, undefined)).memory).toEqual(ancient)
  })

  it('names type, author and tags by their scope numbers, and keeps a tag outside ASCII exactly (layout 7)', () => {
    const unicode = { ...memory, tags: ['日本', 'é', 'rust'] }
    const value = encodeMemoryEntry(unicode, undefined)
    expect(value).not.toContain('did:key')
    expect(value).not.toContain('rust')
    expect(decodeMemoryEntry('m', value)).toEqual({ memory: unicode, trust: undefined })
    const trust = { score: 0.25, level: 'élevé', policy: 'isnad-v0.1', computed_at: '2026-02-01T00:00:00Z' }
    expect(decodeMemoryEntry('m', encodeMemoryEntry(unicode, trust))).toEqual({ memory: unicode, trust })
    expect(encodeMemoryEntry(unicode, trust)).not.toContain('isnad-v0.1')
    // A number the dictionary does not hold: a damaged entry.
    expect(() => decode('m', value, () => undefined)).toThrow(expect.objectContaining({ code: 'DECODE_FAILED' }))
  })

  it('refuses a value of another layout with DECODE_FAILED', () => {
    expect(() => decodeMemoryEntry('m', 'fact\x00did:key:z')).toThrow(expect.objectContaining({ code: 'DECODE_FAILED' }))
  })
})
