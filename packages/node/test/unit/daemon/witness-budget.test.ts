import { describe, expect, it } from 'vitest'
import { WitnessBudget } from '../../../src/daemon/witness-budget.js'

/*
 * The witness budget (src/daemon/witness-budget.ts): at most perAuthorPerHour memories of one
 * author in any hour and perMinute in all in any minute; a refused memory takes nothing; a memory
 * taken once is taken again for free.
 */

const MINUTE = 60_000
const HOUR = 60 * MINUTE

describe('WitnessBudget', () => {
  it('takes perAuthorPerHour memories of one author per hour, then refuses that author only', () => {
    const budget = new WitnessBudget({ perAuthorPerHour: 3, perMinute: 100 })
    for (let k = 0; k < 3; k++) expect(budget.take(`m${k}`, 'flooder', k * 1000), `memory ${k}`).toBeUndefined()
    expect(budget.take('m3', 'flooder', 5000)).toBe('per-author')
    expect(budget.take('other', 'honest', 5000), 'another author has its own share').toBeUndefined()
    // An hour after the first, its unit is free again.
    expect(budget.take('m3', 'flooder', HOUR - 1)).toBe('per-author')
    expect(budget.take('m3', 'flooder', HOUR)).toBeUndefined()
  })

  it('takes perMinute memories in all per minute, whatever their authors', () => {
    const budget = new WitnessBudget({ perAuthorPerHour: 100, perMinute: 2 })
    expect(budget.take('a', 'x', 0)).toBeUndefined()
    expect(budget.take('b', 'y', 10)).toBeUndefined()
    expect(budget.take('c', 'z', 20)).toBe('per-minute')
    expect(budget.take('c', 'z', MINUTE + 1)).toBeUndefined()
  })

  it('takes a memory once: a second reason to answer it (drawn and asked) costs nothing', () => {
    const budget = new WitnessBudget({ perAuthorPerHour: 1, perMinute: 1 })
    expect(budget.take('m', 'a', 0)).toBeUndefined()
    expect(budget.take('m', 'a', 1)).toBeUndefined()
    expect(budget.take('n', 'a', 2)).toBe('per-author')
  })

  it('a refused memory takes nothing from the other window', () => {
    const budget = new WitnessBudget({ perAuthorPerHour: 1, perMinute: 2 })
    expect(budget.take('m1', 'flooder', 0)).toBeUndefined()
    for (let k = 0; k < 10; k++) expect(budget.take(`f${k}`, 'flooder', k)).toBe('per-author')
    expect(budget.take('h', 'honest', 20), 'the flooder\'s refused memories used no minute unit').toBeUndefined()
  })

  it('forgets quiet authors without losing their window', () => {
    const budget = new WitnessBudget({ perAuthorPerHour: 1, perMinute: 1000 })
    for (let k = 0; k < 500; k++) expect(budget.take(`m${k}`, `author-${k}`, k)).toBeUndefined()
    expect(budget.take('again', 'author-0', 2 * MINUTE)).toBe('per-author')
    expect(budget.take('again', 'author-0', HOUR + 1)).toBeUndefined()
  })
})
