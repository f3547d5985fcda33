import { describe, expect, it } from 'vitest'
import type { ScoredEvidence } from '../../../src/node/trust/memory-evidence.js'
import { ReductionRounds } from '../../../src/node/journal/reduction-rounds.js'

/** Stands in for ingest's scored evidence: only its identity and its turn matter to the rounds. */
const evidence = (tag: string, turn = 1): ScoredEvidence => ({ tag, turn } as unknown as ScoredEvidence)

function gate (): { opened: Promise<void>, open: () => void } {
  let open = (): void => {}
  const opened = new Promise<void>((resolve) => { open = resolve })
  return { opened, open }
}

describe('reduction rounds (group commit of view reductions)', () => {
  it('runs one round at a time; requests made meanwhile share the next one', async () => {
    const seen: Array<{ ids: string[], scored: string[] }> = []
    const first = gate()
    const rounds = new ReductionRounds(async (ids, scored) => {
      seen.push({ ids: [...ids], scored: [...scored.keys()] })
      if (seen.length === 1) await first.opened
    })
    const a = rounds.request(['m1'], new Map([['m1', evidence('a')]]))
    const b = rounds.request(['m2'], new Map())
    await Promise.resolve(); await Promise.resolve()
    // The first round is running: these two wait for it and then go together.
    const c = rounds.request(['m3', 'm1'], new Map([['m1', evidence('c')], ['m3', evidence('c')]]))
    const d = rounds.request(['m3', 'm1'], new Map([['m3', evidence('d')]]))
    first.open()
    await Promise.all([a, b, c, d])
    expect(seen).toEqual([
      { ids: ['m1', 'm2'], scored: ['m1'] },
      // m1 was asked for again without its scoring: the store is read for it.
      { ids: ['m3', 'm1'], scored: ['m3'] }
    ])
    await rounds.settled()
  })

  it('keeps the scoring of the later batch turn when two requests of a round name one memory, in whatever order they arrive', async () => {
    const seen: Array<Map<string, unknown>> = []
    const rounds = new ReductionRounds(async (_ids, scored) => { seen.push(new Map([...scored].map(([id, e]) => [id, (e as unknown as { tag: string }).tag]))) })
    const requests = [
      rounds.request(['m1', 'm2'], new Map([['m1', evidence('turn 4', 4)], ['m2', evidence('turn 4', 4)]]), { hold: true }),
      // Batches log their Merkle leaves outside their turns, so a later turn may ask first.
      rounds.request(['m1'], new Map([['m1', evidence('turn 3', 3)]]), { hold: true }),
      rounds.request(['m2'], new Map([['m2', evidence('turn 5', 5)]]), { hold: true })
    ]
    rounds.release()
    await Promise.all(requests)
    expect(seen).toEqual([new Map([['m1', 'turn 4'], ['m2', 'turn 5']])])
    await rounds.settled()
  })

  it('fails only the callers of the failing round, and later rounds still run', async () => {
    let calls = 0
    const rounds = new ReductionRounds(async () => {
      calls++
      if (calls === 1) throw new Error('disk full')
    })
    const failed = rounds.request(['m1'], new Map())
    await expect(failed).rejects.toThrow('disk full')
    await expect(rounds.request(['m2'], new Map())).resolves.toBeUndefined()
    expect(calls).toBe(2)
  })

  it('holds a round of held requests (records from the network) until released, so later batches join it and each memory is reduced once', async () => {
    const seen: Array<{ ids: string[], causes: readonly string[] }> = []
    const rounds = new ReductionRounds(async (ids, _scored, causes) => { seen.push({ ids: [...ids], causes }) })
    const pages = [['m1', 'm2'], ['m1'], ['m2', 'm3']].map((ids, n) => rounds.request(ids, new Map(), { hold: true, causes: [`evt_${n}`] }))
    await new Promise((resolve) => setImmediate(resolve))
    expect(seen, 'nothing runs while held').toEqual([])
    rounds.release()
    await Promise.all(pages)
    expect(seen).toEqual([{ ids: ['m1', 'm2', 'm3'], causes: ['evt_0', 'evt_1', 'evt_2'] }])
  })

  it('runs a held round at once when a caller that waits joins it, when it reaches its limit, and when settled is awaited', async () => {
    const seen: string[][] = []
    const rounds = new ReductionRounds(async (ids) => { seen.push([...ids]) }, 3)
    const held = rounds.request(['m1'], new Map(), { hold: true })
    await rounds.request(['m2'], new Map()) // a local store: its caller waits for the views
    await held
    expect(seen).toEqual([['m1', 'm2']])
    const full = rounds.request(['m3', 'm4', 'm5'], new Map(), { hold: true }) // the limit: runs without a release
    await full
    expect(seen.at(-1)).toEqual(['m3', 'm4', 'm5'])
    const last = rounds.request(['m6'], new Map(), { hold: true })
    await rounds.settled() // close: held rounds are released
    await last
    expect(seen.at(-1)).toEqual(['m6'])
  })

  it('a release with nothing requested is not kept: the next held round waits for its own', async () => {
    const seen: string[][] = []
    const rounds = new ReductionRounds(async (ids) => { seen.push([...ids]) })
    rounds.release()
    const held = rounds.request(['m1'], new Map(), { hold: true })
    await new Promise((resolve) => setImmediate(resolve))
    expect(seen).toEqual([])
    rounds.release()
    await held
    expect(seen).toEqual([['m1']])
  })
})
