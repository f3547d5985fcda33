import { readdirSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { describePurity } from '../../fixtures/purity.js'

// M-8: the Verifier is pure. The folder holds the impure layers too (the Store, the Selector and
// the Selector on a node is src/node/records/select.ts): those are named; everything else imports no store, node, ledger, clock or randomness.
describePurity({
  title: 'src/fdr is pure but for its Store and Selector',
  folder: 'src/fdr/',
  minFiles: 10,
  allowedImports: /^(\.\/[a-z0-9-]+\.js|\.\.\/(schema|errors|identity|record|merkle)\/index\.js|zod)$/,
  ioFiles: new Set(['record-memory-store.ts', 'selector.ts'])
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
  it.each(['memory-verifier.ts', 'authority.ts', 'verify-fdr-document.ts'])('%s', (entry) => {
    const closure = closureOf(entry)
    for (const impure of ['selector.ts', 'record-memory-store.ts']) {
      expect(closure.has(impure), `${entry} imports ${impure}`).toBe(false)
    }
  })
})

/** Every .ts file under a src/ folder, recursively, as [relative name, text]. */
function sourcesUnder (folder: string): Array<[string, string]> {
  const dir = new URL(`../../../src/${folder}/`, import.meta.url)
  return (readdirSync(dir, { recursive: true, encoding: 'utf8' }))
    .filter((name) => name.endsWith('.ts'))
    .map((name) => [`${folder}/${name}`, readFileSync(new URL(name, dir), 'utf8')])
}

describe('M-10: projections and the pure core never reach the memory layer', () => {
  // The views reducer (src/ledger/object-views, the node's projection of events into views/) and every
  // folder below the node: none may import src/fdr, so no projection can depend on a selection.
  it.each(['ledger', 'memory-view', 'trust', 'record-index', 'merkle', 'record', 'schema', 'identity', 'reputation'])('src/%s', (folder) => {
    for (const [name, text] of sourcesUnder(folder)) expect(/from '(\.\.\/)+fdr\//.test(text), `${name} imports src/fdr`).toBe(false)
  })
})

describe('M-11: a WorldId is opaque above the Store', () => {
  it.each(readdirSync(new URL('../../../src/fdr/', import.meta.url)).filter((n) => n.endsWith('.ts') && n !== 'record-memory-store.ts'))('%s', (name) => {
    const text = readFileSync(new URL(`../../../src/fdr/${name}`, import.meta.url), 'utf8')
    // Only the Store knows a WorldId is a memory CID: nothing else parses, splits or pattern-matches one.
    expect(/isRecordCid|CID\.parse|RECORD_CID_PATTERN|(worldId|atWorldId|WorldId)\??\.(split|slice|substring|startsWith|endsWith|match|indexOf)\(/.test(text), name).toBe(false)
  })
})
