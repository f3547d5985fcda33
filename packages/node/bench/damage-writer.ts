import { join } from 'node:path'
import { createKeystore } from '../src/keystore/index.js'
import { LocalNode } from '../src/node/index.js'
import { signRecord } from '../src/record/index.js'

/*
 * The library lane of the long damage run (damage-long.ts): a writing node that remembers and
 * attests as fast as it can and prints the id of every record whose write was acknowledged (its
 * promise resolved), until the parent kills it with SIGKILL. The same writer as
 * test/integration/node/crash-node.mjs, compiled with the bench.
 * Usage: node dist/bench/damage-writer.js <home> <round> <witness-did>
 */

const [home, round, witnessDid] = process.argv.slice(2) as [string, string, string]
const keystore = createKeystore({ directory: join(home, 'keys') })
const authorDid = await keystore.defaultDid()
if (authorDid === null) throw new Error(`no default key in ${home}`)
const author = await keystore.load(authorDid)
const witness = await keystore.load(witnessDid)
const node = await LocalNode.open({ home })
process.stdout.write('ready\n')

// `begin` before each write and `ack` after it let the parent aim its kill at a write in flight.
for (let k = 0; ; k++) {
  process.stdout.write('begin\n')
  const view = await node.remember({ type: k % 3 === 0 ? 'decision' : 'fact', summary: `r${round} m${k}`, tags: ['damage', `r${round}`] }, author)
  // stdout to a pipe is synchronous on Linux: once written, the parent has the line.
  process.stdout.write(`ack ${view.id}\n`)
  if (k % 3 === 1) {
    // A sync page of large records (~580 kB): one pack file beside the ledger (docs/ledger-packs.md),
    // written and synced before the event that names it, so a kill can fall between the two.
    const page = Array.from({ length: 48 }, (_, j) => signRecord({
      kind: 'memory',
      version: 1,
      content: { type: 'fact', summary: `r${round} page${k} r${j}`, body: `a page record ${'x'.repeat(12_000)}`, tags: ['damage', 'page'] },
      author: { agent_id: author.did },
      created_at: new Date().toISOString(),
      context: { confidence: 0.8 },
      lineage: { derived_from: [] }
    }, author.secretKey))
    process.stdout.write('begin page\n')
    await node.ingest(page.map((r) => r.signed), 'sync')
    for (const { id } of page) process.stdout.write(`ack ${id}\n`)
  }
  if (k % 2 === 0) {
    process.stdout.write('begin\n')
    const { attestation } = await node.attest({ memory: view.id, verdict: 'confirm' }, witness)
    process.stdout.write(`ack ${attestation}\n`)
  }
}
