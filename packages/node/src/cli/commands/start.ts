import { resolve } from 'node:path'
import type { Command } from 'commander'
import type { NodeAnchorOptions } from '../../node/index.js'
import type { CommandContext } from '../command-context.js'
import { collect, parsePositiveInt, parseShardCount } from '../option-parsers.js'

interface StartOptions {
  listen?: string[]
  announce?: string[]
  bootstrap?: string[]
  mdns?: boolean
  apiPort?: number
  heartbeat?: number
  autoConfirmFrom?: string[]
  privateChecks?: boolean
  gitRepo?: string[]
  anchorUrlAllow?: string[]
  logLevel?: string
  anchorDir?: string[]
  apiHostName?: string[]
  shardCount?: number
  maxShards?: number
}

/**
 * `isnad start`: the node on the network until SIGINT or SIGTERM (docs/architecture.md). While it runs, the
 * other commands on this home go through its HTTP API.
 */
export function registerStart (program: Command, context: (cmd: Command) => CommandContext): void {
  program.command('start')
    .description('run the node: gossip, witness requests, fetch and sync over libp2p, and the local HTTP API')
    .addHelpText('after', '\nA setting without its flag comes from $ISNAD_<FLAG> (ISNAD_LISTEN, ISNAD_API_PORT, …), else from\n.memory/config.json (`isnad config set <flag> <value>`), else its default (docs/configuration.md).')
    .option('--listen <multiaddr>', 'listen address (repeatable; default TCP 4501 and WebSockets 4502 on all interfaces)', collect)
    .option('--announce <multiaddr>', 'address to announce to peers (repeatable)', collect)
    .option('--bootstrap <multiaddr>', 'a peer to dial at start, with /p2p/<peer id> (repeatable)', collect)
    .option('--mdns', 'discover peers on the local network')
    .option('--api-port <port>', 'HTTP API port on 127.0.0.1, kept in .memory/api.port for the next starts (default: the kept port; on a first start 4503 when free, else any free port)', parsePositiveInt)
    .option('--api-host-name <name>', 'a name the API answers to besides 127.0.0.1, localhost and [::1] (repeatable; any other Host header is refused)', collect)
    .option('--heartbeat <seconds>', 'seconds between heartbeats and checkpoints', parsePositiveInt)
    .option('--auto-confirm-from <did>', 'auto-answer policy: confirm witness requests from this requester, and its memories a local agent is drawn to witness (repeatable; off by default)', collect)
    .option('--no-private-checks', 'never ask a witness of this node\'s choosing about a memory no drawn witness answered (protocols/witness-draw-v1.md; on by default)')
    .option('--git-repo <path>', 'a local git repository searched for git_commit anchors (repeatable)', collect)
    .option('--log-level <level>', 'what the log on stderr (JSON lines) shows: error, warn, info or debug (default: $ISNAD_LOG_LEVEL, else info)')
    .option('--anchor-url-allow <host|cidr>', 'a host name, address or CIDR range that url anchors from peers may reach although not public (repeatable; anchors-v1 §9)', collect)
    .option('--shard-count <count>', 'a fixed shard count, a power of two 1-4096, for tests and operators (default: from the network\'s size; protocols/gossip-v1.md "Shards")', parseShardCount)
    .option('--max-shards <n>', 'the most shards this node subscribes to: its agents\' and its followed authors\' (default 8)', parsePositiveInt)
    .option('--anchor-dir <dir>', 'a directory file anchors asked through the API may be read from (repeatable; default none; never keys/ or .memory/; anchors-v1 §2.1)', collect)
    .action(async (flags: StartOptions, cmd: Command) => {
      const ctx = context(cmd)
      // Each setting from its flag, else its environment variable, else .memory/config.json (docs/configuration.md).
      const { options: opts } = await (await import('../config/index.js')).withStartConfig(ctx.home, flags, (option) => cmd.getOptionValueSource(option) === 'cli')
      // The daemon (libp2p, the HTTP server, the anchor checkers) loads only here: every other
      // command's start-up would otherwise pay for it.
      const [{ parseUrlAllowance }, { startDaemon }, { createLogger, parseLogLevel, DEFAULT_LOG_LEVEL, LOG_LEVEL_ENV }] = await Promise.all([
        import('../../anchor/index.js'), import('../../daemon/index.js'), import('../../log/index.js')
      ])
      if (opts.anchorUrlAllow !== undefined) parseUrlAllowance(opts.anchorUrlAllow) // USAGE before anything starts
      const fromEnv = process.env[LOG_LEVEL_ENV]
      const level = opts.logLevel ?? (fromEnv === undefined || fromEnv === '' ? DEFAULT_LOG_LEVEL : fromEnv)
      const logger = createLogger({ level: parseLogLevel(level) })
      if (opts.apiHostName !== undefined) (await import('../../http/host-guard.js')).parseApiHostNames(opts.apiHostName)
      const anchors: NodeAnchorOptions = {
        ...(opts.gitRepo === undefined ? {} : { gitRepositories: opts.gitRepo.map((repo) => resolve(repo)) }),
        ...(opts.anchorUrlAllow === undefined ? {} : { urlAllow: opts.anchorUrlAllow }),
        ...(opts.anchorDir === undefined ? {} : { fileDirs: opts.anchorDir.map((dir) => resolve(dir)) })
      }
      const daemon = await startDaemon({
        home: ctx.home,
        ...(opts.listen === undefined ? {} : { listen: opts.listen }),
        ...(opts.announce === undefined ? {} : { announce: opts.announce }),
        ...(opts.bootstrap === undefined ? {} : { bootstrap: opts.bootstrap }),
        mdns: opts.mdns === true,
        ...(opts.apiPort === undefined ? {} : { apiPort: opts.apiPort }),
        ...(opts.apiHostName === undefined ? {} : { apiHostNames: opts.apiHostName }),
        ...(opts.heartbeat === undefined ? {} : { heartbeatMs: opts.heartbeat * 1000 }),
        ...(opts.autoConfirmFrom === undefined ? {} : { autoConfirmFrom: opts.autoConfirmFrom }),
        ...(opts.privateChecks === false ? { privateChecks: false as const } : {}),
        ...(Object.keys(anchors).length === 0 ? {} : { anchors }),
        ...(opts.shardCount === undefined ? {} : { shardCount: opts.shardCount }),
        ...(opts.maxShards === undefined ? {} : { maxShards: opts.maxShards }),
        logger
      })
      const dashboard = `${daemon.url}/dashboard/`
      ctx.out.stdout(ctx.out.json
        ? JSON.stringify({ peer_id: daemon.peerId, addrs: daemon.multiaddrs(), api: daemon.url, dashboard })
        : [`peer      ${daemon.peerId}`, `api       ${daemon.url}`, `dashboard ${dashboard} (\`isnad dashboard\` prints it with its token)`, ...daemon.multiaddrs().map((a) => `addr      ${a}`)].join('\n'))
      await new Promise<void>((resolve) => {
        const stop = (signal: string): void => {
          logger.info('stopping', { signal })
          daemon.stop().then(resolve, (err: unknown) => { logger.error('stop failed', { error: err }); resolve() })
        }
        process.once('SIGINT', stop)
        process.once('SIGTERM', stop)
      })
    })
}
