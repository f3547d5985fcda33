import { existsSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { fileURLToPath } from 'node:url'
import { Worker } from 'node:worker_threads'
import { IsnadError } from 'isnad/engine'
import type { RunResult } from '../driver/index.js'
import type { Scenario } from '../scenario/index.js'

/*
 * The model engine's sweep over the machine's cores: its runs are independent (each a function of
 * its scenario and seed), so worker threads play them side by side, each thread one run at a time
 * (run-worker.ts), and the sweep keeps their results in its own order (driver/run.ts runSweep). A
 * thread's RunResult crosses by structured clone, which keeps every number and key order: the
 * results are those of the runs played one after the other on one thread.
 */

/** A run handed to a thread. */
export interface RunRequest {
  id: number
  scenario: Scenario
  checks: boolean
}

/** What a thread says of a run: a progress line, its result, or why it failed. */
export type RunReply =
  | { kind: 'progress', id: number, text: string }
  | { kind: 'done', id: number, result: RunResult }
  | { kind: 'failed', id: number, message: string, code?: string, stack?: string }

/** Runs `isnad sim run --engine model` plays at once by default: one per core the process may use. */
export function defaultJobs (): number {
  return Math.max(1, availableParallelism())
}

interface Waiting {
  request: RunRequest
  progress: (text: string) => void
  settle: (outcome: { result: RunResult } | { error: Error }) => void
}

type IsnadErrorCode = ConstructorParameters<typeof IsnadError>[0]

/** Worker threads that play model runs, each one run at a time; runs wait in line for a free thread. */
export class ModelRunThreads {
  private readonly idle: Worker[] = []
  private readonly busy = new Map<Worker, Waiting>()
  private readonly line: Waiting[] = []
  private nextId = 1
  private closed = false

  constructor (threads: number) {
    for (let i = 0; i < threads; i++) this.idle.push(this.start())
  }

  /** Plays `scenario` on the next free thread; its progress lines go to `progress`. */
  async run (scenario: Scenario, checks: boolean, progress: (text: string) => void): Promise<RunResult> {
    if (this.closed) throw new IsnadError('USAGE', 'the model run threads are closed')
    return await new Promise<RunResult>((resolve, reject) => {
      this.line.push({
        request: { id: this.nextId++, scenario, checks },
        progress,
        settle: (outcome) => { if ('result' in outcome) resolve(outcome.result); else reject(outcome.error) }
      })
      this.dispatch()
    })
  }

  /** Stops every thread; runs still waiting or playing fail. */
  async close (): Promise<void> {
    this.closed = true
    const stopped = new Error('the model run threads were closed before the run finished')
    for (const waiting of this.line.splice(0)) waiting.settle({ error: stopped })
    const workers = [...this.idle.splice(0), ...this.busy.keys()]
    for (const waiting of this.busy.values()) waiting.settle({ error: stopped })
    this.busy.clear()
    await Promise.all(workers.map(async (worker) => await worker.terminate()))
  }

  private dispatch (): void {
    while (this.idle.length > 0 && this.line.length > 0) {
      const worker = this.idle.pop() as Worker
      const waiting = this.line.shift() as Waiting
      this.busy.set(worker, waiting)
      worker.postMessage(waiting.request)
    }
  }

  private start (): Worker {
    const worker = startRunWorker()
    worker.on('message', (reply: RunReply) => {
      const waiting = this.busy.get(worker)
      if (waiting === undefined || waiting.request.id !== reply.id) return
      if (reply.kind === 'progress') { waiting.progress(reply.text); return }
      this.busy.delete(worker)
      this.idle.push(worker)
      if (reply.kind === 'done') waiting.settle({ result: reply.result })
      else waiting.settle({ error: errorOf(reply) })
      this.dispatch()
    })
    // A thread that dies takes its run with it; the others go on.
    worker.on('error', (err) => {
      this.busy.get(worker)?.settle({ error: err })
      this.busy.delete(worker)
    })
    worker.on('exit', (code) => {
      const waiting = this.busy.get(worker)
      this.busy.delete(worker)
      waiting?.settle({ error: new Error(`a model run thread exited (${code}) during its run`) })
      const at = this.idle.indexOf(worker)
      if (at >= 0) this.idle.splice(at, 1)
      if (!this.closed && this.idle.length + this.busy.size === 0) {
        for (const left of this.line.splice(0)) left.settle({ error: new Error('every model run thread exited') })
      }
    })
    return worker
  }
}

function errorOf (reply: Extract<RunReply, { kind: 'failed' }>): Error {
  const error = reply.code === undefined ? new Error(reply.message) : new IsnadError(reply.code as IsnadErrorCode, reply.message)
  if (reply.stack !== undefined) error.stack = reply.stack
  return error
}

/**
 * Starts run-worker.js beside this file. Run from the TypeScript sources (vitest), only run-worker.ts
 * is there: the thread then loads the sources as vitest does (the node's ts-source-hooks.ts, and
 * `isnad/engine` from the node's sources: test/fixtures/engine-source-hooks.ts), never a stale build.
 */
function startRunWorker (): Worker {
  const built = new URL('./run-worker.js', import.meta.url)
  if (existsSync(fileURLToPath(built))) return new Worker(built)
  const source = new URL('./run-worker.ts', import.meta.url)
  const hooks = [new URL('../../../node/test/fixtures/ts-source-hooks.ts', import.meta.url), new URL('../../test/fixtures/engine-source-hooks.ts', import.meta.url)]
  if (!existsSync(fileURLToPath(source)) || !hooks.every((hook) => existsSync(fileURLToPath(hook)))) {
    throw new IsnadError('IO_ERROR', `worker module ${fileURLToPath(built)} is missing (is the package built?)`)
  }
  const boot = [
    "import { register } from 'node:module'",
    ...hooks.map((hook) => `register(${JSON.stringify(hook.href)})`),
    `await import(${JSON.stringify(source.href)})`
  ].join('\n')
  // Node's TypeScript transform warns that it is experimental, once per thread: not news in a test run.
  return new Worker(new URL(`data:text/javascript,${encodeURIComponent(boot)}`), { execArgv: [...process.execArgv, '--disable-warning=ExperimentalWarning'] })
}
