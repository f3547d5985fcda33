import { parentPort, workerData } from 'node:worker_threads'
import { performance } from 'node:perf_hooks'
import { createWorkload } from '../../../dist/bench/network-sync.js'
import { digestOf, startPeer } from './peer.mjs'

/*
 * Peer A of the OrbitDB baseline, on a thread of its own as figure 8c's node A is (two peers, two
 * event loops). It writes figure 8c's workload into an OrbitDB events database, one entry per
 * record: the same 3,000 records (1,000 memories, each followed by its 2,000 attestations' share),
 * as the same canonical DAG-CBOR bytes, in the same order (createWorkload, with figure 8c's seed).
 * Then it serves them, by OrbitDB's own Sync and Helia's bitswap, until told to stop.
 */

/** @type {Awaited<ReturnType<typeof startPeer>> | undefined} */
let peer

async function start ({ memories, witnessesPerMemory, seed }) {
  const records = createWorkload({ memories, witnessesPerMemory, seed })
  peer = await startPeer('a')
  const db = await peer.orbitdb.open('isnad-peer-baseline', { type: 'events' })
  const begin = performance.now()
  for (const bytes of records) await db.add(bytes)
  const populateMs = performance.now() - begin
  let entryBytes = 0
  for (const { hash } of await db.all()) entryBytes += (await db.log.storage.get(hash)).length
  const heads = await db.log.heads()
  return {
    address: db.address,
    addresses: peer.addresses,
    heads: heads.map((entry) => entry.hash),
    entries: records.length,
    digest: digestOf(records),
    payloadBytes: records.reduce((sum, bytes) => sum + bytes.length, 0),
    entryBytes,
    populateMs
  }
}

parentPort.on('message', async ({ op }) => {
  try {
    if (op === 'start') parentPort.postMessage({ op, result: await start(workerData) })
    else if (op === 'stop') {
      await peer?.dispose()
      parentPort.postMessage({ op, result: null })
    }
  } catch (err) {
    parentPort.postMessage({ op, error: err instanceof Error ? err.stack ?? err.message : String(err) })
  }
})
