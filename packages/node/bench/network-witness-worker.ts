import { parentPort } from 'node:worker_threads'
import { startDaemon, type Daemon } from '../src/daemon/index.js'
import { TOPICS } from '../src/net/index.js'
import type { NodeMesh } from './node-threads.js'

/*
 * One worker thread of the threaded witness benchmark (network-witness.ts): it runs a share of the
 * daemons — the same startDaemon as the one-thread run (LocalNode on LevelDB with its ledger, the
 * network, the HTTP API) in homes the coordinating thread initialised — and answers its requests.
 * The coordinating thread talks to the daemons over their HTTP APIs, as an agent would.
 */

export type WitnessWorkerRequest =
  | { op: 'start', homes: string[], requester: string, heartbeatMs: number }
  | { op: 'dial', from: number, to: string }
  | { op: 'meshes' }
  | { op: 'stop' }

export interface StartedDaemon {
  url: string
  addr: string
}

const TOPICS_MEASURED = [TOPICS.memories, TOPICS.witnessRequests, TOPICS.attestations]
const daemons: Daemon[] = []

function daemon (index: number): Daemon {
  const found = daemons[index]
  if (found === undefined) throw new Error(`no daemon ${index} in this worker`)
  return found
}

async function handle (request: WitnessWorkerRequest): Promise<unknown> {
  switch (request.op) {
    case 'start':
      for (const home of request.homes) {
        daemons.push(await startDaemon({ home, listen: ['/ip4/127.0.0.1/tcp/0'], heartbeatMs: request.heartbeatMs, autoConfirmFrom: [request.requester] }))
      }
      return daemons.map((d): StartedDaemon => ({ url: d.url, addr: d.multiaddrs()[0] ?? d.peerId }))
    case 'dial':
      await daemon(request.from).network.dial(request.to)
      return null
    case 'meshes':
      return daemons.map((d): NodeMesh => ({
        peerId: d.network.peerId.toString(),
        peers: d.network.libp2p.getPeers().length,
        meshes: TOPICS_MEASURED.map((topic) => d.network.meshPeers(topic))
      }))
    case 'stop':
      await Promise.allSettled(daemons.map(async (d) => { await d.stop() }))
      return null
  }
}

parentPort?.on('message', (message: { id: number, request: WitnessWorkerRequest }) => {
  handle(message.request).then(
    (result) => { parentPort?.postMessage({ id: message.id, result }) },
    (err: unknown) => { parentPort?.postMessage({ id: message.id, error: err instanceof Error ? err.stack ?? err.message : String(err) }) }
  )
})
