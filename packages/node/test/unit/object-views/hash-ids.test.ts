import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import {
  attachmentIdOf, deriveTypedId, hashLine, isLineHashValid, objectIdOf, reduceMemory, reductionIdOf, withHash, type HashLine
} from '../../../src/ledger/object-views/index.js'
import { ViewObjectSchema } from '../../../src/schema/index.js'
import { EVIDENCE, inputOf, memoryOf } from './fixtures.js'

/** Spec §8 line hash (test vectors) and spec §7 derived ids; determinism of the whole reduction. */

const VECTORS: Array<{ name: string, line: Record<string, unknown>, jcs: string, hash: string }> = [
  {
    name: 'keys sorted, hash left out',
    line: { b: 2, a: 'x', hash: 'sha256:' + '0'.repeat(64) },
    jcs: '{"a":"x","b":2}',
    hash: 'sha256:768ca668c0f84dd39bf269e25c9a3f0af4812e41026b6fead9a2666078ef16f6'
  },
  {
    name: 'non-ASCII text as UTF-8, shortest number form',
    line: { s: 'é', n: 1.50, event_refs: ['evt_aaaaaaaaaaaaaaaaaaaaaaaaaa'] },
    jcs: '{"event_refs":["evt_aaaaaaaaaaaaaaaaaaaaaaaaaa"],"n":1.5,"s":"é"}',
    hash: 'sha256:d2229d4741bd2340107a69d983be2678d260b7ddd0e99f27adf317a5be3a89d7'
  }
]

describe('hashLine (spec §8)', () => {
  it.each(VECTORS)('$name', ({ name, line, jcs, hash }) => {
    expect(hashLine(line), name).toBe(hash)
    // The vector is the SHA-256 of the JCS text, computed independently here.
    expect('sha256:' + createHash('sha256').update(jcs, 'utf8').digest('hex'), name).toBe(hash)
  })

  it('withHash puts the hash last and isLineHashValid checks it', () => {
    const line = withHash({ z: 1, a: [true, null] })
    expect(Object.keys(line)).toEqual(['z', 'a', 'hash'])
    expect(isLineHashValid(line)).toBe(true)
    expect(isLineHashValid({ ...line, z: 2 })).toBe(false)
    expect(isLineHashValid({ z: 1 })).toBe(false)
  })

  it('refuses what JSON cannot carry', () => {
    expect(() => hashLine({ n: Number.NaN })).toThrow()
  })

  it('an injected hash function is used for the object and the attachment', () => {
    const seen: string[] = []
    const fake: HashLine = (line) => { seen.push(String(line.schema_version)); return 'sha256:' + 'a'.repeat(64) }
    const { object, attachment } = reduceMemory(inputOf(memoryOf(), { evidence: EVIDENCE }), { hashLine: fake })
    expect(object.hash).toBe('sha256:' + 'a'.repeat(64))
    expect(attachment?.hash).toBe('sha256:' + 'a'.repeat(64))
    expect(seen.sort()).toEqual(['diasync-v1-object', 'isnad-attach-v2'])
  })
})

describe('derived ids (spec §7)', () => {
  it('have the typed form and depend on every part', () => {
    const id = deriveTypedId('fac', ['a', 'b'])
    expect(id).toMatch(/^fac_[a-z2-7]{26}$/)
    expect(deriveTypedId('fac', ['a', 'b'])).toBe(id)
    expect(deriveTypedId('fac', ['a:b'])).not.toBe(id)
    expect(deriveTypedId('fac', ['ab'])).not.toBe(id)
  })

  it('128 bits: the last character carries 3 bits and 2 zero bits', () => {
    for (let i = 0; i < 50; i++) expect(deriveTypedId('dec', [String(i)]).at(-1)).toMatch(/[aeimquy4]/)
  })

  it('one memory has one id per type, and ids are distinct across kinds', () => {
    const cid = memoryOf().id
    const ids = [objectIdOf('fact', cid), objectIdOf('decision', cid), objectIdOf('commitment', cid)]
    expect(ids.map((id) => id.slice(0, 4))).toEqual(['fac_', 'dec_', 'com_'])
    expect(new Set(ids.map((id) => id.slice(4))).size).toBe(3)
    expect(attachmentIdOf(ids[0] ?? '')).toMatch(/^att_[a-z2-7]{26}$/)
    const hash = 'sha256:' + '1'.repeat(64)
    expect(reductionIdOf(ids[0] ?? '', hash, undefined, undefined)).not.toBe(reductionIdOf(ids[0] ?? '', hash, undefined, 'red_aaaaaaaaaaaaaaaaaaaaaaaaaa'))
  })
})

describe('determinism', () => {
  const memory = memoryOf({ type: 'decision', summary: 'Chose JSONL', body: 'greppable', tags: ['key:store', 'project:isnad'] })

  it('the same input gives the same object, attachment and hash', () => {
    const a = reduceMemory(inputOf(memory, { evidence: EVIDENCE }))
    const b = reduceMemory(inputOf(memory, { evidence: EVIDENCE }))
    expect(b).toEqual(a)
    expect(JSON.stringify(b.object)).toBe(JSON.stringify(a.object))
    expect(isLineHashValid(a.object)).toBe(true)
    expect(a.attachment !== null && isLineHashValid(a.attachment)).toBe(true)
  })

  it('evidence order does not matter', () => {
    const reversed = { attestations: [...EVIDENCE.attestations].reverse(), anchors: [...EVIDENCE.anchors].reverse() }
    expect(reduceMemory(inputOf(memory, { evidence: reversed }))).toEqual(reduceMemory(inputOf(memory, { evidence: EVIDENCE })))
  })

  it('the hash changes with any field, and the line stays valid', () => {
    const base = reduceMemory(inputOf(memory)).object
    const trusted = reduceMemory(inputOf(memory, { trust: { score: 0.9, level: 'Consensus', dispute_count: 0 } })).object
    expect(trusted.id).toBe(base.id)
    expect(trusted.hash).not.toBe(base.hash)
    expect(ViewObjectSchema.safeParse(trusted).success).toBe(true)
  })

  it('prints required fields first and the hash last', () => {
    const keys = Object.keys(reduceMemory(inputOf(memory, { evidence: EVIDENCE })).object)
    expect(keys.slice(0, 5)).toEqual(['schema_version', 'id', 'type', 'scope', 'ts'])
    expect(keys.at(-1)).toBe('hash')
  })
})
