import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { EventQueue, type ScheduledEvent } from '../../../src/model/index.js'

/*
 * The scheduler's heap: events come out in time order, ties in the order they were scheduled, with
 * their kind and arguments intact, whatever the order of pushes and however far the arrays grow.
 */

function drain (queue: EventQueue): ScheduledEvent[] {
  const out: ScheduledEvent[] = []
  for (let e = queue.pop(); e !== undefined; e = queue.pop()) out.push(e)
  return out
}

describe('EventQueue', () => {
  it('pops by time, then by scheduling order, with kind and arguments', () => {
    const queue = new EventQueue()
    queue.push(5, 1, 10, 20)
    queue.push(1, 2, 11, 21)
    queue.push(5, 3, 12, 22)
    queue.push(0, 4, 13, 23)
    expect(queue.size).toBe(4)
    expect(drain(queue)).toEqual([
      { time: 0, kind: 4, a: 13, b: 23 },
      { time: 1, kind: 2, a: 11, b: 21 },
      { time: 5, kind: 1, a: 10, b: 20 },
      { time: 5, kind: 3, a: 12, b: 22 }
    ])
    expect(queue.pop()).toBeUndefined()
    expect(queue.processed).toBe(4)
  })

  it('refuses a time that is not finite', () => {
    expect(() => { new EventQueue().push(Number.NaN, 1) }).toThrow(RangeError)
  })

  it('is a stable sort of any sequence of pushes, interleaved with pops', () => {
    fc.assert(fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 50 }), fc.boolean()), { maxLength: 3000 }), (ops) => {
      const queue = new EventQueue()
      const pending: Array<{ time: number, a: number }> = []
      let serial = 0
      for (const [time, popFirst] of ops) {
        if (popFirst && pending.length > 0) {
          pending.sort((x, y) => x.time - y.time || x.a - y.a)
          const expected = pending.shift()
          const got = queue.pop()
          expect([got?.time, got?.a]).toEqual([expected?.time, expected?.a])
        }
        queue.push(time, 0, serial)
        pending.push({ time, a: serial++ })
      }
      pending.sort((x, y) => x.time - y.time || x.a - y.a)
      expect(drain(queue).map((e) => [e.time, e.a])).toEqual(pending.map((e) => [e.time, e.a]))
    }), { numRuns: 50 })
  })
})
