import { execFileSync } from 'node:child_process'
import { cp, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { REPO, ensureBuilt } from '../../fixtures/build-dist.js'

/*
 * The docker runner for real, under podman (opt-in: ISNAD_SIM_PODMAN=1; needs podman and
 * podman-compose, e.g. from ../shared/tools/container-env.sh). Builds the image from
 * docker/Dockerfile, generates the compose project of the built-in scenario `small` (12 nodes, a
 * bootstrap node, the driver), runs it to completion and checks the driver's results in the named
 * volume `results`. With
 * ISNAD_SIM_PODMAN_SAVE=1 the results are copied to docs/simulation/podman-small/.
 */

const enabled = process.env.ISNAD_SIM_PODMAN === '1'
const run = (cmd: string, args: string[], cwd = REPO): string => execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 2 ** 20 })

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
        run('podman', ['run', '--rm', '-v', `${project}_results:/results:ro`, '-v', `${join(REPO, 'docs/simulation/podman-small')}:/out`, '--entrypoint', 'cp', 'isnad', '-r', '/results/.', '/out/'])
        await cp(join(dir, 'compose.yaml'), join(REPO, 'docs/simulation/podman-small/compose.yaml'))
      }
    } finally {
      try { run('podman-compose', ['down', '-v'], dir) } catch {}
      await rm(join(dir, '..'), { recursive: true, force: true })
    }
  }, 900_000)
})
