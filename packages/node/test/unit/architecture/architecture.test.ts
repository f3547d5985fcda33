import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import {
  AROUND_INDEX_EXCEPTIONS, AROUND_PART_INDEX_EXCEPTIONS, CORE, LAYERS, PARTS, UPWARD_EXCEPTIONS
} from './layers.js'
import { importsOf, posix } from './imports.js'
import { codeOf, moduleStateIn } from './module-state.js'

/*
 * The layer map as a test (docs/architecture.md): over every .ts file under src/,
 * (1) imports between folders point down the map, (2) they go through the folder's index.ts, (3) the
 * core is pure. Exceptions are listed in layers.ts and may only shrink.
 */

const SRC = join(dirname(fileURLToPath(import.meta.url)), '../../../src')

const FILES = readdirSync(SRC, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts')).map(posix).sort()
const TEXTS = new Map(FILES.map((file) => [file, readFileSync(join(SRC, file), 'utf8')]))

/** The folder a file belongs to: the first segment under src/, `(root)` for src/*.ts. */
function folderOf (file: string): string {
  return file.includes('/') ? file.slice(0, file.indexOf('/')) : '(root)'
}

const IMPORTS = FILES.flatMap((file) => importsOf(file, TEXTS.get(file) as string))
const LOCAL = IMPORTS.filter((i) => i.specifier.startsWith('.'))
const ACROSS = LOCAL.filter((i) => folderOf(i.file) !== folderOf(i.target))
const RANK = new Map(LAYERS.flatMap((layer) => layer.folders).map((folder, rank) => [folder, rank]))

describe('the layer map', () => {
  it('names every folder under src/ exactly once', () => {
    const folders = readdirSync(SRC).filter((name) => statSync(join(SRC, name)).isDirectory())
    const mapped = LAYERS.flatMap((layer) => layer.folders)
    expect(new Set(mapped).size, 'a folder in two places').toBe(mapped.length)
    expect([...folders, '(root)'].sort()).toEqual([...mapped].sort())
  })

  it('has the imports it is read from (the scan found the code)', () => {
    expect(FILES.length).toBeGreaterThan(300)
    expect(ACROSS.length).toBeGreaterThan(300)
  })
})

describe('imports between folders point down the map, so folders form no cycle', () => {
  const upward = ACROSS.filter((i) => (RANK.get(folderOf(i.target)) ?? -1) >= (RANK.get(folderOf(i.file)) ?? -1))

  it.each(LAYERS.flatMap((layer) => layer.folders))('src/%s', (folder) => {
    for (const i of upward.filter((u) => folderOf(u.file) === folder)) {
      const exception = UPWARD_EXCEPTIONS.find((e) => e.from === folder && e.to === folderOf(i.target))
      expect(exception, `${i.file} imports ${i.target}: ${folderOf(i.target)} is not below ${folder} in the layer map`).toBeDefined()
      if (exception?.typeOnly === true) expect(i.typeOnly, `${i.file} imports ${i.target}: only types may cross here (${exception.why})`).toBe(true)
    }
  })

  it.each(UPWARD_EXCEPTIONS.map((e) => [`${e.from} -> ${e.to}`, e] as const))('exception %s still occurs (else remove it)', (_, e) => {
    expect(upward.some((i) => folderOf(i.file) === e.from && folderOf(i.target) === e.to)).toBe(true)
  })
})

describe('imports between folders go through the folder\'s index.ts', () => {
  const around = [...new Set(ACROSS.filter((i) => !i.target.endsWith('/index.ts')).map((i) => `${i.file} -> ${i.target}`))]
  const allowed = new Set(AROUND_INDEX_EXCEPTIONS)

  it.each(LAYERS.flatMap((layer) => layer.folders))('src/%s', (folder) => {
    const offending = around.filter((line) => folderOf(line) === folder && !allowed.has(line))
    expect(offending, 'import the folder\'s index.ts (export the name there)').toEqual([])
  })

  it('lists no exception that no longer occurs (the list only shrinks)', () => {
    expect(AROUND_INDEX_EXCEPTIONS.filter((line) => !around.includes(line))).toEqual([])
  })

  it('allows no exception in the core', () => {
    expect(AROUND_INDEX_EXCEPTIONS.filter((line) => CORE.has(folderOf(line)))).toEqual([])
  })
})

/** The part of net/ a file belongs to (`net/gossip`), or undefined. */
function partOf (file: string): string | undefined {
  const [folder, part, rest] = file.split('/')
  return rest !== undefined && PARTS.get(folder ?? '')?.includes(part ?? '') === true ? `${folder}/${part}` : undefined
}

describe('inside net/, imports of a part go through the part\'s index.ts', () => {
  const around = [...new Set(LOCAL
    .filter((i) => folderOf(i.file) === folderOf(i.target) && partOf(i.target) !== undefined && partOf(i.target) !== partOf(i.file))
    .filter((i) => !i.target.endsWith('/index.ts'))
    .map((i) => `${i.file} -> ${i.target}`))]

  it('finds the parts (the scan found the code)', () => {
    for (const [folder, parts] of PARTS) {
      for (const part of parts) expect(FILES, `${folder}/${part}/index.ts`).toContain(`${folder}/${part}/index.ts`)
    }
    expect(LOCAL.filter((i) => partOf(i.target) !== undefined && partOf(i.file) !== partOf(i.target)).length).toBeGreaterThan(40)
  })

  it.each([...PARTS.keys()])('src/%s', (folder) => {
    const allowed = new Set(AROUND_PART_INDEX_EXCEPTIONS)
    expect(around.filter((line) => folderOf(line) === folder && !allowed.has(line)), 'import the part\'s index.ts (export the name there)').toEqual([])
  })

  it('lists no exception that no longer occurs (the list only shrinks)', () => {
    expect(AROUND_PART_INDEX_EXCEPTIONS.filter((line) => !around.includes(line))).toEqual([])
  })
})

/** Packages that do storage, networking or run native code: the core imports none of them. */
const IO_PACKAGES = /^(level|abstract-level|classic-level|blockstore-level|libp2p|@libp2p\/|@chainsafe\/|@multiformats\/multiaddr|sodium-native|hono|@hono\/|@modelcontextprotocol\/|commander|ipfs-unixfs)/

const IMPURE_CODE: Array<[string, RegExp]> = [
  ['the clock', /Date\.now\(|new Date\(\)|performance\.now\(|process\.hrtime/],
  ['randomness', /Math\.random\(|crypto\.getRandomValues|randomBytes/],
  ['the process or require', /\bprocess\.|\brequire\(/],
  ['Node.js buffers (the dashboard bundles the core)', /\bBuffer\.|new Buffer\b|from 'node:buffer'/]
]

describe('the core is pure: no Node built-in, storage, network, clock or module-level state', () => {
  const coreFiles = FILES.filter((file) => CORE.has(folderOf(file)))

  it.each(coreFiles)('src/%s', (file) => {
    const text = TEXTS.get(file) as string
    // STYLE: a core file reads in one sitting.
    expect(text.split('\n').length, `${file}: small file`).toBeLessThanOrEqual(250)
    for (const i of IMPORTS.filter((i) => i.file === file && !i.specifier.startsWith('.'))) {
      expect(i.specifier.startsWith('node:'), `${file} imports ${i.specifier}`).toBe(false)
      expect(IO_PACKAGES.test(i.specifier), `${file} imports ${i.specifier}`).toBe(false)
    }
    const code = codeOf(text)
    for (const [what, pattern] of IMPURE_CODE) expect(pattern.test(code), `${file} uses ${what}`).toBe(false)
    // No exceptions: a cache or a library setting belongs in an object the caller creates, or in src/native.
    expect(moduleStateIn(text), `${file} holds module-level state`).toEqual([])
  })
})
