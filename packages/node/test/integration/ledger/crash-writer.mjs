// The child of crash.test.ts: appends events as fast as group commit allows and prints the id of
// every event whose append was acknowledged, until the parent kills it with SIGKILL. It runs the
// built ledger (dist/, which `npm test` compiles first; the test builds it when stale).
// Usage: node crash-writer.mjs <dataDir> <iteration> <producers>
import { openEventLedger } from '../../../dist/src/ledger/index.js'

const [dataDir, iterationArg, producersArg] = process.argv.slice(2)
const iteration = Number(iterationArg)
const producers = Number(producersArg ?? '8')
const ledger = await openEventLedger({ dataDir, scope: 'crash' })
// stdout to a pipe is synchronous on Linux: once write returns, the parent will see the line.
process.stdout.write(`ready ${ledger.instanceId}\n`)

let next = 0
function input (key, k) {
  return {
    type: k % 5 === 0 ? 'memory.published' : 'memory.captured',
    actor: 'node',
    owner: 'did:key:z6MkCrashTest',
    payload: { iteration, k, pad: 'x'.repeat((k * 37) % 400) },
    idempotency_key: key
  }
}

async function produce (p) {
  if (p === 0 && iteration > 0) {
    // Keys of the previous run again: stored once whether or not that run got to them.
    const again = [0, 1, 2, 3].map((k) => input(`it${iteration - 1}-k${k}`, k))
    for (const r of await ledger.append(again)) if (r.appended) process.stdout.write(`ack ${r.event_id}\n`)
  }
  for (;;) {
    const batch = []
    const size = 1 + (next % 5)
    for (let i = 0; i < size; i++) {
      const k = next++
      batch.push(input(`it${iteration}-k${k}`, k))
    }
    const results = await ledger.append(batch)
    process.stdout.write(results.filter((r) => r.appended).map((r) => `ack ${r.event_id}\n`).join(''))
  }
}

await Promise.all(Array.from({ length: producers }, (_, p) => produce(p)))
