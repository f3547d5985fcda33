// The child of node-crash.test.ts: a writing node that remembers and attests as fast as it can and
// prints the id of every record whose write was acknowledged, until the parent kills it (SIGKILL).
// Runs the built code (dist/, compiled by `npm test`, or by the test when stale).
// Usage: node crash-node.mjs <home> <iteration> <witness-did>
import { join } from 'node:path'
import { createKeystore } from '../../../dist/src/keystore/index.js'
import { LocalNode } from '../../../dist/src/node/index.js'
import { signRecord } from '../../../dist/src/record/index.js'

const [home, iteration, witnessDid] = process.argv.slice(2)
const keystore = createKeystore({ directory: join(home, 'keys') })
const author = await keystore.load(await keystore.defaultDid())
const witness = await keystore.load(witnessDid)
const node = await LocalNode.open({ home })
process.stdout.write('ready\n')

for (let k = 0; ; k++) {
  const view = await node.remember({ type: k % 3 === 0 ? 'decision' : 'fact', summary: `it${iteration} m${k}`, tags: ['crash', `it${iteration}`] }, author)
  // stdout to a pipe is synchronous on Linux: once written, the parent sees the line.
  process.stdout.write(`ack ${view.id}\n`)
  if (k % 3 === 1) {
    // A page of large records (580 kB, above PACK_INLINE_MAX_BYTES): one pack file
    // (docs/ledger-packs.md), written and synced before the event that names it, so a kill can fall
    // between the two.
    const page = Array.from({ length: 48 }, (_, j) => signRecord({
      kind: 'memory',
      version: 1,
      content: { type: 'fact', summary: `it${iteration} page${k} r${j}`, body: `a page record ${'x'.repeat(12_000)}`, tags: ['crash', 'page'] },
      author: { agent_id: author.did },
      created_at: new Date().toISOString(),
      context: { confidence: 0.8 },
      lineage: { derived_from: [] }
    }, author.secretKey))
    await node.ingest(page.map((r) => r.signed), 'sync')
    for (const { id } of page) process.stdout.write(`ack ${id}\n`)
  }
  if (k % 2 === 0) {
    const { attestation } = await node.attest({ memory: view.id, verdict: 'confirm' }, witness)
    process.stdout.write(`ack ${attestation}\n`)
  }
}
