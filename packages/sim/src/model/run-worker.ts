import { parentPort } from 'node:worker_threads'
import { isIsnadError } from 'isnad/engine'
import { runModelOnce } from './model-run.js'
import type { RunRequest, RunReply } from './run-threads.js'

/*
 * A worker thread of the model engine's sweep (run-threads.ts): it plays the runs it is handed one at
 * a time with runModelOnce, exactly as the main thread would (each run is a function of its scenario
 * and seed), and hands back each RunResult, its progress lines on the way.
 */

const port = parentPort
if (port === null) throw new Error('run-worker.ts is a worker thread\'s module')

port.on('message', (request: RunRequest) => {
  const reply = (message: RunReply): void => { port.postMessage(message) }
  try {
    const result = runModelOnce(request.scenario, (text) => { reply({ kind: 'progress', id: request.id, text }) }, { checks: request.checks })
    reply({ kind: 'done', id: request.id, result })
  } catch (err) {
    const error = err instanceof Error ? err : new Error(String(err))
    reply({ kind: 'failed', id: request.id, message: error.message, ...(isIsnadError(error) ? { code: error.code } : {}), ...(error.stack === undefined ? {} : { stack: error.stack }) })
  }
})
