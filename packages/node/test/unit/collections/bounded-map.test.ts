import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { BoundedMap } from '../../../src/collections/index.js'

/** The specification: an array of [key, value] in insertion order, the oldest dropped past capacity. */
class ModelMap {
  entries: Array<[number, number]> = []
  constructor (private readonly capacity: number) {}
  set (key: number, value: number): void {
    this.delete(key)
    this.entries.push([key, value])
    if (this.entries.length > this.capacity) this.entries.shift()
  }

  delete (key: number): boolean {
    const at = this.entries.findIndex(([k]) => k === key)
    if (at >= 0) this.entries.splice(at, 1)
    return at >= 0
  }
}

type Op = { kind: 'set', key: number, value: number } | { kind: 'delete', key: number }

describe('BoundedMap', () => {
  it('keeps the newest `capacity` entries, a set refreshing its key, like the model, after any operations', () => {
    const op: fc.Arbitrary<Op> = fc.oneof(
      { weight: 4, arbitrary: fc.record({ kind: fc.constant('set' as const), key: fc.integer({ min: 0, max: 40 }), value: fc.integer() }) },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant('delete' as const), key: fc.integer({ min: 0, max: 40 }) }) }
    )
    fc.assert(fc.property(fc.integer({ min: 1, max: 12 }), fc.array(op, { maxLength: 400 }), (capacity, ops) => {
      const map = new BoundedMap<number, number>(capacity)
      const model = new ModelMap(capacity)
      for (const o of ops) {
        if (o.kind === 'set') {
          map.set(o.key, o.value)
          model.set(o.key, o.value)
        } else {
          expect(map.delete(o.key)).toBe(model.delete(o.key))
        }
        expect(map.size).toBe(model.entries.length)
      }
      for (let key = 0; key <= 40; key++) expect(map.get(key)).toBe(model.entries.find(([k]) => k === key)?.[1])
      expect([...map], 'entries, oldest first').toEqual(model.entries)
      expect([...map.keys()], 'keys, oldest first').toEqual(model.entries.map(([k]) => k))
    }), { numRuns: 300 })
  })

  /** [id, capacity, keys set in order (value: its index), keys deleted at the end, keys left oldest first]. */
  const VECTORS: Array<[string, number, string[], string[], string[]]> = [
    ['under capacity keeps all', 3, ['a', 'b'], [], ['a', 'b']],
    ['past capacity drops the oldest', 3, ['a', 'b', 'c', 'd'], [], ['b', 'c', 'd']],
    ['a set refreshes its key', 3, ['a', 'b', 'c', 'a', 'd'], [], ['c', 'a', 'd']],
    ['a refreshed key is dropped once it is oldest again', 2, ['a', 'b', 'a', 'c', 'd'], [], ['c', 'd']],
    ['a delete makes room', 2, ['a', 'b', 'c'], ['b'], ['c']],
    ['capacity one keeps the newest', 1, ['a', 'b', 'a'], [], ['a']]
  ]

  it.each(VECTORS)('vector %s', (id, capacity, sets, deletes, left) => {
    const map = new BoundedMap<string, number>(capacity)
    sets.forEach((key, index) => { map.set(key, index) })
    for (const key of deletes) map.delete(key)
    expect([...map.keys()], id).toEqual(left)
    expect(map.size, id).toBe(left.length)
    for (const key of left) expect(map.get(key), `${id}: ${key}`).toBe(sets.lastIndexOf(key))
  })

  it('evicts in insertion order through many turnovers of a full map (the gate cache pattern)', () => {
    const map = new BoundedMap<number, number>(64)
    const model = new ModelMap(64)
    for (let i = 0; i < 20_000; i++) {
      map.set(i, i)
      model.set(i, i)
      if (i % 7 === 0) { // a refresh: re-inserted as the newest
        map.set(i - 3, i)
        model.set(i - 3, i)
      }
    }
    expect(map.size).toBe(64)
    for (const [key, value] of model.entries) expect(map.get(key), `key ${key}`).toBe(value)
  })
})
