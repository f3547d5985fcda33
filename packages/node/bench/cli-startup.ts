import { execFileSync } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { performance } from 'node:perf_hooks'
import type { Figure } from './report.js'
import { median } from './stats.js'

/*
 * CLI start-up: the wall time of one `isnad` process (what every command, every test that spawns
 * the CLI and every agent calling it in a loop pays), against an empty `node -e ''` start measured
 * in the same rounds. `status` and `show` run on a small home with no daemon, so they open the
 * LevelDB index too.
 */

export interface CliStartupOptions {
  rounds: number
  progress: (message: string) => void
}

const SECTION = '13. CLI start-up (one process, no daemon)'
const EMPTY_NODE = "empty node -e ''"
/** From dist/bench/ (where the bench runs) or bench/, the repository root holding bin/isnad.js. */
const REPO = resolve(import.meta.dirname, import.meta.dirname.endsWith(join('dist', 'bench')) ? '../..' : '..')
const BIN = join(REPO, 'bin/isnad.js')

function wallMs (args: string[]): number {
  const start = performance.now()
  execFileSync(process.execPath, args, { stdio: ['ignore', 'ignore', 'inherit'] })
  return performance.now() - start
}

export async function benchCliStartup (options: CliStartupOptions): Promise<Figure[]> {
  options.progress('13. CLI start-up')
  const home = await mkdtemp(join(tmpdir(), 'isnad-bench-cli-'))
  try {
    const isnad = (...args: string[]): string[] => [BIN, '--home', home, ...args]
    execFileSync(process.execPath, isnad('init'), { stdio: 'ignore' })
    let memory = ''
    for (let i = 0; i < 5; i++) {
      const view = JSON.parse(execFileSync(process.execPath, isnad('remember', `bench memory ${i}`, '--tag', 'bench', '--json'), { encoding: 'utf8' })) as { id: string }
      memory = view.id
    }
    const subjects: Array<[string, string[]]> = [
      ['isnad --version', [BIN, '--version']],
      ['isnad --help', [BIN, '--help']],
      ['isnad status', isnad('status', '--json')],
      ['isnad show', isnad('show', memory, '--json')]
    ]
    const baseline: number[] = []
    const times = new Map<string, number[]>(subjects.map(([name]) => [name, []]))
    wallMs(['-e', '']) // warm-up: the file cache, not the measurement
    for (const [, args] of subjects) wallMs(args)
    for (let round = 0; round < options.rounds; round++) {
      baseline.push(wallMs(['-e', '']))
      for (const [name, args] of subjects) times.get(name)?.push(wallMs(args))
    }
    const base = median(baseline)
    return subjects.map(([name]): Figure => {
      const samples = times.get(name) ?? []
      const value = median(samples)
      return {
        section: SECTION,
        name,
        value: Math.round(value),
        unit: 'ms',
        baseline: { name: EMPTY_NODE, value: Math.round(base), unit: 'ms' },
        ratio: value / base,
        detail: { ratioOf: 'median ÷ median', ms: samples.map(Math.round), baselineMs: baseline.map(Math.round) }
      }
    })
  } finally {
    await rm(home, { recursive: true, force: true })
  }
}
