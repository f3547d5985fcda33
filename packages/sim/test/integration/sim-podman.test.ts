import { execFileSync, spawnSync } from 'node:child_process'
import { appendFile, cp, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { REPO, WORKSPACE, ensureBuilt } from '../../../node/test/fixtures/build-dist.js'

/*
 * The docker runner for real, under podman (opt-in: ISNAD_SIM_PODMAN=1; needs podman and
 * podman-compose). Builds the image from
 * docker/Dockerfile, generates the compose project of the built-in scenario `small` (12 nodes, a
 * bootstrap node, the driver), runs it to completion and checks the driver's results in the named
 * volume `results`. With
 * ISNAD_SIM_PODMAN_SAVE=1 the results are copied to docs/simulation/podman-small/.
 */

const enabled = process.env.ISNAD_SIM_PODMAN === '1'
const run = (cmd: string, args: string[], cwd = WORKSPACE): string => execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 2 ** 20 })

describe.skipIf(!enabled)('isnad sim compose, run under podman-compose', () => {
  it('builds the image, runs a 12-node scenario to completion and writes its results to the volume', async () => {
    ensureBuilt()
    run('podman', ['build', '-f', 'docker/Dockerfile', '-t', 'isnad', '.'])
    const dir = join(await mkdtemp(join(tmpdir(), 'isnad-podman-')), 'isnad-sim-small')
    run(process.execPath, [join(REPO, 'bin/isnad.js'), 'sim', 'compose', 'small', '--out', dir])
    try {
      run('podman-compose', ['up', '-d'], dir)
      // podman-compose 1.0 names containers <project directory>_<service>_1 (it does not read .env's project name).
      const project = basename(dir)
      const exit = run('podman', ['wait', `${project}_driver_1`]).trim()
      expect(exit).toBe('0')
      // The results are in the named volume, and printed in the driver's log.
      const results = JSON.parse(run('podman', ['run', '--rm', '-v', `${project}_results:/results:ro`, '--entrypoint', 'cat', 'isnad', '/results/results.json']))
      expect(run('podman', ['logs', `${project}_driver_1`])).toContain('----- results.json -----')
      expect(results.runner).toBe('docker')
      const [main] = results.runs
      expect(main.nodes).toBe(12)
      expect(main.metrics.memories.published).toBe(main.metrics.memories.planned)
      expect(main.metrics.delivery.memoryRatio).toBe(1)
      expect(main.metrics.trust.length).toBeGreaterThan(0)
      if (process.env.ISNAD_SIM_PODMAN_SAVE === '1') {
        run('podman', ['run', '--rm', '-v', `${project}_results:/results:ro`, '-v', `${join(WORKSPACE, 'docs/simulation/podman-small')}:/out`, '--entrypoint', 'cp', 'isnad', '-r', '/results/.', '/out/'])
        await cp(join(dir, 'compose.yaml'), join(WORKSPACE, 'docs/simulation/podman-small/compose.yaml'))
      }
    } finally {
      try { run('podman-compose', ['down', '-v'], dir) } catch {}
      await rm(join(dir, '..'), { recursive: true, force: true })
    }
  }, 900_000)
})

/*
 * The image itself, under the same opt-in: it runs as a user that is not root, which owns
 * the home in a named volume; it carries the dashboard's assets; and a type error fails its build
 * (on a copy of the build context). ISNAD_CONTAINER_ENGINE=docker runs these with docker instead.
 */

const engine = process.env.ISNAD_CONTAINER_ENGINE ?? 'podman'
const IMAGE = 'isnad-image-test'

/** The build context docker/Dockerfile reads (the rest of the clone is not needed to build it). */
const CONTEXT = ['package.json', 'package-lock.json', 'tsconfig.base.json', '.dockerignore', 'docker',
  'packages/node/package.json', 'packages/node/tsconfig.json', 'packages/node/src', 'packages/node/scripts', 'packages/node/bin', 'packages/node/protocols',
  'packages/sim/package.json', 'packages/sim/tsconfig.json', 'packages/sim/src', 'packages/sim/bin', 'packages/sim/scenarios']

describe.skipIf(!enabled)('the image (docker/Dockerfile)', () => {
  it('runs as a user that is not root, owns its home volume and carries the dashboard', () => {
    // A tag of its own: `isnad` may be another run's image (the compose projects' default).
    run(engine, ['build', '-f', 'docker/Dockerfile', '-t', IMAGE, '.'])
    const shell = (script: string, volume?: string): string => run(engine, ['run', '--rm', '--network', 'none',
      ...(volume === undefined ? [] : ['-v', `${volume}:/data`]), '--entrypoint', 'sh', IMAGE, '-c', script]).trim()
    const uid = shell('id -u')
    expect(uid).toMatch(/^\d+$/)
    expect(uid).not.toBe('0')
    expect(shell('ls /app/packages/node/dist/src/dashboard/assets').split('\n')).toEqual(expect.arrayContaining(['app.js', 'index.html', 'style.css']))
    const volume = `isnad-image-test-${process.pid}`
    try {
      const init = spawnSync(engine, ['run', '--rm', '--network', 'none', '-v', `${volume}:/data`, IMAGE, 'init'], { encoding: 'utf8' })
      expect(init.status, init.stderr).toBe(0)
      expect(shell('stat -c %u /data /data/.memory /data/keys', volume).split('\n')).toEqual([uid, uid, uid])
    } finally {
      spawnSync(engine, ['volume', 'rm', '-f', volume])
    }
  }, 900_000)

  it('fails its build on a type error', async () => {
    const copy = await mkdtemp(join(tmpdir(), 'isnad-image-'))
    try {
      for (const path of CONTEXT) await cp(join(WORKSPACE, path), join(copy, path), { recursive: true })
      await appendFile(join(copy, 'packages/node/src/errors/index.ts'), "\nexport const notANumber: number = 'a type error'\n")
      const build = spawnSync(engine, ['build', '-f', 'docker/Dockerfile', '-t', 'isnad-type-error', '.'], { cwd: copy, encoding: 'utf8', maxBuffer: 64 * 2 ** 20 })
      expect(build.status).not.toBe(0)
      expect(build.stdout + build.stderr).toContain("error TS2322: Type 'string' is not assignable to type 'number'")
    } finally {
      await rm(copy, { recursive: true, force: true })
      spawnSync(engine, ['rmi', '-f', 'isnad-type-error'])
    }
  }, 900_000)
})
