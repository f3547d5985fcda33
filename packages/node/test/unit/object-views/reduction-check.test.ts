import { describe, expect, it } from 'vitest'
import {
  attachmentIdOf, attachShardOf, buildReductionRound, checkReductions, objectIdOf, reductionIdOf,
  type ReducerLineRef, type ReductionCheck, type ViewLineRef
} from '../../../src/ledger/object-views/index.js'

/**
 * The check `ledger verify` makes of coordination/reducers.jsonl against the view lines
 * (docs/views.md, "Reductions"): pure, so each case is a vector of lines and the findings it must give.
 * Hashes are arbitrary `sha256:` strings: the check compares them, it does not recompute them.
 */

const TS = '2026-11-20T10:00:00.000Z'
const FACTS = 'views/facts/default/2026-11.jsonl'
const ATTACH = 'views/attach/default/2026-11.jsonl'
const MEMORY = 'bafyreiary4thy3tohcf2upa4wxf27mlgtvfgeajcb57sdmg6tcpgivivq4'
const OBJECT = objectIdOf('fact', MEMORY)
const ATT = attachmentIdOf(OBJECT)
const h = (n: number): string => `sha256:${n.toString(16).padStart(64, '0')}`

/** Lines of one shard, numbered from 1 and spaced 100 bytes apart. */
function shard (...lines: Array<Omit<ViewLineRef, 'line' | 'offset'>>): ViewLineRef[] {
  return lines.map((l, i) => ({ ...l, line: i + 1, offset: i * 100 }))
}

const object = (hash: string): Omit<ViewLineRef, 'line' | 'offset'> => ({ id: OBJECT, hash, memory: MEMORY })
const attachment = (hash: string): Omit<ViewLineRef, 'line' | 'offset'> => ({ id: ATT, hash })

/** A round line per state, in order; each state's id chained to the one before (reductionIdOf). */
function rounds (...states: Array<{ object: string, attachment?: string }>): { lines: ReducerLineRef[], ids: string[] } {
  const ids: string[] = []
  const lines = states.map((s, i) => {
    const id = reductionIdOf(OBJECT, s.object, s.attachment, ids[i - 1])
    ids.push(id)
    return { line: i + 1, offset: i * 200, value: buildReductionRound([{ shard: FACTS, object: OBJECT, reduction: id }], TS) }
  })
  return { lines, ids }
}

function check (reducers: ReducerLineRef[], facts: ViewLineRef[], attach: ViewLineRef[] = [], settled?: Set<string>): ReductionCheck {
  return checkReductions({ reducers, views: new Map([[FACTS, facts], [ATTACH, attach]]), ...(settled === undefined ? {} : { settled }) })
}

describe('checkReductions: every reduction reproduced by the lines it names, every newest line recorded', () => {
  it('derives the ids a home written by an earlier version holds (test/fixtures/home-40f8ecc, its first reducer line)', () => {
    expect(OBJECT).toBe('fac_o6tiy3qgq3wtwldskrez7cg4i4')
    const objectHash = 'sha256:9740cf1c957d135e26fff1ac0f86cb81eff86d98a18ce1679f2f15489a476262'
    expect(reductionIdOf(OBJECT, objectHash, undefined, undefined)).toBe('red_k6y6hr4lpowxarab5i4i6cbrsy')
    expect(attachShardOf(FACTS)).toBe(ATTACH)
    expect(attachShardOf('coordination/reducers.jsonl')).toBeUndefined()
  })

  const vectors: Array<{ id: string, run: () => ReductionCheck, unresolved: Array<{ state: number, missing: string }>, unrecorded: Array<{ file: string, line: number }> }> = [
    {
      id: 'one state, no attachment',
      run: () => check(rounds({ object: h(1) }).lines, shard(object(h(1)))),
      unresolved: [],
      unrecorded: []
    },
    {
      id: 'three states, the attachment added at the second; older lines stay in their shards',
      run: () => check(rounds({ object: h(1) }, { object: h(2), attachment: h(10) }, { object: h(3), attachment: h(11) }).lines,
        shard(object(h(1)), object(h(2)), object(h(3))), shard(attachment(h(10)), attachment(h(11)))),
      unresolved: [],
      unrecorded: []
    },
    {
      id: 'the object line unchanged while the attachment changes (the writer skips the object line)',
      run: () => check(rounds({ object: h(1), attachment: h(10) }, { object: h(1), attachment: h(11) }).lines,
        shard(object(h(1))), shard(attachment(h(10)), attachment(h(11)))),
      unresolved: [],
      unrecorded: []
    },
    {
      id: 'the same state reached twice (v1 → v2 → v1): a new line and a new id each time',
      run: () => check(rounds({ object: h(1) }, { object: h(2) }, { object: h(1) }).lines, shard(object(h(1)), object(h(2)), object(h(1)))),
      unresolved: [],
      unrecorded: []
    },
    {
      id: 'a crash left an older line no reducer names (the newest line is recorded): readers never take it',
      run: () => check(rounds({ object: h(1) }, { object: h(3) }).lines, shard(object(h(1)), object(h(2)), object(h(3)))),
      unresolved: [],
      unrecorded: []
    },
    {
      id: 'the object line is gone',
      run: () => check(rounds({ object: h(1) }).lines, shard()),
      unresolved: [{ state: 0, missing: 'object' }],
      unrecorded: []
    },
    {
      id: 'the newest object line differs (rewritten with a valid hash)',
      run: () => check(rounds({ object: h(1) }, { object: h(2) }).lines, shard(object(h(1)), object(h(9)))),
      unresolved: [{ state: 1, missing: 'state' }],
      // the line is what the unresolved state is about: one finding
      unrecorded: []
    },
    {
      id: 'a line appended after the newest state\'s (its states all resolve)',
      run: () => check(rounds({ object: h(1) }, { object: h(2) }).lines, shard(object(h(1)), object(h(2)), object(h(9)))),
      unresolved: [],
      unrecorded: [{ file: FACTS, line: 3 }]
    },
    {
      id: 'an attachment line appended after the newest state\'s',
      run: () => check(rounds({ object: h(1), attachment: h(10) }).lines, shard(object(h(1))), shard(attachment(h(10)), attachment(h(12)))),
      unresolved: [],
      unrecorded: [{ file: ATTACH, line: 2 }]
    },
    {
      id: 'an older object line is gone: only its state is unresolved, the later one is found after it',
      run: () => check(rounds({ object: h(1) }, { object: h(2) }).lines, shard(object(h(2)))),
      unresolved: [{ state: 0, missing: 'state' }],
      unrecorded: []
    },
    {
      id: 'the attachment line differs',
      run: () => check(rounds({ object: h(1), attachment: h(10) }).lines, shard(object(h(1))), shard(attachment(h(12)))),
      unresolved: [{ state: 0, missing: 'state' }],
      unrecorded: []
    },
    {
      id: 'a view line no reducer line names',
      run: () => check([], shard(object(h(1)))),
      unresolved: [],
      unrecorded: [{ file: FACTS, line: 1 }]
    }
  ]

  for (const v of vectors) {
    it(v.id, () => {
      const result = v.run()
      expect(result.unresolved.map((u) => ({ line: u.line, missing: u.missing })), v.id).toEqual(v.unresolved.map((u) => ({ line: u.state + 1, missing: u.missing })))
      expect(result.unrecorded.map((u) => ({ file: u.file, line: u.line })), v.id).toEqual(v.unrecorded)
      // the memory, named by the object's lines while any is left
      for (const u of [...result.unresolved, ...result.unrecorded]) expect(u.memory, v.id).toBe(v.id === 'the object line is gone' ? undefined : MEMORY)
    })
  }

  it('a settled reduction is not reported once a later state of its object resolves; without one it still is', () => {
    const { lines, ids } = rounds({ object: h(1) }, { object: h(2) })
    const settled = new Set([ids[0] as string])
    expect(check(lines, shard(object(h(2))), [], settled).unresolved).toEqual([])
    // the later state does not resolve either: nothing stands for the settled one
    expect(check(lines, shard(object(h(8))), [], settled).unresolved.map((u) => u.reduction)).toEqual(ids)
    // settled, but the newest: no later state
    expect(check(rounds({ object: h(1) }).lines, shard(), [], new Set([rounds({ object: h(1) }).ids[0] as string])).unresolved).toHaveLength(1)
  })

  it('checks per-state lines (v1, v2) by their spelled-out hashes, and a round line chains on them', () => {
    const first = reductionIdOf(OBJECT, h(1), h(10), undefined)
    const v2: ReducerLineRef = {
      line: 1, offset: 0,
      value: { schema_version: 'isnad-reduction-v2', id: first, object: OBJECT, object_hash: h(1), shard: FACTS, attachment_hash: h(10), ts: TS, hash: h(0) }
    }
    const second = reductionIdOf(OBJECT, h(2), h(10), first)
    const round: ReducerLineRef = { line: 2, offset: 300, value: buildReductionRound([{ shard: FACTS, object: OBJECT, reduction: second }], TS) }
    const lines = shard(object(h(1)), object(h(2)))
    expect(check([v2, round], lines, shard(attachment(h(10))))).toMatchObject({ states: 2, unresolved: [], unrecorded: [] })
    // its attachment line gone
    expect(check([v2], shard(object(h(1))), []).unresolved.map((u) => u.missing)).toEqual(['attachment'])
    // an id that does not derive from its hashes
    const forged = { ...v2, value: { ...v2.value, id: second } } as ReducerLineRef
    expect(check([forged], shard(object(h(1))), shard(attachment(h(10)))).unresolved.map((u) => u.missing)).toEqual(['state'])
    // v1 names its memory and its attachment shard
    const v1: ReducerLineRef = {
      line: 1, offset: 0,
      value: {
        schema_version: 'isnad-reduction-v1', id: first, reducer: 'isnad-views/v1', memory: MEMORY, object: OBJECT, object_type: 'fact',
        object_hash: h(1), shard: FACTS, attachment: ATT, attachment_hash: h(10), attachment_shard: ATTACH, ts: TS, hash: h(0)
      }
    }
    expect(check([v1], shard(object(h(1))), shard(attachment(h(10))))).toMatchObject({ states: 1, unresolved: [], unrecorded: [] })
    expect(check([v1], shard(), shard(attachment(h(10)))).unresolved).toMatchObject([{ missing: 'object', memory: MEMORY }])
  })

  it('a forged reduction id breaks the chain: it and the later states of its object are unresolved', () => {
    const { lines } = rounds({ object: h(1) }, { object: h(2) }, { object: h(3) })
    const forged = 'red_aaaaaaaaaaaaaaaaaaaaaaaaaa'
    lines[1] = { ...lines[1] as ReducerLineRef, value: buildReductionRound([{ shard: FACTS, object: OBJECT, reduction: forged }], TS) }
    const result = check(lines, shard(object(h(1)), object(h(2)), object(h(3))))
    expect(result.unresolved.map((u) => u.line)).toEqual([2, 3])
    expect(result.unresolved[0]?.reduction).toBe(forged)
    expect(result.unrecorded).toEqual([]) // the newest state is reported: its line is what it is about
  })
})
