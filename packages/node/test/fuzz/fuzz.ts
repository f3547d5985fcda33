import fc from 'fast-check'
import { isIsnadError } from '../../src/errors/index.js'

/*
 * Shared pieces of the fuzz properties. Every decoder or validator that reads from the
 * network, HTTP or files gets random bytes, random JSON and mutations of valid inputs; it must
 * refuse them with an IsnadError (never another exception, never a hang) and never accept a
 * mutated input as valid. `ISNAD_FUZZ_RUNS=100000 npx vitest run test/fuzz` runs the long campaign.
 */

const LONG_RUNS = Number.parseInt(process.env.ISNAD_FUZZ_RUNS ?? '', 10)

/** fast-check parameters: `runs` by default, ISNAD_FUZZ_RUNS when set (and no time limit then). */
export function fuzzParams (runs: number): fc.Parameters<unknown> {
  return Number.isFinite(LONG_RUNS) && LONG_RUNS > 0 ? { numRuns: LONG_RUNS } : { numRuns: runs }
}

/** True when `run` throws an IsnadError; anything else thrown is re-thrown (a crash, a bug). */
export function refuses (run: () => unknown): boolean {
  try {
    run()
    return false
  } catch (err) {
    if (isIsnadError(err)) return true
    throw err
  }
}

export async function refusesAsync (run: () => Promise<unknown>): Promise<boolean> {
  try {
    await run()
    return false
  } catch (err) {
    if (isIsnadError(err)) return true
    throw err
  }
}

/** One change to a byte string: a bit flip, a byte replaced, inserted or deleted, a cut, a splice. */
export type Mutation = (bytes: Uint8Array) => Uint8Array

export const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.tuple(fc.nat(), fc.integer({ min: 0, max: 7 })).map(([at, bit]) => (bytes: Uint8Array) => {
    const out = bytes.slice()
    const i = at % Math.max(out.length, 1)
    if (out.length > 0) out[i] = (out[i] as number) ^ (1 << bit)
    return out
  }),
  fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })).map(([at, value]) => (bytes: Uint8Array) => {
    const out = bytes.slice()
    if (out.length > 0) out[at % out.length] = value
    return out
  }),
  fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })).map(([at, value]) => (bytes: Uint8Array) => {
    const i = at % (bytes.length + 1)
    return Uint8Array.from([...bytes.subarray(0, i), value, ...bytes.subarray(i)])
  }),
  fc.nat().map((at) => (bytes: Uint8Array) => {
    const i = at % Math.max(bytes.length, 1)
    return Uint8Array.from([...bytes.subarray(0, i), ...bytes.subarray(i + 1)])
  }),
  fc.nat().map((at) => (bytes: Uint8Array) => bytes.slice(0, at % Math.max(bytes.length, 1))),
  fc.tuple(fc.nat(), fc.uint8Array({ minLength: 1, maxLength: 16 })).map(([at, chunk]) => (bytes: Uint8Array) => {
    const out = bytes.slice()
    out.set(chunk.subarray(0, Math.max(0, out.length - (at % Math.max(out.length, 1)))), at % Math.max(out.length, 1))
    return out
  })
)

/** One change to a text: a character flipped, replaced or removed (signatures, dids, CIDs, JSON). */
export const textMutation: fc.Arbitrary<(text: string) => string> = fc.tuple(fc.nat(), fc.integer({ min: 1, max: 0x7f }), fc.boolean())
  .map(([at, code, remove]) => (text: string) => {
    if (text.length === 0) return String.fromCharCode(code)
    const i = at % text.length
    const replacement = remove ? '' : String.fromCharCode((text.charCodeAt(i) ^ code) || 0x41)
    return text.slice(0, i) + replacement + text.slice(i + 1)
  })

export function sameBytes (a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i])
}

/** A JSON value reached by `path` inside `root`, replaced by `fn` of it (a structured clone is changed). */
export function mutateAt (root: unknown, path: ReadonlyArray<string | number>, fn: (value: unknown) => unknown): unknown {
  const copy = structuredClone(root)
  if (path.length === 0) return fn(copy)
  let parent = copy as Record<string | number, unknown>
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>
  const last = path[path.length - 1] as string | number
  parent[last] = fn(parent[last])
  return copy
}

/** Every path to a string leaf of a JSON value: where signatures, dids, CIDs and times live. */
export function stringPaths (value: unknown, prefix: Array<string | number> = []): Array<Array<string | number>> {
  if (typeof value === 'string') return [prefix]
  if (Array.isArray(value)) return value.flatMap((item, i) => stringPaths(item, [...prefix, i]))
  if (value !== null && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => stringPaths(v, [...prefix, k]))
  return []
}

/**
 * Adversarial byte strings no random generator finds: CBOR headers claiming huge lengths, deep
 * nesting (a stack bomb), indefinite lengths, tags, undefined, NaN. Each must be refused cheaply.
 */
export const HOSTILE_CBOR: Array<{ name: string, bytes: Uint8Array }> = [
  { name: 'array claiming 2^32 items', bytes: Uint8Array.of(0x9a, 0xff, 0xff, 0xff, 0xff, 0x00) },
  { name: 'map claiming 2^64 entries', bytes: Uint8Array.of(0xbb, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff) },
  { name: 'byte string claiming 4 GiB', bytes: Uint8Array.of(0x5a, 0xff, 0xff, 0xff, 0xff, 0x01) },
  { name: 'text claiming 2^63 bytes', bytes: Uint8Array.of(0x7b, 0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff) },
  { name: '100000 nested arrays', bytes: new Uint8Array(100_000).fill(0x81) },
  { name: '50000 nested maps', bytes: Uint8Array.from({ length: 100_000 }, (_, i) => i % 2 === 0 ? 0xa1 : 0x60) },
  { name: 'indefinite-length array', bytes: Uint8Array.of(0x9f, 0x01, 0xff) },
  { name: 'undefined', bytes: Uint8Array.of(0xf7) },
  { name: 'NaN', bytes: Uint8Array.of(0xf9, 0x7e, 0x00) },
  { name: 'unknown tag', bytes: Uint8Array.of(0xd8, 0x2b, 0x01) },
  { name: 'CID tag over garbage', bytes: Uint8Array.of(0xd8, 0x2a, 0x43, 0x00, 0x01, 0x02) },
  { name: 'empty', bytes: new Uint8Array(0) }
]
