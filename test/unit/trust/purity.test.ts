import { readdirSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'

/**
 * STYLE "Layout": the pure folders import no `level`, `libp2p`, `node:fs`, no clock and no randomness;
 * time and the reputation lookup are passed in. This test keeps src/trust that way, and keeps its
 * imports to the public faces (index.ts) of the folders below it.
 */

const DIR = new URL('../../../src/trust/', import.meta.url)
const files = readdirSync(DIR).filter((name) => name.endsWith('.ts'))

const FORBIDDEN: Array<[string, RegExp]> = [
  ['the clock', /Date\.now\(|new Date\(\)|performance\.now\(|process\.hrtime/],
  ['randomness', /Math\.random\(|crypto\.getRandomValues|randomBytes/],
  ['I/O and the environment', /\bprocess\.|\brequire\(/]
]
const ALLOWED_IMPORTS = /^(\.\/[a-z0-9-]+\.js|\.\.\/(schema|errors)\/index\.js)$/

describe('src/trust is pure', () => {
  it('has files to check', () => {
    expect(files.length, 'src/trust: file count').toBeGreaterThan(3)
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
