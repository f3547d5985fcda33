import { afterEach, describe, expect, it, vi } from 'vitest'
import { startPeriodic } from '../../../src/daemon/periodic.js'

/*
 * The daemon's heartbeat timer (src/daemon/periodic.ts): the first tick at a random point of the
 * first interval (nodes started together do not checkpoint together), then one per interval.
 */

afterEach(() => { vi.useRealTimers() })

describe('startPeriodic', () => {
  it('ticks first after the random share of one interval, then every interval, until stopped', async () => {
    vi.useFakeTimers()
    let ticks = 0
    const stop = startPeriodic(() => { ticks++ }, 1000, () => 0.25)
    await vi.advanceTimersByTimeAsync(249)
    expect(ticks).toBe(0)
    await vi.advanceTimersByTimeAsync(1)
    expect(ticks).toBe(1)
    await vi.advanceTimersByTimeAsync(2000)
    expect(ticks).toBe(3)
    stop()
    await vi.advanceTimersByTimeAsync(5000)
    expect(ticks).toBe(3)
  })

  it('spreads the first ticks of timers started together over the interval', async () => {
    vi.useFakeTimers()
    const firstAt: number[] = []
    const stops = [0, 0.5, 0.99].map((share) => startPeriodic(() => { firstAt.push(Date.now()) }, 1000, () => share))
    const start = Date.now()
    await vi.advanceTimersByTimeAsync(999)
    stops.forEach((stop) => { stop() })
    expect(firstAt.map((t) => t - start)).toEqual([0, 500, 990])
  })

  it('can be stopped before its first tick', async () => {
    vi.useFakeTimers()
    let ticks = 0
    const stop = startPeriodic(() => { ticks++ }, 1000, () => 0.5)
    stop()
    await vi.advanceTimersByTimeAsync(5000)
    expect(ticks).toBe(0)
  })
})
