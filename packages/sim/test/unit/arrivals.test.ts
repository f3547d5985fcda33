import { afterEach, describe, expect, it, vi } from 'vitest'
import { Arrivals } from '../../src/scenario/arrivals.js'

/*
 * The driver's arrival book (src/sim/scenario/arrivals.ts): first arrivals are kept, waiters wake on the
 * arrival itself (no polling), and a wait ends with null on its deadline, on cancel and on close.
 */

afterEach(() => { vi.useRealTimers() })

describe('Arrivals', () => {
  it('keeps the first arrival of a key and answers later waits at once', async () => {
    const arrivals = new Arrivals()
    arrivals.note('m|1', 10)
    arrivals.note('m|1', 20)
    expect(arrivals.get('m|1')).toBe(10)
    expect(await arrivals.wait('m|1', 1000)).toBe(10)
  })

  it('wakes every waiter of a key when it arrives', async () => {
    const arrivals = new Arrivals()
    const waits = [arrivals.wait('m|2', 60_000), arrivals.wait('m|2', 60_000)]
    arrivals.note('m|2', 42)
    expect(await Promise.all(waits)).toEqual([42, 42])
  })

  it('ends a wait with null at its deadline', async () => {
    vi.useFakeTimers()
    const arrivals = new Arrivals()
    const wait = arrivals.wait('m|3', 5000)
    await vi.advanceTimersByTimeAsync(5000)
    expect(await wait).toBeNull()
    // A late arrival is still recorded.
    arrivals.note('m|3', 7)
    expect(arrivals.get('m|3')).toBe(7)
  })

  it('ends the waits it is told to cancel, and every wait once closed', async () => {
    const arrivals = new Arrivals()
    const atLeaver = arrivals.wait('a@5', 60_000)
    const elsewhere = arrivals.wait('a@15', 60_000)
    arrivals.cancel((key) => key.endsWith('@5'))
    expect(await atLeaver).toBeNull()
    arrivals.close()
    expect(await elsewhere).toBeNull()
    expect(await arrivals.wait('never', 60_000)).toBeNull()
  })
})
