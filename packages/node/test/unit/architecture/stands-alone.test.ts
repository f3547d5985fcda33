import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

/*
 * The repository stands alone for its users: what both packages' sources, tests, benches, scripts,
 * protocols/ and scenarios, docs/, the CI and container files, README.md and BENCHMARKS.md say must
 * be readable with nothing but the repository. So they cite docs/ and protocols/ (`docs/trust.md §2`,
 * `record-v1 R12`), never an issue number, a work log (passes, sessions), a branch, or a file outside
 * the repository (the design notes, `../shared`). History lives in git.
 */

/** The repository (the workspace root), three folders above the node's package. */
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../../../../..')
/** What every package holds that a user reads: code, its tests and benches, specs, scenarios. */
const PACKAGE_FOLDERS = ['src', 'test', 'bench', 'scripts', 'bin', 'protocols', 'scenarios']
const PACKAGES = readdirSync(join(ROOT, 'packages')).map((name) => `packages/${name}`)
const FOLDERS = [
  ...PACKAGES.flatMap((pkg) => PACKAGE_FOLDERS.map((folder) => `${pkg}/${folder}`)),
  'docs', 'scripts', 'bin', 'keys', '.ci', 'docker'
].filter((folder) => existsSync(join(ROOT, folder)) && statSync(join(ROOT, folder)).isDirectory())
const FILES_AT_ROOT = ['README.md', 'BENCHMARKS.md']
/**
 * Text files only: the dashboard's images, the simulator's CSV data and the LevelDB files of the
 * test fixtures say nothing to cite. The CI script and the container file have no extension.
 */
const TEXT = /\.(ts|mts|mjs|cjs|js|json|md|css|html|ya?ml|txt|sh)$|(^|\/)Dockerfile$|^\.ci\/[^/.]+$/

/**
 * Files left out, each with its reason. This test quotes the references it looks for; a
 * package-lock.json is written by npm and names platform packages (`win32-x64`). Nothing below a
 * node_modules/ folder is the repository's (the OrbitDB peer of the benches installs its own).
 */
const QUOTING = ['packages/node/test/unit/architecture/stands-alone.test.ts']
const isLeftOut = (file: string): boolean => QUOTING.includes(file) || file.endsWith('package-lock.json')

/**
 * Words made of letters and two digits that are names of things, not branches (a branch here was a
 * word and the number: `idx20`, `views20b`, `trust18`).
 */
const TECHNICAL_WORDS = new Set([
  'base16', 'base32', 'chacha20', 'ref10', 'sfc32', 'int16', 'int32', 'uint16', 'uint32', 'float32',
  'mulberry32', 'clz32', 'rot13', 'win32'
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
  { name: 'work-log reference', pattern: /\bpass \d+ of\b/gi },
  { name: 'branch reference', pattern: /\bbranch(es)? `?[a-z][a-z-]*\d+[a-z]?\b/gi },
  {
    name: 'branch reference',
    // Not after a backslash: `\ufb33` is a character escape.
    pattern: /(?<!\\)\b[a-z]{3,}[1-3]\d[a-z]?\b/g,
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

/** The text files below a folder, never entering a node_modules/. */
function filesUnder (folder: string): string[] {
  return readdirSync(join(ROOT, folder), { withFileTypes: true }).flatMap((entry) => {
    const path = posix(join(folder, entry.name))
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : filesUnder(path)
    return entry.isFile() && TEXT.test(path) && !isLeftOut(path) ? [path] : []
  })
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
    expect(FILES.length).toBeGreaterThan(500)
    for (const file of [
      'BENCHMARKS.md', 'README.md', 'docs/architecture.md', 'packages/node/protocols/record-v1.md', 'packages/sim/src/index.ts',
      'packages/node/test/integration/node/layout-fixture.test.ts', 'packages/sim/test/unit/scenario-plan.test.ts',
      'packages/node/bench/run.ts', 'packages/node/bench/peers/orbitdb/README.md', 'packages/node/scripts/generate-ed25519-vectors.ts',
      'packages/sim/scenarios/attacks/wide-circle.yaml', '.ci/run', 'docker/Dockerfile'
    ]) {
      expect(FILES, file).toContain(file)
    }
  })

  it('leaves out only files that exist', () => {
    for (const file of QUOTING) expect(existsSync(join(ROOT, file)), file).toBe(true)
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
      ['written in pass 2 of 3', 'work-log reference'],
      ['(branch idx20)', 'branch reference'],
      ['merged views20b', 'branch reference'],
      ['as ../shared/DESIGN.md says', 'link outside the repository'],
      ['the rule of DESIGN §4', 'link outside the repository'],
      ['from seeds/003 §10', 'link outside the repository']
    ]
    for (const [text, rule] of cases) expect(referencesIn(text).join(), text).toContain(rule)
    for (const text of ['record-v1 R12', 'docs/trust.md §4', 'base32 of a chacha20 key', 'an int32 in a uint16', 'a second signature', "'\\ufb33'", 'seeded by mulberry32']) {
      expect(referencesIn(text), text).toEqual([])
    }
  })
})
