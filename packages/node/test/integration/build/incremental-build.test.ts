import { execFile } from 'node:child_process'
import { copyFile, mkdir, mkdtemp, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { REPO, WORKSPACE } from '../../fixtures/build-dist.js'

/*
 * `npm run build` is incremental (`npm start` in seconds when nothing changed), and must
 * still rebuild what changed. The dashboard step (scripts/build-dashboard.mjs) runs here on a small
 * project of its own, laid out as the repository is, so it can be edited freely; the TypeScript step
 * is `tsc -b`, whose tsbuildinfo files must not be shared between the workspace's tsconfigs.
 */

const exec = promisify(execFile)

describe('the dashboard bundle step', () => {
  let project: string
  const app = (): string => join(project, 'dist/src/dashboard/assets/app.js')
  const bundle = async (): Promise<void> => { await exec(process.execPath, [join(project, 'scripts/build-dashboard.mjs')], { cwd: tmpdir() }) }
  const mtime = async (path: string): Promise<number> => (await stat(path)).mtimeMs

  beforeAll(async () => {
    project = await mkdtemp(join(tmpdir(), 'isnad-bundle-'))
    await mkdir(join(project, 'scripts'))
    await mkdir(join(project, 'src/dashboard/browser'), { recursive: true })
    await mkdir(join(project, 'src/dashboard/assets'), { recursive: true })
    await copyFile(join(REPO, 'scripts/build-dashboard.mjs'), join(project, 'scripts/build-dashboard.mjs'))
    await symlink(join(WORKSPACE, 'node_modules'), join(project, 'node_modules'))
    await writeFile(join(project, 'src/dashboard/browser/main.ts'), "import { greeting } from './greeting.js'\ndocument.title = greeting\n")
    await writeFile(join(project, 'src/dashboard/browser/greeting.ts'), "export const greeting: string = 'first version'\n")
    await writeFile(join(project, 'src/dashboard/assets/index.html'), '<!doctype html><title>t</title>\n')
    await writeFile(join(project, 'src/dashboard/assets/style.css'), 'body { color: black }\n')
    await writeFile(join(project, 'src/dashboard/assets/favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>\n')
  })

  afterAll(async () => {
    await rm(project, { recursive: true, force: true })
  })

  it('bundles, skips when no input changed, and bundles again when an imported file, the output or the page changed', async () => {
    await bundle()
    expect(await readFile(app(), 'utf8')).toContain('first version')
    const first = await mtime(app())

    await bundle()
    expect(await mtime(app())).toBe(first)

    // A file reached only through an import: the stamp lists every input esbuild read.
    await writeFile(join(project, 'src/dashboard/browser/greeting.ts'), "export const greeting: string = 'second version'\n")
    await bundle()
    expect(await readFile(app(), 'utf8')).toContain('second version')
    const second = await mtime(app())

    await rm(app())
    await bundle()
    expect(await readFile(app(), 'utf8')).toContain('second version')
    expect(await mtime(app())).toBeGreaterThanOrEqual(second)

    // The page and stylesheet are copied on every run (not bundle inputs).
    await writeFile(join(project, 'src/dashboard/assets/style.css'), 'body { color: navy }\n')
    await bundle()
    expect(await readFile(join(project, 'dist/src/dashboard/assets/style.css'), 'utf8')).toContain('navy')
  }, 60_000)
})

describe('the TypeScript step', () => {
  interface TsConfig { extends?: string, compilerOptions?: { incremental?: boolean, tsBuildInfoFile?: string, noEmit?: boolean } }
  // Each with the package whose dist/ keeps its tsbuildinfo.
  const configs = [
    ['packages/node/tsconfig.json', 'packages/node'], ['packages/node/bench/tsconfig.json', 'packages/node'],
    ['packages/node/test/tsconfig.json', 'packages/node'], ['packages/node/src/dashboard/browser/tsconfig.json', 'packages/node'],
    ['packages/sim/tsconfig.json', 'packages/sim'], ['packages/sim/test/tsconfig.json', 'packages/sim']
  ] as const
  let parsed: Array<{ path: string, pkg: string, config: TsConfig }>
  let base: TsConfig

  beforeAll(async () => {
    const read = async (path: string): Promise<TsConfig> => JSON.parse(await readFile(join(WORKSPACE, path), 'utf8')) as TsConfig
    parsed = await Promise.all(configs.map(async ([path, pkg]) => ({ path, pkg, config: await read(path) })))
    base = await read('tsconfig.base.json')
  })

  it('builds incrementally, each tsconfig with a tsbuildinfo of its own under its package\'s dist/', () => {
    expect(base.compilerOptions?.incremental).toBe(true)
    const files = parsed.map(({ path, pkg, config }) => {
      const file = config.compilerOptions?.tsBuildInfoFile
      expect(file, `${path} names its own tsBuildInfoFile (else it shares the one it extends)`).toBeDefined()
      const resolved = resolve(WORKSPACE, path, '..', file ?? '')
      expect(resolved.startsWith(join(WORKSPACE, pkg, 'dist') + '/'), resolved).toBe(true)
      return resolved
    })
    expect(new Set(files).size).toBe(configs.length)
  })
})
