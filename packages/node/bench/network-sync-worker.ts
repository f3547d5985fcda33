import { readlinkSync } from 'node:fs'
import { parentPort } from 'node:worker_threads'
import { SYNC_PAGE_SIZE } from '../src/net/index.js'
import { countRecords, startSyncNode, type SyncNode } from './network-sync-node.js'

/*
 * Node A of the sync benchmark (network-sync.ts) on a thread of its own: the same LocalNode, NetHost
 * and network as B, with its own event loop and heap, as a peer on another machine (or another
 * daemon on this one) would have. Before, A served from B's thread, and its serving, its share of
 * the connection set-up and its garbage were paid inside B's catch-up. Its CPU is still the
 * process's, so the figure's CPU per record still counts both nodes.
 */

export type SyncWorkerRequest =
  | { op: 'start', records: Uint8Array[] }
  | { op: 'stop' }

export interface StartedPeer {
  addr: string
  peerId: string
  records: number
  memories: number
  populateMs: number
  /** A's thread id on Linux (the last part of /proc/thread-self), for per-thread CPU (sync-threads.ts); absent elsewhere. */
  tid?: string
}

function threadId (): string | undefined {
  try {
    return readlinkSync('/proc/thread-self').split('/').pop()
  } catch {
    return undefined
  }
}

let a: SyncNode | undefined

async function handle (request: SyncWorkerRequest): Promise<unknown> {
  switch (request.op) {
    case 'start': {
      a = await startSyncNode('sync-a')
      const start = performance.now()
      for (let at = 0; at < request.records.length; at += 3 * SYNC_PAGE_SIZE) await a.node.ingest(request.records.slice(at, at + 3 * SYNC_PAGE_SIZE), 'import')
      const populateMs = performance.now() - start
      const counts = await countRecords(a.node)
      const started: StartedPeer = {
        addr: a.network.multiaddrs()[0]?.toString() ?? '',
        peerId: a.network.peerId.toString(),
        records: counts.total,
        memories: counts.memories,
        populateMs
      }
      const tid = threadId()
      if (tid !== undefined) started.tid = tid
      return started
    }
    case 'stop':
      await a?.dispose()
      a = undefined
      return null
  }
}

parentPort?.on('message', (message: { id: number, request: SyncWorkerRequest }) => {
  handle(message.request).then(
    (result) => { parentPort?.postMessage({ id: message.id, result }) },
    (err: unknown) => { parentPort?.postMessage({ id: message.id, error: err instanceof Error ? err.stack ?? err.message : String(err) }) }
  )
})
