import { execFile } from 'node:child_process'
import { mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt, REPO, WORKSPACE } from '../../fixtures/build-dist.js'

/*
 * The library as a user gets it: `npm pack`, unpacked into a project's node_modules as
 * `isnad`, imported by name through the package's `exports`, and the README's example run as it is.
 * The project sits under test-artifacts/ (git-ignored) so the package's own dependencies resolve
 * from the repository's node_modules, as npm would have installed them beside it.
 */

const run = promisify(execFile)

describe('the packed isnad package', () => {
  let project: string

  beforeAll(async () => {
    ensureBuilt()
    await mkdir(join(WORKSPACE, 'test-artifacts'), { recursive: true })
    project = await mkdtemp(join(WORKSPACE, 'test-artifacts', 'library-user-'))
    const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', project], { cwd: REPO })
    const [packed] = JSON.parse(stdout.slice(stdout.indexOf('['))) as Array<{ filename: string }>
    if (packed === undefined) throw new Error('npm pack made no tarball')
    await mkdir(join(project, 'node_modules'))
    await run('tar', ['xzf', join(project, packed.filename), '-C', join(project, 'node_modules')])
    await rename(join(project, 'node_modules', 'package'), join(project, 'node_modules', 'isnad'))
    await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'library-user', private: true, type: 'module' }))
  }, 120_000)

  afterAll(async () => {
    await rm(project, { recursive: true, force: true })
  })

  it('runs the README example', async () => {
    const readme = await readFile(join(WORKSPACE, 'README.md'), 'utf8')
    const example = /<!-- library-example -->\n```ts\n([\s\S]*?)```/.exec(readme)?.[1]
    expect(example).toBeDefined()
    // Node 22 runs TypeScript by stripping its types, as a user trying the example would.
    await writeFile(join(project, 'example.ts'), example ?? '')
    const { stdout } = await run(process.execPath, [join(project, 'example.ts')], { cwd: project })
    const lines = stdout.trim().split('\n')
    expect(lines[0]).toMatch(/^bafyrei[a-z2-7]+ Unverified 0\.29 \(0\.4 points\)$/) // the default policy: the node's own agent (reputation 1), nobody witnessed it yet
    expect(lines).toContain('1 memory tagged billing with trust >= 0.2')
    expect(lines.at(-1)).toMatch(/^signature valid, signed by did:key:z/)
  })

  it('type-checks every TypeScript block of the README under --strict against the published types', async () => {
    const readme = await readFile(join(WORKSPACE, 'README.md'), 'utf8')
    const blocks = [...readme.matchAll(/^```(?:ts|typescript)\n([\s\S]*?)^```/gm)].map((m) => m[1] ?? '')
    // The library example at least, so an unrecognised fence cannot make this pass on nothing.
    expect(blocks.length).toBeGreaterThanOrEqual(1)
    const files = await Promise.all(blocks.map(async (code, i) => {
      const file = `readme-block-${i + 1}.ts`
      // Each block is a module of its own (imports, top-level await), as a user's file would be.
      await writeFile(join(project, file), `${code}\nexport {}\n`)
      return file
    }))
    // The tsconfig.json the README gives a user's project, as it is, with the blocks as its files.
    const tsconfig = /<!-- library-tsconfig -->\n```json\n([\s\S]*?)```/.exec(readme)?.[1]
    expect(tsconfig).toBeDefined()
    await writeFile(join(project, 'tsconfig.readme.json'), JSON.stringify({ ...JSON.parse(tsconfig ?? '{}') as object, files }))
    const tsc = run(process.execPath, [join(WORKSPACE, 'node_modules/typescript/bin/tsc'), '-p', join(project, 'tsconfig.readme.json'), '--strict', '--noEmit'], { cwd: project })
    // tsc reports its errors on stdout: show them when it fails.
    await expect(tsc.catch((err: { stdout?: string }) => { throw new Error(err.stdout ?? String(err)) })).resolves.toBeDefined()
  }, 60_000)

  it('publishes types a TypeScript user compiles against', async () => {
    await writeFile(join(project, 'use.ts'), [
      "import { createNode, computeTrust, type IsnadNode, type MemoryView, type TrustResult } from 'isnad'",
      'export async function firstTrust (home: string): Promise<TrustResult | undefined> {',
      '  const node: IsnadNode = await createNode({ home, init: false })',
      '  const { items } = await node.query({ minTrust: 0.5 })',
      '  const view: MemoryView | undefined = items[0] === undefined ? undefined : await node.show({ id: items[0].id })',
      '  await node.close()',
      '  return view === undefined ? undefined : await node.explainTrust({ id: view.id })',
      '}',
      'export const trustFunction: typeof computeTrust = computeTrust',
      '// @ts-expect-error: remember needs a summary',
      'export const wrong = async (node: IsnadNode) => await node.remember({ type: "fact" })',
      ''
    ].join('\n'))
    await writeFile(join(project, 'tsconfig.json'), JSON.stringify({
      compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2023', strict: true, noEmit: true, skipLibCheck: true, types: [] },
      files: ['use.ts']
    }))
    await run(process.execPath, [join(WORKSPACE, 'node_modules/typescript/bin/tsc'), '-p', project], { cwd: project })
  }, 60_000)
})
