import { performance } from 'node:perf_hooks'
import {
  attachmentIdOf, buildReductionRound, checkReductions, objectIdOf, reductionIdOf,
  type ReducerLineRef, type RoundEntry, type ViewLineRef
} from '../src/ledger/object-views/index.js'
import { median } from './stats.js'

/*
 * What `ledger verify`'s check of the views against coordination/reducers.jsonl costs
 * (src/ledger/object-views/reduction-check.ts, docs/views.md): a home's worth of lines, built in memory
 * (the audit reads the files once anyway; this is the check on top), each object reduced twice (its
 * memory stored, then attested: the second state has an attachment), round lines of 1,024 entries.
 * Baseline, in the same run: deriving one reduction id per state (reductionIdOf), the least a check
 * that reproduces every state must do. Median of the passes.
 *
 *   npm run build && node dist/bench/reduction-check.js [--objects=50000] [--passes=5]
 */

const arg = (name: string, fallback: string): number => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback)
const OBJECTS = arg('objects', '50000')
const PASSES = arg('passes', '5')
const SHARD = 'views/facts/default/2026-11.jsonl'
const ATTACH = 'views/attach/default/2026-11.jsonl'
const TS = '2026-11-20T10:00:00.000Z'
const ROUND = 1024

const hashOf = (n: number): string => `sha256:${n.toString(16).padStart(64, '0')}`

function build (): { reducers: ReducerLineRef[], views: Map<string, ViewLineRef[]>, states: Array<[string, string, string | undefined, string | undefined]> } {
  const objects: ViewLineRef[] = []
  const attachments: ViewLineRef[] = []
  const states: Array<[string, string, string | undefined, string | undefined]> = []
  const rounds: RoundEntry[][] = [[], []]
  for (let i = 0; i < OBJECTS; i++) {
    const memory = `bafyrei${i.toString(32).padStart(52, '0')}`
    const object = objectIdOf('fact', memory)
    const first = reductionIdOf(object, hashOf(2 * i), undefined, undefined)
    const second = reductionIdOf(object, hashOf(2 * i + 1), hashOf(3 * OBJECTS + i), first)
    objects.push({ line: 0, offset: 0, id: object, hash: hashOf(2 * i), memory })
    states.push([object, hashOf(2 * i), undefined, undefined], [object, hashOf(2 * i + 1), hashOf(3 * OBJECTS + i), first])
    rounds[0]?.push({ shard: SHARD, object, reduction: first })
    rounds[1]?.push({ shard: SHARD, object, reduction: second })
    attachments.push({ line: 0, offset: 0, id: attachmentIdOf(object), hash: hashOf(3 * OBJECTS + i) })
  }
  // the second states' object lines follow the first ones (the writer appends)
  for (let i = 0; i < OBJECTS; i++) objects.push({ ...(objects[i] as ViewLineRef), hash: hashOf(2 * i + 1) })
  const reducers: ReducerLineRef[] = []
  for (const round of rounds) {
    for (let at = 0; at < round.length; at += ROUND) reducers.push({ line: reducers.length + 1, offset: 0, value: buildReductionRound(round.slice(at, at + ROUND), TS) })
  }
  return { reducers, views: new Map([[SHARD, objects], [ATTACH, attachments]]), states }
}

const { reducers, views, states } = build()
const checkMs: number[] = []
const baselineMs: number[] = []
for (let pass = 0; pass < PASSES; pass++) {
  let t = performance.now()
  const result = checkReductions({ reducers, views })
  checkMs.push(performance.now() - t)
  if (result.unresolved.length + result.unrecorded.length !== 0 || result.states !== states.length) throw new Error('the generated lines do not check out')
  t = performance.now()
  for (const [object, hash, attachment, previous] of states) reductionIdOf(object, hash, attachment, previous)
  baselineMs.push(performance.now() - t)
}
const check = median(checkMs)
const baseline = median(baselineMs)
process.stdout.write(JSON.stringify({
  objects: OBJECTS,
  states: states.length,
  viewLines: OBJECTS * 3,
  checkMs: Math.round(check),
  statesPerSecond: Math.round(states.length / (check / 1000)),
  baselineMs: Math.round(baseline),
  ratioToBaseline: Math.round(check / baseline * 100) / 100
}, null, 2) + '\n')
