import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { importsOf, typeScriptUnder, type Import } from './imports.js'
import { SIM_PARTS } from './layers.js'

/*
 * The two packages of the workspace (docs/architecture.md "Packages"): the node (packages/node,
 * `isnad`) and the simulator (packages/sim, `isnad-sim`), which depends on the node. The node
 * imports nothing of the simulator but through its one optional loader (src/cli/commands/simulator.ts,
 * by package name, at run time); the simulator imports the node only through the node's declared
 * exports (`isnad`, `isnad/engine`), never by a path into its folder. Scanned: every .ts file of
 * both packages, their benchmarks, scripts and tests.
 */

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../../../../..')
const NODE = 'packages/node'
const SIM = 'packages/sim'
const LOADER = `${NODE}/src/cli/commands/simulator.ts`

/** Every import of every .ts file of a package (files and targets relative to the repository). */
function importsIn (pkg: string): Import[] {
  return [...typeScriptUnder(join(ROOT, pkg))].flatMap(([file, text]) => importsOf(`${pkg}/${file}`, text))
}

const NODE_IMPORTS = importsIn(NODE)
const SIM_IMPORTS = importsIn(SIM)
const packageJson = (pkg: string): { name: string, exports: Record<string, unknown>, dependencies?: Record<string, string>, devDependencies?: Record<string, string>, peerDependencies?: Record<string, string>, optionalDependencies?: Record<string, string> } =>
  JSON.parse(readFileSync(join(ROOT, pkg, 'package.json'), 'utf8'))
const isSimPackage = (specifier: string): boolean => specifier === 'isnad-sim' || specifier.startsWith('isnad-sim/')
const isNodePackage = (specifier: string): boolean => specifier === 'isnad' || specifier.startsWith('isnad/')

describe('the packages of the workspace', () => {
  it('scans both packages (the scan found the code)', () => {
    expect(NODE_IMPORTS.length).toBeGreaterThan(2000)
    expect(SIM_IMPORTS.length).toBeGreaterThan(300)
    expect(SIM_IMPORTS.filter((i) => isNodePackage(i.specifier)).length).toBeGreaterThan(20)
  })

  it('no file of the node reaches into the simulator\'s folder', () => {
    expect(NODE_IMPORTS.filter((i) => i.target.startsWith(`${SIM}/`)).map((i) => `${i.file} -> ${i.target}`)).toEqual([])
  })

  it('the node\'s published code (src/, scripts/) names the simulator\'s package in no import: the loader imports it by a name it is given', () => {
    const published = NODE_IMPORTS.filter((i) => i.file.startsWith(`${NODE}/src/`) || i.file.startsWith(`${NODE}/scripts/`))
    expect(published.filter((i) => isSimPackage(i.specifier)).map((i) => `${i.file} -> ${i.specifier}`)).toEqual([])
    const loader = readFileSync(join(ROOT, LOADER), 'utf8')
    expect(loader).toMatch(/await import\(specifier\)/)
    expect(loader).toContain("SIMULATOR_PACKAGE = 'isnad-sim'")
  })

  it('only the benchmarks (not published) import the simulator, by its package name', () => {
    const users = NODE_IMPORTS.filter((i) => isSimPackage(i.specifier))
    expect(users.length).toBeGreaterThan(0)
    for (const i of users) expect(i.file, `${i.file} imports ${i.specifier}`).toMatch(/^packages\/node\/bench\//)
  })

  it('the node declares no dependency on the simulator, and none of the simulator\'s own (vega, vega-lite, yaml)', () => {
    const node = packageJson(NODE)
    const declared = [node.dependencies, node.devDependencies, node.peerDependencies, node.optionalDependencies].flatMap((deps) => Object.keys(deps ?? {}))
    expect(declared).not.toContain('isnad-sim')
    for (const name of ['vega', 'vega-lite', 'yaml']) expect(declared, name).not.toContain(name)
    expect(packageJson(SIM).dependencies).toHaveProperty('isnad')
  })

  it('the simulator imports the node only through the node\'s declared exports', () => {
    expect(SIM_IMPORTS.filter((i) => i.target.startsWith(`${NODE}/`) && !i.file.startsWith(`${SIM}/test/`)).map((i) => `${i.file} -> ${i.target}`)).toEqual([])
    const exported = Object.keys(packageJson(NODE).exports).map((key) => key === '.' ? 'isnad' : `isnad/${key.slice(2)}`)
    for (const i of SIM_IMPORTS.filter((i) => isNodePackage(i.specifier))) expect(exported, `${i.file} imports ${i.specifier}`).toContain(i.specifier)
  })

  it('the simulator\'s tests reach into the node\'s folder only for its test helpers, never its source', () => {
    const into = SIM_IMPORTS.filter((i) => i.target.startsWith(`${NODE}/`))
    for (const i of into) expect(i.target, `${i.file} imports ${i.target}`).toMatch(/^packages\/node\/test\//)
  })
})

describe('inside the simulator, imports of a part go through the part\'s index.ts', () => {
  const partOf = (file: string): string | undefined => {
    const [, , src, part, rest] = file.split('/')
    return src === 'src' && rest !== undefined && SIM_PARTS.includes(part ?? '') ? part : undefined
  }
  const source = SIM_IMPORTS.filter((i) => i.file.startsWith(`${SIM}/src/`) && i.specifier.startsWith('.'))

  it('finds the parts (the scan found the code)', () => {
    expect(source.filter((i) => partOf(i.target) !== undefined && partOf(i.file) !== partOf(i.target)).length).toBeGreaterThan(50)
  })

  it('has no import around a part\'s index.ts', () => {
    const around = source.filter((i) => partOf(i.target) !== undefined && partOf(i.target) !== partOf(i.file) && !i.target.endsWith('/index.ts'))
    expect(around.map((i) => `${i.file} -> ${i.target}`)).toEqual([])
  })
})
