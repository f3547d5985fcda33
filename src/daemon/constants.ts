/** @default 30000 — how often a running node writes a memory.instance.heartbeat event. */
export const HEARTBEAT_INTERVAL_MS = 30_000

/** @default 0 — the HTTP API's port on 127.0.0.1 (0: any free port, advertised in daemon.json). */
export const DEFAULT_API_PORT = 0

/** Listen addresses of `isnad start` unless given: TCP and WebSockets on every interface. */
export const DEFAULT_DAEMON_LISTEN = ['/ip4/0.0.0.0/tcp/4501', '/ip4/0.0.0.0/tcp/4502/ws']

/** The libp2p peer key, beside the node's log key (DESIGN §1: separate from agent keys). */
export const PEER_KEY_FILE = 'peer.key'
