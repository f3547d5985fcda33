import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createHttpOperations, type HttpOperations } from '../../../src/api-access/client.js'
import { readApiToken } from '../../../src/api-access/index.js'
import { IsnadError } from '../../../src/errors/index.js'
import { startDaemon, type Daemon, type DaemonOptions } from '../../../src/daemon/index.js'
import { initHome } from '../../../src/node/index.js'
import { nodePaths } from '../../../src/home/index.js'
import { shardOf } from '../../../src/shard/index.js'
import { eventually } from '../../fixtures/eventually.js'

/* What the shard tests on real daemons share: homes in a chosen shard, daemons on 127.0.0.1 with their HTTP client, polls. */

export const LOOPBACK = ['/ip4/127.0.0.1/tcp/0']

export interface Home { home: string, agent: string }
export interface Started { daemon: Daemon, ops: HttpOperations }

/** A fresh home (its directory added to `homes` for removal). */
export async function freshHome (homes: string[]): Promise<Home> {
  const dir = await mkdtemp(join(tmpdir(), 'isnad-shards-'))
  homes.push(dir)
  const { defaultKey } = await initHome(dir)
  return { home: dir, agent: defaultKey.did }
}

/** A fresh home whose default agent is in `shard` under `count` (keys are random: a few tries). */
export async function homeIn (homes: string[], shard: number, count: number): Promise<Home> {
  for (;;) {
    const h = await freshHome(homes)
    if (shardOf(h.agent, count) === shard) return h
  }
}

/** A daemon on `h` (added to `daemons` for stopping) and its HTTP client. */
export async function startOn (daemons: Daemon[], h: Home, options: Partial<DaemonOptions>): Promise<Started> {
  const daemon = await startDaemon({ home: h.home, listen: LOOPBACK, heartbeatMs: 60_000, apiPort: 0, ...options })
  daemons.push(daemon)
  return { daemon, ops: createHttpOperations({ url: daemon.url, token: await readApiToken(nodePaths(h.home).data) }) }
}

/** Polls `probe` until it gives something (gossip is asynchronous). */
export async function until<T> (probe: () => Promise<T | undefined> | T | undefined, what: string, ms?: number): Promise<T> {
  return await eventually(what, async () => await probe(), (value) => value !== undefined, ms) as T
}

export async function sleep (ms: number): Promise<void> { await new Promise((resolve) => setTimeout(resolve, ms)) }

/** The kinds of the records a node holds of one memory (none when it does not hold the memory). */
export async function heldOf (ops: HttpOperations, memory: string): Promise<string[]> {
  const bundle = await ops.call('exportBundle', { ids: [memory] }).catch((err: unknown) => {
    if (err instanceof IsnadError && err.code === 'NOT_FOUND') return { records: [] }
    throw err
  })
  return bundle.records.map((r) => r.record.kind)
}

/** Whether `publisher` sees `subscriber` on `topic` (gossipsub's subscriptions have reached it). */
export function subscribed (publisher: Started, subscriber: Started, topic: string): true | undefined {
  const peers = publisher.daemon.network.libp2p.services.pubsub.getSubscribers(topic).map(String)
  return peers.includes(subscriber.daemon.peerId) ? true : undefined
}
