import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { Worker, type WorkerOptions } from 'node:worker_threads'
import { IsnadError } from '../errors/index.js'

/**
 * V8's profiling flags (`node --perf-basic-prof …`, as BENCHMARKS.md's perf profiles run): V8
 * applies them to every isolate of the process already, and a Worker refuses them in its execArgv
 * (ERR_WORKER_INVALID_EXEC_ARGV), which had left a profiled node with no verifier thread at all.
 */
const PROCESS_WIDE_V8_FLAG = /^--(perf-basic-prof|perf-prof|interpreted-frames-native-stack)/

/**
 * The process's Node flags, less `--input-type`: a thread inherits them, and Node refuses to start a
 * module file under that flag (it is for `-e` and stdin), so a script run with `node
 * --input-type=module -e …` would otherwise lose its threads.
 */
const THREAD_EXEC_ARGV = process.execArgv.filter((flag, i, all) => !flag.startsWith('--input-type') && all[i - 1] !== '--input-type' && !PROCESS_WIDE_V8_FLAG.test(flag))

/**
 * Starts the worker module `url` names: `new URL('./x.js', import.meta.url)` of its caller. Compiled
 * (dist/, the installed package), `x.js` is there and runs as it is. Run from the TypeScript
 * sources (vitest), only `x.ts` is: the thread then registers ts-source-hooks.ts first, so the
 * worker runs the same sources as its caller, never a stale build.
 */
export function startModuleWorker (url: URL, options: WorkerOptions = {}): Worker {
  const execArgv = options.execArgv ?? THREAD_EXEC_ARGV
  if (existsSync(fileURLToPath(url))) return new Worker(url, { ...options, execArgv })
  const source = new URL(url.href.replace(/\.js$/, '.ts'))
  if (!existsSync(fileURLToPath(source))) throw new IsnadError('IO_ERROR', `worker module ${fileURLToPath(url)} is missing (is the package built?)`)
  const hooks = new URL('../../test/fixtures/ts-source-hooks.ts', import.meta.url)
  const boot = [
    "import { register } from 'node:module'",
    `register(${JSON.stringify(hooks.href)})`,
    `await import(${JSON.stringify(source.href)})`
  ].join('\n')
  // Node's TypeScript transform warns that it is experimental, once per thread: not news in a test run.
  return new Worker(new URL(`data:text/javascript,${encodeURIComponent(boot)}`), { ...options, execArgv: [...execArgv, '--disable-warning=ExperimentalWarning'] })
}
