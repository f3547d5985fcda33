import { describe, expect, it } from 'vitest'
import { createPlan, loadScenario, runnerOf, THREADED_FROM_NODES, withTimeScale } from '../../src/index.js'

/*
 * `isnad sim run --seconds-per-minute` and bench/sim-agree.ts slow a scenario's schedule without
 * editing its file (src/sim/pools/pool-choice.ts): only the time scale changes, so the plan — every memory,
 * answer and event in simulated minutes — stays the same, and a value the format refuses is refused.
 */

describe('withTimeScale', () => {
  it('changes the real seconds per simulated minute and nothing else; the plan is the same', async () => {
    const small = await loadScenario('small')
    const slow = withTimeScale(small, 45)
    expect(slow.timeScale).toEqual({ realSecondsPerMinute: 45 })
    expect({ ...slow, timeScale: small.timeScale }).toEqual(small)
    expect(createPlan(slow)).toEqual(createPlan(small))
    expect(withTimeScale(small, undefined)).toBe(small)
  })

  it('refuses a time scale the scenario format refuses, with SCHEMA_INVALID', async () => {
    const small = await loadScenario('small')
    for (const bad of [0, -1, 3601, Number.NaN]) {
      expect(() => withTimeScale(small, bad), String(bad)).toThrow(expect.objectContaining({ code: 'SCHEMA_INVALID' }))
    }
  })
})

describe('runnerOf', () => {
  it('names child processes only above one; threads run in this process', () => {
    expect(runnerOf({})).toBe('in-process')
    expect(runnerOf({ processes: 1 })).toBe('in-process')
    expect(runnerOf({ processes: 2 })).toBe('processes')
    expect(THREADED_FROM_NODES).toBe(50)
  })
})
