import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { cdfOfSorted, percentilesOfSorted, summaryRanks } from '../../src/driver/metrics.js'
import { ORDER_STATISTIC_BUCKETS, selectRanks } from '../../src/driver/order-statistics.js'

/*
 * Selected order statistics against a full sort: every rank asked reads the value Float64Array's sort
 * puts there (ties, negative zero, one repeated value, NaN and infinities included), and the latency
 * percentiles and CDF the model engine reports from the selected ranks are those of the sorted sample.
 */

function sortedCopy (values: Float64Array): Float64Array {
  return Float64Array.from(values).sort()
}

function expectSameRanks (values: Float64Array, ranks: readonly number[], label: string): void {
  const sorted = sortedCopy(values)
  const before = Float64Array.from(values)
  const selected = selectRanks(values, ranks)
  expect(selected.length, label).toBe(values.length)
  for (const rank of ranks) expect(Object.is(selected.at(rank), sorted[rank]), `${label}: rank ${rank}: ${selected.at(rank)} against ${sorted[rank]}`).toBe(true)
  expect(values, `${label}: the sample is left as it was`).toEqual(before)
}

const EVERY_RANK = (n: number): number[] => Array.from({ length: n }, (_, i) => i)

describe('selectRanks', () => {
  const vectors: ReadonlyArray<readonly [string, number[]]> = [
    ['one value', [42]],
    ['two values, descending', [3, -3]],
    ['one repeated value', [7, 7, 7, 7, 7]],
    ['negative and positive zero', [0, -0, 1, -0, 0, -1]],
    ['ties across the range', [5, 1, 5, 1, 3, 3, 5, 1, 2]],
    ['a NaN (sorted last)', [2, Number.NaN, 1, 3]],
    ['infinities', [Infinity, 1, -Infinity, 0, 2]],
    ['a range wider than the largest double', [2.9937604643020797e+292, -1.7976931348623155e+308, 0]],
    ['two values a hair apart', [1, 1 + Number.EPSILON, 1, 1 + Number.EPSILON]],
    ['a value far above the rest (most in one slice)', [...Array.from({ length: 50 }, (_, i) => i / 1000), 1e12]]
  ]
  it.each(vectors)('reads every rank of %s as a full sort does', (label, values) => {
    const sample = Float64Array.from(values)
    expectSameRanks(sample, EVERY_RANK(sample.length), label)
  })

  it('reads the asked ranks of latencies spread over more values than slices', () => {
    const n = ORDER_STATISTIC_BUCKETS * 3 + 17
    const values = Float64Array.from({ length: n }, (_, i) => 15 + ((i * 7919) % 100_003) / 37 + (i % 5 === 0 ? 0.1 : 0))
    expectSameRanks(values, [0, 1, n >> 1, n - 2, n - 1, ...summaryRanks(n)], 'latencies')
  })

  it('answers only the ranks asked, and nothing of an empty sample', () => {
    const selected = selectRanks(Float64Array.from([3, 1, 2]), [1, 7, -1, 0.5])
    expect(selected.at(1)).toBe(2)
    expect(selected.at(0)).toBeUndefined()
    expect(selected.at(7)).toBeUndefined()
    expect(selectRanks(new Float64Array(0), [0]).length).toBe(0)
  })

  it('agrees with a full sort on any sample and any ranks (property)', () => {
    fc.assert(fc.property(
      fc.array(fc.oneof(fc.double({ noNaN: true }), fc.integer({ min: -3, max: 3 }), fc.constant(-0)), { minLength: 1, maxLength: 300 }),
      fc.array(fc.nat(), { maxLength: 20 }),
      (values, picks) => {
        const sample = Float64Array.from(values)
        expectSameRanks(sample, picks.map((p) => p % sample.length), 'property')
      }
    ), { numRuns: 1000 })
  })
})

describe('summaryRanks', () => {
  it.each([1, 2, 3, 99, 100, 101, 199, 250, 1_000, 12_345])('gives percentiles and a CDF of %i values equal to the sorted sample\'s', (n) => {
    const values = Float64Array.from({ length: n }, (_, i) => ((i * 48_271) % 2_147) / 10)
    const sorted = sortedCopy(values)
    const selected = selectRanks(values, summaryRanks(n))
    expect(percentilesOfSorted(selected)).toEqual(percentilesOfSorted(sorted))
    expect(cdfOfSorted(selected)).toEqual(cdfOfSorted(sorted))
  })
})
