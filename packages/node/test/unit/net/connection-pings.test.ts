import { describe, expect, it } from 'vitest'
import { LoopStalls, PingSchedule } from '../../../src/net/limits/connection-pings.js'

describe('PingSchedule', () => {
  it('pings each connection once per interval, at its own phase, never all in one tick', () => {
    let draw = 0
    const schedule = new PingSchedule(1000, () => (draw++ % 10) / 10) // phases 0, 100, …, 900 ms
    const ids = Array.from({ length: 10 }, (_, n) => `c${n}`)
    expect(schedule.take(ids, 0)).toEqual([]) // first sight: phases assigned, nothing due yet
    const pingedAt = new Map<string, number[]>()
    for (let now = 50; now <= 3000; now += 50) {
      const due = schedule.take(ids, now)
      expect(due.length).toBeLessThanOrEqual(1) // spread: at most one of ten per 50 ms tick
      for (const id of due) pingedAt.set(id, [...pingedAt.get(id) ?? [], now])
    }
    for (const [n, id] of ids.entries()) {
      const times = pingedAt.get(id) ?? []
      expect(times.length).toBeGreaterThanOrEqual(2)
      expect(times[0]).toBeGreaterThanOrEqual(n * 100)
      // Due times are exactly an interval apart; a ping goes at the first tick after its time.
      for (let i = 1; i < times.length; i++) expect(Math.abs((times[i] as number) - (times[i - 1] as number) - 1000)).toBeLessThanOrEqual(50)
    }
  })

  it('after a stall, pings a connection once and then a whole interval later; forgets closed ones', () => {
    const schedule = new PingSchedule(1000, () => 0.5)
    schedule.take(['a', 'b'], 0) // both due at 500
    expect(schedule.take(['a', 'b'], 4200)).toEqual(['a', 'b'])
    expect(schedule.take(['a', 'b'], 4300)).toEqual([]) // not the missed ones all at once
    expect(schedule.take(['a', 'b'], 5200)).toEqual(['a', 'b'])
    schedule.take(['b'], 5300) // 'a' closed
    expect(schedule.take(['a', 'b'], 5400)).toEqual([]) // 'a' is new again: a fresh phase (5900), not due
    expect(schedule.take(['a', 'b'], 5800)).toEqual([])
    expect(schedule.take(['a', 'b'], 5950)).toEqual(['a'])
    expect(schedule.take(['a', 'b'], 6200)).toEqual(['b'])
  })
})

describe('LoopStalls', () => {
  it('sees a stall when a tick comes at least the stall time late, and only after it ended', () => {
    const stalls = new LoopStalls(500, 1000)
    stalls.tick(0)
    stalls.tick(500)
    stalls.tick(1400) // 400 ms late: the loop was busy, not stalled
    expect(stalls.stalledSince(0)).toBe(false)
    stalls.tick(2900) // 1000 ms late
    expect(stalls.stalledSince(1400)).toBe(true)
    expect(stalls.stalledSince(2900)).toBe(false) // a ping started after it was not delayed by it
    stalls.tick(3400)
    expect(stalls.stalledSince(2000)).toBe(true)
  })
})
