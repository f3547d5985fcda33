import { describe, expect, it } from 'vitest'
import { SimProgress, formatDuration } from '../../src/driver/progress.js'

/* Progress lines: which run, what it varies, done share and an ETA extrapolated on a given clock. */

describe('SimProgress', () => {
  it('names the run, its Sybil count and seed, and extrapolates the time left over equal runs', () => {
    let now = 0
    const lines: string[] = []
    const progress = new SimProgress((line) => { lines.push(line) }, 4, () => now)
    progress.startRun(1, { sybils: 10, nodes: 50, seed: 2 })
    progress.line('starting 50 nodes')
    expect(lines.at(-1)).toBe('run 1 of 4 · sybil 10 (20%) · seed 2 · starting 50 nodes')
    now = 60_000
    progress.advance(0.5)
    progress.line('playing')
    // 1/8 done in 60 s: 420 s left.
    expect(lines.at(-1)).toBe('run 1 of 4 · sybil 10 (20%) · seed 2 · playing · 12% done, ETA 7m00s')
    progress.startRun(3, { seed: 3 })
    now = 120_000
    progress.line('measuring')
    expect(progress.done).toBe(0.5)
    expect(lines.at(-1)).toBe('run 3 of 4 · seed 3 · measuring · 50% done, ETA 2m00s')
  })

  it('formats durations', () => {
    expect([8, 75, 600, 3725].map(formatDuration)).toEqual(['8s', '1m15s', '10m00s', '1h02m'])
  })
})
