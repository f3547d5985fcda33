import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import type { IdKind, ViewObjectType } from '../../../src/schema/index.js'
import { derivedId, encodeBase32, eventIdFor, randomId } from '../../../src/ledger/index.js'
import { attachmentIdOf, deriveTypedId, objectIdOf, reductionIdOf } from '../../../src/ledger/object-views/index.js'

/*
 * Typed ids (spec §7) are written into ledgers and view shards, so a new encoder must give the very
 * same strings. typed-id-vectors.json was written by the two hand-written base32 encoders the ids
 * had before they shared one home (src/ledger/ids.ts on multiformats' base32): base32 of
 * 0–20, 32 and 100 bytes, random ids of every kind, derived ids over empty, non-ASCII, lone-surrogate,
 * NUL and colon parts and parts of several KB, event ids, and every kind of view id.
 */

interface Vectors {
  base32: Array<{ bytes: string, base32: string }>
  random: Array<{ kind: IdKind, bytes: string, id: string }>
  parts: string[][]
  derived: Array<{ kind: IdKind, domain: string, parts: number, id: string }>
  event: Array<{ scope: string, key: string, id: string }>
  view: Array<{ prefix: string, parts: number, id: string }>
  object: Array<{ type: ViewObjectType, memory: string, id: string }>
  attachment: Array<{ object: string, id: string }>
  reduction: Array<{ object: string, objectHash: string, attachmentHash: string | null, previous: string | null, id: string }>
}

const VECTORS = JSON.parse(readFileSync(new URL('./typed-id-vectors.json', import.meta.url), 'utf8')) as Vectors
const hex = (text: string): Uint8Array => Uint8Array.from(Buffer.from(text, 'hex'))
const partsOf = (i: number): string[] => VECTORS.parts[i] as string[]

describe('typed ids are byte-identical to those the earlier encoders wrote', () => {
  it('has its vectors', () => {
    expect(VECTORS.base32.length).toBe(23)
    expect(VECTORS.derived.length).toBeGreaterThan(50)
    expect(VECTORS.view.length).toBeGreaterThan(50)
  })

  it.each(VECTORS.base32.map((v, i) => [i, v] as const))('base32 #%i', (i, v) => {
    expect(encodeBase32(hex(v.bytes)), `base32 #${i}`).toBe(v.base32)
  })

  it.each(VECTORS.random.map((v) => [v.kind, v] as const))('random %s id', (kind, v) => {
    expect(randomId(kind, () => hex(v.bytes)), kind).toBe(v.id)
  })

  it('derived ledger ids', () => {
    for (const [i, v] of VECTORS.derived.entries()) expect(derivedId(v.kind, v.domain, partsOf(v.parts)), `derived #${i} (${v.kind})`).toBe(v.id)
    for (const [i, v] of VECTORS.event.entries()) expect(eventIdFor(v.scope, v.key), `event #${i}`).toBe(v.id)
  })

  it('view ids', () => {
    for (const [i, v] of VECTORS.view.entries()) expect(deriveTypedId(v.prefix, partsOf(v.parts)), `view #${i} (${v.prefix})`).toBe(v.id)
    for (const [i, v] of VECTORS.object.entries()) expect(objectIdOf(v.type, v.memory), `object #${i}`).toBe(v.id)
    for (const [i, v] of VECTORS.attachment.entries()) expect(attachmentIdOf(v.object), `attachment #${i}`).toBe(v.id)
    for (const [i, v] of VECTORS.reduction.entries()) {
      expect(reductionIdOf(v.object, v.objectHash, v.attachmentHash ?? undefined, v.previous ?? undefined), `reduction #${i}`).toBe(v.id)
    }
  })
})
