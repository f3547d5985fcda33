import { readdirSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'

/**
 * STYLE "Layout": src/merkle is pure — no clock, no randomness, no `level`, no `node:` modules. The
 * persistent log does its I/O only through the MerkleNodeStore it is given, so the whole folder
 * runs in a browser (the dashboard verifies proofs and checkpoints). Imports stay on the public
 * faces of the folders below it.
 */

const DIR = new URL('../../../src/merkle/', import.meta.url)
const files = readdirSync(DIR).filter((name) => name.endsWith('.ts'))

const FORBIDDEN: Array<[string, RegExp]> = [
  ['the clock', /Date\.now\(|new Date\(\)|performance\.now\(|process\.hrtime/],
  ['randomness', /Math\.random\(|crypto\.getRandomValues|randomBytes/],
  ['I/O and the environment', /\bprocess\.|\brequire\(|\bBuffer\b/]
]
const ALLOWED_IMPORTS = /^(\.\/[a-z0-9-]+\.js|\.\.\/(schema|errors|identity|record)\/index\.js|@noble\/hashes\/(sha2|utils)\.js|zod|multiformats\/cid)$/

describe('src/merkle is pure', () => {
  it('has files to check', () => {
    expect(files.length, 'src/merkle: file count').toBeGreaterThan(10)
  })

  it.each(files)('%s', (name) => {
    const text = readFileSync(new URL(name, DIR), 'utf8')
    for (const [what, pattern] of FORBIDDEN) {
      expect(pattern.test(text), `${name}: uses ${what}`).toBe(false)
    }
    for (const [, specifier] of text.matchAll(/\bfrom '([^']+)'/g)) {
      expect(specifier, `${name}: imports ${specifier}`).toMatch(ALLOWED_IMPORTS)
    }
    expect(text.split('\n').length, `${name}: small file`).toBeLessThanOrEqual(250)
  })
})
