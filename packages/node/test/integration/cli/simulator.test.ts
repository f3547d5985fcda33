import { spawn } from 'node:child_process'
import { copyFile, mkdir, mkdtemp, readdir, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { isIsnadError } from '../../../src/errors/index.js'
import { loadSimulatorCommands } from '../../../src/cli/commands/simulator.js'
import { ensureBuilt, REPO, WORKSPACE } from '../../fixtures/build-dist.js'

/*
 * `isnad sim` is the simulator's (the isnad-sim package): the node's CLI loads it by package name
 * when it is installed (a clone installs it as a workspace) and otherwise says how to install it.
 * "Not installed" for real: the built node laid out as an installed package in a temporary folder,
 * its node_modules holding every dependency of the workspace but isnad-sim, run with symlinks kept
 * (--preserve-symlinks) so that nothing resolves from the clone.
 */

let scratch = ''
beforeAll(async () => {
  ensureBuilt()
  scratch = await mkdtemp(join(tmpdir(), 'isnad-without-sim-'))
}, 300_000)
afterAll(async () => { if (scratch !== '') await rm(scratch, { recursive: true, force: true }) })

/** The node's package alone in `scratch`/isnad: its bin/ and dist/ linked, its dependencies linked one by one. */
async function nodeWithoutSimulator (): Promise<string> {
  const pkg = join(scratch, 'isnad')
  await mkdir(join(pkg, 'node_modules'), { recursive: true })
  await copyFile(join(REPO, 'package.json'), join(pkg, 'package.json'))
  await symlink(join(REPO, 'bin'), join(pkg, 'bin'))
  await symlink(join(REPO, 'dist'), join(pkg, 'dist'))
  const installed = await readdir(join(WORKSPACE, 'node_modules'))
  for (const name of installed.filter((n) => !['isnad', 'isnad-sim', '.bin', '.cache', '.package-lock.json'].includes(n))) {
    await symlink(join(WORKSPACE, 'node_modules', name), join(pkg, 'node_modules', name))
  }
  return pkg
}

async function run (bin: string, args: string[]): Promise<{ code: number, stdout: string, stderr: string }> {
  const child = spawn(process.execPath, ['--preserve-symlinks', '--preserve-symlinks-main', bin, ...args], { cwd: scratch })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (d: Buffer) => { stdout += d.toString() })
  child.stderr.on('data', (d: Buffer) => { stderr += d.toString() })
  const code = await new Promise<number>((resolve) => child.on('close', (c) => { resolve(c ?? -1) }))
  return { code, stdout, stderr }
}

describe('isnad sim without the simulator\'s package', () => {
  it('runs every other command, and refuses `sim` with SIM_NOT_INSTALLED and how to install it', async () => {
    const bin = join(await nodeWithoutSimulator(), 'bin/isnad.js')
    const version = await run(bin, ['--version'])
    expect(version.code, version.stderr).toBe(0)
    const help = await run(bin, ['--help'])
    expect(help.stdout.replace(/\s+/g, ' ')).toContain('sim [arguments...] simulate a network of isnad nodes (needs the isnad-sim package')
    const sim = await run(bin, ['sim', 'run', 'small', '--engine', 'model', '--json'])
    expect(sim.code).toBe(1)
    const error = (JSON.parse(sim.stderr.trim().split('\n').find((l) => l.startsWith('{')) ?? '{}') as { error?: { code: string, message: string } }).error
    expect(error?.code).toBe('SIM_NOT_INSTALLED')
    expect(error?.message).toContain('npm install isnad-sim')
    const text = await run(bin, ['sim', 'scenarios'])
    expect(text.stderr).toMatch(/error SIM_NOT_INSTALLED: .*npm install isnad-sim/)
  }, 60_000)
})

describe('the loader of the simulator\'s commands', () => {
  it('loads registerSim from the installed package (the workspace installs isnad-sim)', async () => {
    expect(typeof await loadSimulatorCommands()).toBe('function')
  }, 60_000)

  it('gives null for a package that is not installed', async () => {
    expect(await loadSimulatorCommands('isnad-sim-not-installed/cli')).toBeNull()
  })

  it('refuses a package without the entry (another version) with SIM_NOT_INSTALLED', async () => {
    const error: unknown = await loadSimulatorCommands('commander').catch((err: unknown) => err)
    expect(isIsnadError(error) && error.code).toBe('SIM_NOT_INSTALLED')
  })

  it('passes on a failure inside the simulator (a dependency of its own missing) rather than calling it not installed', async () => {
    const entry = join(scratch, 'broken-entry.mjs')
    await writeFile(entry, "export { registerSim } from 'no-such-dependency-of-the-simulator'\n")
    const error: unknown = await loadSimulatorCommands(pathToFileURL(entry).href).catch((err: unknown) => err)
    expect((error as { code?: string }).code).toBe('ERR_MODULE_NOT_FOUND')
    expect(String((error as Error).message)).toContain('no-such-dependency-of-the-simulator')
  })
})
