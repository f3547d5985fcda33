import { execFileSync } from 'node:child_process'
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { RESULTS_BEGIN, RESULTS_END } from '../../src/cli/sim-command.js'
import { REPO, WORKSPACE, ensureBuilt } from '../../../node/test/fixtures/build-dist.js'

/*
 * The docker runner as a Docker Swarm stack, for real (opt-in: ISNAD_SIM_SWARM=1; needs a docker
 * engine in swarm mode). Builds the image from
 * docker/Dockerfile (tag: ISNAD_SIM_IMAGE, default isnad), generates the compose project of the
 * built-in scenario `small` (12 nodes, a bootstrap node, the driver) and deploys that file unchanged
 * with `docker stack deploy`: the services find each other by DNS over the stack's overlay network,
 * the driver runs once, writes its results to the named volume and prints them to its service log.
 * With ISNAD_SIM_SWARM_SAVE=1 the results are copied to docs/simulation/swarm-small/.
 */

const image = process.env.ISNAD_SIM_IMAGE ?? 'isnad'
const run = (cmd: string, args: string[], cwd = WORKSPACE): string => execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 2 ** 20 })

function swarmActive (): boolean {
  try {
    return run('docker', ['info', '--format', '{{.Swarm.LocalNodeState}}']).trim() === 'active'
  } catch {
    return false
  }
}

const enabled = process.env.ISNAD_SIM_SWARM === '1' && swarmActive()

/** The driver task's state, e.g. "Running 3 seconds ago", "Complete 1 second ago", "Failed …". */
function driverState (stack: string): string {
  return run('docker', ['service', 'ps', `${stack}_driver`, '--format', '{{.CurrentState}}|{{.Error}}', '--no-trunc']).split('\n')[0] ?? ''
}

async function until<T> (what: string, timeoutMs: number, probe: () => T | undefined): Promise<T> {
  const end = Date.now() + timeoutMs
  for (;;) {
    const value = probe()
    if (value !== undefined) return value
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 2000))
  }
}

describe.skipIf(!enabled)('isnad sim compose, deployed as a Docker Swarm stack', () => {
  it('runs the 12-node scenario to completion, results in the named volume and in the driver\'s log', async () => {
    ensureBuilt()
    run('docker', ['build', '-f', 'docker/Dockerfile', '-t', image, '.'])
    const stack = `isnad-sim-small-${process.pid}`
    const dir = join(await mkdtemp(join(tmpdir(), 'isnad-swarm-')), 'isnad-sim-small')
    run(process.execPath, [join(REPO, 'bin/isnad.js'), 'sim', 'compose', 'small', '--out', dir, '--image', image])
    const started = Date.now()
    try {
      // The file as generated: a stack file must validate (no compose-only properties).
      const deployed = run('docker', ['stack', 'deploy', '-c', 'compose.yaml', stack], dir)
      expect(deployed).toMatch(/Creating service .*_driver/)
      const state = await until('the driver to finish', 900_000, () => {
        const s = driverState(stack)
        return /^(Complete|Failed|Rejected|Shutdown)/.test(s) ? s : undefined
      })
      const seconds = Math.round((Date.now() - started) / 1000)
      expect(state).toMatch(/^Complete/)
      // It ran once: one task, not restarted.
      expect(run('docker', ['service', 'ps', `${stack}_driver`, '-q']).trim().split('\n')).toHaveLength(1)

      const log = run('docker', ['service', 'logs', '--raw', `${stack}_driver`])
      const printed = log.slice(log.indexOf(RESULTS_BEGIN) + RESULTS_BEGIN.length, log.indexOf(RESULTS_END))
      const results = JSON.parse(printed)
      // The named volume holds the same file.
      const stored = run('docker', ['run', '--rm', '-v', `${stack}_results:/results:ro`, '--entrypoint', 'cat', image, '/results/results.json'])
      expect(JSON.parse(stored)).toEqual(results)

      expect(results.runner).toBe('docker')
      const [main] = results.runs
      expect(main.nodes).toBe(12)
      // Under load a memory may miss its slot (its author's API too slow): report, do not hide it.
      expect(main.metrics.memories.published).toBeGreaterThanOrEqual(main.metrics.memories.planned - 1)
      expect(main.metrics.delivery.memoryRatio).toBe(1)
      expect(main.metrics.delivery.attestationRatio).toBeGreaterThan(0.95)
      expect(main.metrics.trust.length).toBeGreaterThan(0)
      for (const t of main.metrics.trust) expect(t.auc, t.policy).not.toBeNull()
      console.log(`swarm small: ${seconds} s from deploy to results; ${JSON.stringify({ memories: main.metrics.memories, delivery: main.metrics.delivery.memoryRatio, attestations: main.metrics.delivery.attestationRatio, gossipP50: main.metrics.delivery.latencyMs.p50, timings: main.timings, trust: main.metrics.trust.map((t: { policy: string, auc: number }) => [t.policy, t.auc]) })}`)
      if (process.env.ISNAD_SIM_SWARM_SAVE === '1') {
        const out = join(WORKSPACE, 'docs/simulation/swarm-small')
        await rm(out, { recursive: true, force: true })
        run('docker', ['run', '--rm', '-v', `${stack}_results:/results:ro`, '-v', `${out}:/out`, '--entrypoint', 'cp', image, '-r', '/results/.', '/out/'])
        await cp(join(dir, 'compose.yaml'), join(out, 'compose.yaml'))
        await writeFile(join(out, 'driver.log'), log)
      }
      expect(await readFile(join(dir, 'compose.yaml'), 'utf8')).not.toMatch(/^name:/m)
    } finally {
      try { run('docker', ['stack', 'rm', stack]) } catch {}
      // The stack's containers go first; the volume can only be removed once they have.
      await until('the stack to go', 120_000, () => run('docker', ['ps', '-aq', '--filter', `label=com.docker.stack.namespace=${stack}`]).trim() === '' ? true : undefined).catch(() => {})
      try { run('docker', ['volume', 'rm', `${stack}_results`]) } catch {}
      await rm(join(dir, '..'), { recursive: true, force: true })
    }
  }, 1_500_000)
})
