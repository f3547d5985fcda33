import { appendFileSync } from 'node:fs'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { startDaemon, type WitnessCounters } from '../src/daemon/index.js'
import { createLogger, type Logger } from '../src/log/index.js'

/*
 * One daemon of the witness-cost benchmark (witness-cost.ts) in a process of its own, as `isnad start`
 * runs: its own event loop, so a liveness ping measures the link and the machine, not seven other
 * daemons' work on a shared loop, and its CPU is its process's. Started by the benchmark with
 * child_process.fork and the daemon's options as JSON in argv[2]; answers the benchmark over the IPC
 * channel. The benchmark drives it as an agent would, through its HTTP API.
 */

/** What the benchmark sets; everything else is `isnad start`'s default. */
export interface CostDaemonOptions {
  home: string
  bootstrap: string[]
  autoConfirmFrom: string[]
  shardCount?: number
  /** The daemon's log at info, as `isnad start` writes it, appended to this file (`--log-dir`); none when absent. */
  logFile?: string
}

export interface CostDaemonStarted { url: string, addr: string }

/** A daemon's counters at one moment. */
export interface CostDaemonStats {
  /** process.cpuUsage() of the daemon's process, µs. */
  cpuMicros: number
  witness: WitnessCounters
  /** Gossip messages received: accepted + duplicates ignored. */
  gossipReceived: number
  peers: number
  /** The longest event-loop delay since the last stats, ms. */
  loopDelayMaxMs: number
  /** Connections closed since the start. */
  closes: number
}

export type CostDaemonRequest = { id: number, op: 'stats' } | { id: number, op: 'stop' }
export type CostDaemonMessage =
  | { type: 'started', started: CostDaemonStarted }
  | { type: 'failed', error: string }
  | { type: 'answer', id: number, stats?: CostDaemonStats }

const send = (message: CostDaemonMessage): void => { process.send?.(message) }

async function main (options: CostDaemonOptions): Promise<void> {
  const daemon = await startDaemon({
    home: options.home,
    listen: ['/ip4/127.0.0.1/tcp/0'],
    apiPort: 0,
    heartbeatMs: 600_000,
    bootstrap: options.bootstrap,
    autoConfirmFrom: options.autoConfirmFrom,
    ...(options.logFile === undefined ? {} : { logger: fileLogger(options.logFile) }),
    ...(options.shardCount === undefined ? {} : { shardCount: options.shardCount })
  })
  const loop = monitorEventLoopDelay({ resolution: 20 })
  loop.enable()
  let closes = 0
  daemon.network.libp2p.addEventListener('connection:close', () => { closes++ })
  let stopping: Promise<void> | undefined
  const stop = async (): Promise<void> => { stopping ??= daemon.stop().catch(() => {}); await stopping }
  // The benchmark gone (ended, interrupted), its daemons stop with it rather than run on unseen.
  process.once('disconnect', () => { void stop() })
  process.on('message', (request: CostDaemonRequest) => {
    if (request.op === 'stop') {
      void stop().finally(() => { send({ type: 'answer', id: request.id }); process.disconnect?.() })
      return
    }
    const cpu = process.cpuUsage()
    const gossip = daemon.network.stats.gossip
    send({
      type: 'answer',
      id: request.id,
      stats: {
        cpuMicros: cpu.user + cpu.system,
        witness: structuredClone(daemon.witness),
        gossipReceived: gossip.accepted + gossip.ignored,
        peers: daemon.network.libp2p.getPeers().length,
        loopDelayMaxMs: loop.max / 1e6,
        closes
      }
    })
    loop.reset()
  })
  send({ type: 'started', started: { url: daemon.url, addr: daemon.multiaddrs()[0] ?? '' } })
}

/** Lines appended synchronously: a daemon killed past its grace period still leaves its log whole. */
function fileLogger (file: string): Logger {
  return createLogger({ level: 'info', write: (line) => { appendFileSync(file, line) } })
}

main(JSON.parse(process.argv[2] ?? '{}') as CostDaemonOptions).catch((err: unknown) => {
  send({ type: 'failed', error: err instanceof Error ? err.stack ?? err.message : String(err) })
  process.exitCode = 1
  process.disconnect?.()
})
