import { readdirSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'

/**
 * STYLE "Layout": the reducer is pure (no clock, no randomness, no I/O); only writer.ts and
 * fs-lines.ts in src/ledger/views touch the file system. Every file stays small.
 */

const DIR = new URL('../../../src/ledger/views/', import.meta.url)
const IO_FILES = new Set(['writer.ts', 'fs-lines.ts'])
const files = readdirSync(DIR).filter((name) => name.endsWith('.ts'))

const FORBIDDEN: Array<[string, RegExp]> = [
  ['the clock', /Date\.now\(|new Date\(\)|performance\.now\(|process\.hrtime/],
  ['randomness', /Math\.random\(|crypto\.getRandomValues|randomBytes/],
  ['I/O and the environment', /\bprocess\.|\brequire\(/]
]
const ALLOWED_IMPORTS = /^(\.\/[a-z0-9-]+\.js|\.\.\/\.\.\/(schema|errors)\/index\.js|zod|canonicalize|@noble\/hashes\/sha2\.js)$/

describe('src/ledger/views: the reducer is pure', () => {
  it('has files to check', () => expect(files.length).toBeGreaterThan(8))

  it.each(files)('%s', (name) => {
    const text = readFileSync(new URL(name, DIR), 'utf8')
    expect(text.split('\n').length, `${name}: small file`).toBeLessThanOrEqual(250)
    if (IO_FILES.has(name)) return
    for (const [what, pattern] of FORBIDDEN) expect(pattern.test(text), `${name}: uses ${what}`).toBe(false)
    for (const [, specifier] of text.matchAll(/\bfrom '([^']+)'/g)) {
      expect(specifier, `${name}: imports ${specifier}`).toMatch(ALLOWED_IMPORTS)
    }
  })
})
