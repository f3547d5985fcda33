import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

/*
 * The repository stands alone for its users: what both packages' src/, protocols/, docs/, README.md
 * and BENCHMARKS.md say must be readable with nothing but the repository. So they cite docs/ and
 * protocols/ (`docs/trust.md §2`, `record-v1 R12`), never an issue number, a work log (passes,
 * sessions), a branch, or a file outside the repository (the design notes, `../shared`). History
 * lives in git.
 */

/** The repository (the workspace root), three folders above the node's package. */
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../../../../..')
const FOLDERS = ['packages/node/src', 'packages/node/protocols', 'packages/sim/src', 'docs']
const FILES_AT_ROOT = ['README.md', 'BENCHMARKS.md']
/** Text files only: the dashboard's images and the simulator's CSV data say nothing to cite. */
const TEXT = /\.(ts|mts|mjs|js|json|md|css|html|ya?ml|txt)$/

/**
 * Words made of letters and two digits that are names of things, not branches (a branch here was a
 * word and the number: `idx20`, `views20b`, `trust18`).
 */
const TECHNICAL_WORDS = new Set([
  'base16', 'base32', 'chacha20', 'ref10', 'sfc32', 'int16', 'int32', 'uint16', 'uint32', 'float32'
])

interface Rule {
  name: string
  pattern: RegExp
  /** false when a match is not a reference after all. */
  keep?: (match: string) => boolean
}

const RULES: Rule[] = [
  { name: 'issue reference', pattern: /\bissues? #?\d+/gi },
  { name: 'work-log reference', pattern: /\bsessions? \d+/gi },
  { name: 'work-log reference', pattern: /\b(first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|next|previous|last|earlier|later) pass\b/gi },
  { name: 'work-log reference', pattern: /\b(pass|round|session) of work\b|\bwork[- ]log\b/gi },
  { name: 'branch reference', pattern: /\bbranch(es)? `?[a-z][a-z-]*\d+[a-z]?\b/gi },
  {
    name: 'branch reference',
    pattern: /\b[a-z]{3,}[1-3]\d[a-z]?\b/g,
    keep: (match) => !TECHNICAL_WORDS.has(match)
  },
  { name: 'link outside the repository', pattern: /\.\.\/shared\b|\bDESIGN\.md\b|\bDESIGN §|\bseeds\/|\/work\//g }
]

/**
 * Files that still hold references, each to be rewritten and removed from here: the list must
 * shrink to empty. An entry whose file no longer has any fails the test, so it cannot outlive its
 * reason.
 */
const NOT_YET_STANDING_ALONE: readonly string[] = []

const posix = (path: string): string => path.split(sep).join('/')

function filesUnder (folder: string): string[] {
  return readdirSync(join(ROOT, folder), { recursive: true, encoding: 'utf8' })
    .map((file) => posix(join(folder, file)))
    .filter((file) => TEXT.test(file) && statSync(join(ROOT, file)).isFile())
}

const FILES = [...FOLDERS.flatMap(filesUnder), ...FILES_AT_ROOT.filter((file) => existsSync(join(ROOT, file)))].sort()

/** Every reference in a text, as `line: rule "match"`. */
function referencesIn (text: string): string[] {
  const found: string[] = []
  text.split('\n').forEach((line, index) => {
    for (const rule of RULES) {
      for (const match of line.matchAll(rule.pattern)) {
        if (rule.keep === undefined || rule.keep(match[0])) found.push(`${index + 1}: ${rule.name} "${match[0]}"`)
      }
    }
  })
  return found
}

const REFERENCES = new Map(FILES.map((file) => [file, referencesIn(readFileSync(join(ROOT, file), 'utf8'))]))

describe('the repository stands alone', () => {
  it('reads the files it promises to', () => {
    expect(FILES.length).toBeGreaterThan(100)
    for (const file of ['BENCHMARKS.md', 'README.md', 'docs/architecture.md', 'packages/node/protocols/record-v1.md', 'packages/sim/src/index.ts']) {
      expect(FILES, file).toContain(file)
    }
  })

  it('cites no issue, work log, branch or file outside the repository', () => {
    const allowed = new Set(NOT_YET_STANDING_ALONE)
    const offending = [...REFERENCES]
      .filter(([file]) => !allowed.has(file))
      .flatMap(([file, references]) => references.map((reference) => `${file}:${reference}`))
    expect(offending, `rewrite each to cite docs/ or protocols/, or drop it:\n${offending.join('\n')}`).toEqual([])
  })

  it('lists in NOT_YET_STANDING_ALONE only files that still hold references', () => {
    const stale = NOT_YET_STANDING_ALONE.filter((file) => (REFERENCES.get(file) ?? []).length === 0)
    expect(stale, 'these files stand alone now: remove them from the list').toEqual([])
  })

  it('catches each kind of reference', () => {
    const cases: Array<[string, string]> = [
      ['fixed in issue 18', 'issue reference'],
      ['see Issue #7', 'issue reference'],
      ['measured in session 6', 'work-log reference'],
      ['the third pass refined it', 'work-log reference'],
      ['(branch idx20)', 'branch reference'],
      ['merged views20b', 'branch reference'],
      ['as ../shared/DESIGN.md says', 'link outside the repository'],
      ['the rule of DESIGN §4', 'link outside the repository'],
      ['from seeds/003 §10', 'link outside the repository']
    ]
    for (const [text, rule] of cases) expect(referencesIn(text).join(), text).toContain(rule)
    for (const text of ['record-v1 R12', 'docs/trust.md §4', 'base32 of a chacha20 key', 'an int32 in a uint16', 'a second signature']) {
      expect(referencesIn(text), text).toEqual([])
    }
  })
})
