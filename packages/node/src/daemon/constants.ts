/** @default 30000 — how often a running node writes a memory.instance.heartbeat event. */
export const HEARTBEAT_INTERVAL_MS = 30_000

/**
 * @default 4503 — the HTTP API's port on 127.0.0.1 on a home's first start, when free (else any
 * free port); the port then bound is kept in `.memory/api.port` (api-port.ts). Beside libp2p's
 * 4501/4502, and below the ephemeral range (32768-60999 on Linux) that outgoing connections take.
 */
export const PREFERRED_API_PORT = 4503

/** @default 10000 — the first retry of an unreachable bootstrap peer; each failure doubles it. */
export const BOOTSTRAP_RETRY_MS = 10_000
/** @default 300000 — the longest wait between two dials of an unreachable bootstrap peer. */
export const BOOTSTRAP_RETRY_MAX_MS = 300_000

/** Listen addresses of `isnad start` unless given: TCP and WebSockets on every interface. */
export const DEFAULT_DAEMON_LISTEN = ['/ip4/0.0.0.0/tcp/4501', '/ip4/0.0.0.0/tcp/4502/ws']

/**
 * @default 0.5 — the reputation a witness needs at this node to be asked in a private check
 * (private-checks.ts): below it, its confirm could not make a memory Attested alone.
 */
export const PRIVATE_CHECK_MIN_REPUTATION = 0.5

/** The DHT's LevelDB in `.memory/` (protocols/content-routing-v1.md §4): provider records, this node's own included. */
export const DHT_DIRECTORY = 'dht'

/**
 * @default 8 — the most shards a node subscribes to (protocols/gossip-v1.md "Shards"): its agents'
 * shards first, then its followed authors'; a followed author beyond it is not gossiped to the node (sync brings it).
 * What a node receives by gossip is then at most this many shards' traffic whatever the network's size.
 */
export const DEFAULT_MAX_SHARDS = 8

/**
 * How the operator lets a daemon read files for its API clients (anchors-v1 §2.1), as a refusal
 * names it: the home's `anchor-dir` setting, which the daemon reads when it starts
 * (docs/configuration.md), or `isnad start`'s flag of the same name; never a flag of `isnad anchor`.
 */
export const DAEMON_ANCHOR_DIR_FIX = '`isnad config set anchor-dir <dir>` and a restart of the daemon (or `isnad start --anchor-dir <dir>`)'

/**
 * @default 3 — holders of a record that did not make it and announce it anyway, on average
 * (protocols/content-routing-v1.md C2, provider-sample.ts): with its maker, about four providers a record.
 */
export const SAMPLED_PROVIDERS = 3
