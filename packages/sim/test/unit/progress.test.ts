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
    progress.finishRun(1)
    progress.finishRun(2)
    progress.startRun(3, { seed: 3 })
    now = 120_000
    progress.line('measuring')
    expect(progress.done).toBe(0.5)
    expect(lines.at(-1)).toBe('run 3 of 4 · seed 3 · measuring · 50% done, ETA 2m00s')
  })

  it('labels the lines of overlapping runs each with its own run and counts every running share', () => {
    let now = 0
    const lines: string[] = []
    const progress = new SimProgress((line) => { lines.push(line) }, 4, () => now)
    progress.startRun(4, { seed: 2 })
    progress.startRun(1, { seed: 1 })
    now = 10_000
    progress.advance(0.5, 4)
    progress.advance(0.5, 1)
    progress.line('measuring', 4)
    // Two halves of four runs: a quarter done in 10 s, 30 s left.
    expect(lines.at(-1)).toBe('run 4 of 4 · seed 2 · measuring · 25% done, ETA 30s')
    progress.finishRun(4)
    progress.line('playing', 1)
    expect(lines.at(-1)).toBe('run 1 of 4 · seed 1 · playing · 37% done, ETA 17s')
    expect(progress.done).toBe(0.375)
  })

  it('formats durations', () => {
    expect([8, 75, 600, 3725].map(formatDuration)).toEqual(['8s', '1m15s', '10m00s', '1h02m'])
  })
})
