import { describe, expect, it } from 'vitest'
import { moduleStateIn } from './module-state.js'

/*
 * Vectors for the purity check of the core (architecture.test.ts): the state the core once held
 * must still be caught if it comes back, and the constants the core
 * keeps must pass.
 */

const HELD: ReadonlyArray<readonly [string, string, string]> = [
  ['noble\'s hash hook set at import (identity/ed25519.ts)', 'import * as ed from \'@noble/ed25519\'\ned.hashes.sha512 = sha512\n', 'an assignment at module level (to an import or a table)'],
  ['a seed → key cache (identity/ed25519.ts)', 'const seedPublicKeys = new Map<string, Uint8Array>()\n', 'a module-level collection filled at run time'],
  ['a decoded-key cache (identity/ed25519.ts)', 'const acceptableKeys = new Map<string, Point | null>()\n', 'a module-level collection filled at run time'],
  ['a memo of the last instant (trust/compute.ts)', 'let lastInstant = Number.NaN\nlet lastIso = \'\'\n', 'a module-level let or var'],
  ['kept reason texts (trust/isnad-v01-policy.ts)', 'const confirmReasons: string[] = []\n', 'a module-level empty array or object filled at run time'],
  ['an exported registry', 'export const registry: Record<string, number> = {}\n', 'a module-level empty array or object filled at run time'],
  ['a WeakMap side table', 'export const verified = new WeakMap<object, string>()\n', 'a module-level collection filled at run time'],
  ['a table filled by index', 'TABLE[0] = 1\n', 'an assignment at module level (to an import or a table)'],
  ['a table filled by a loop', 'const T = new Uint8Array(256)\nfor (let i = 0; i < 256; i++) T[i] = i\n', 'a loop at module level']
]

const CONSTANT: ReadonlyArray<readonly [string, string]> = [
  ['a frozen object', 'export const PATHS: Paths = Object.freeze({ sha256 })\n'],
  ['a Readonly empty map', 'const NO_NOTES: ReadonlyMap<string, Note> = new Map<string, Note>()\n'],
  ['a readonly empty array', 'const NONE: readonly string[] = []\n'],
  ['a table built once by an expression', 'const HEX_BYTES = Array.from({ length: 256 }, (_, i) => i.toString(16))\n'],
  ['a filled map of constants', 'const LEVELS = new Map([[\'High\', 3]])\n'],
  ['state inside a function', 'export function f (): number {\n  let n = 0\n  const seen = new Map<string, number>()\n  seen.set(\'a\', n++)\n  return n\n}\n'],
  ['state in a caller-owned object', 'export function createCache (): Cache {\n  const keys = new Map<string, Uint8Array>()\n  return { get: (k) => keys.get(k) }\n}\n'],
  ['a comment that mentions state', '// let x = 1\n/* ed.hashes.sha512 = sha512 */\nexport const X = 1\n'],
  ['a comparison at module level', 'export const same = A.length === B.length\n']
]

describe('the module-state check of the core', () => {
  it.each(HELD)('catches %s', (_, text, what) => {
    expect(moduleStateIn(text)).toContain(what)
  })

  it.each(CONSTANT)('passes %s', (_, text) => {
    expect(moduleStateIn(text)).toEqual([])
  })
})
