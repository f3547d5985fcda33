import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { describePurity } from '../../fixtures/purity.js'

// M-8: the Verifier is pure. The folder holds the impure layers too (the Store, the Selector and
// its node glue): those are named; everything else imports no store, node, ledger, clock or randomness.
describePurity({
  title: 'src/fdr is pure but for its Store and Selector',
  folder: 'src/fdr/',
  minFiles: 10,
  allowedImports: /^(\.\/[a-z0-9-]+\.js|\.\.\/(schema|errors|identity|record|merkle)\/index\.js|zod)$/,
  ioFiles: new Set(['node-select.ts', 'record-memory-store.ts', 'selector.ts'])
})

/** The Verifier's own files and everything they import inside the folder, transitively. */
function closureOf (entry: string): Set<string> {
  const seen = new Set<string>()
  const visit = (name: string): void => {
    if (seen.has(name)) return
    seen.add(name)
    const text = readFileSync(new URL(`../../../src/fdr/${name}`, import.meta.url), 'utf8')
    for (const [, file] of text.matchAll(/\bfrom '\.\/([a-z0-9-]+)\.js'/g)) visit(`${file}.ts`)
  }
  visit(entry)
  return seen
}

describe('the Verifier and the Authority reach no impure layer (M-8, M-4)', () => {
  it.each(['verifier.ts', 'authority.ts', 'verify-document.ts'])('%s', (entry) => {
    const closure = closureOf(entry)
    for (const impure of ['selector.ts', 'record-memory-store.ts', 'node-select.ts']) {
      expect(closure.has(impure), `${entry} imports ${impure}`).toBe(false)
    }
  })
})
