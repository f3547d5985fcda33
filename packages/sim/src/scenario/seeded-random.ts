import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64'
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus'

/**
 * The simulation's only source of randomness: xoroshiro128+ from pure-rand, seeded by the scenario,
 * so a scenario and its seed fix every choice the plan makes (who lies, who is asked, when).
 */
export interface SimRandom {
  /** Uniform in [0, 1). */
  next: () => number
  /** Uniform integer in [0, n). */
  int: (n: number) => number
  /** `count` distinct items of `items` (all of them when there are fewer), in random order. */
  sample: <T>(items: readonly T[], count: number) => T[]
  /** An exponential gap with the given rate (events per unit). */
  exponential: (rate: number) => number
}

export function createSimRandom (seed: number): SimRandom {
  const rng = xoroshiro128plus(seed)
  const next = (): number => uniformFloat64(rng)
  const int = (n: number): number => Math.floor(next() * n)
  return {
    next,
    int,
    sample: (items, count) => {
      const copy = [...items]
      // Fisher–Yates, stopped after `count` draws.
      const take = Math.min(count, copy.length)
      for (let i = 0; i < take; i++) {
        const j = i + int(copy.length - i)
        const tmp = copy[i] as (typeof copy)[number]
        copy[i] = copy[j] as (typeof copy)[number]
        copy[j] = tmp
      }
      return copy.slice(0, take)
    },
    exponential: (rate) => -Math.log(1 - next()) / rate
  }
}
