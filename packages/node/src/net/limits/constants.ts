/* Connection limits of the node (docs/limits.md); the per-protocol stream limits are in fetch/ and sync/. */

/** @default 100 — connections libp2p keeps open at most. */
export const MAX_CONNECTIONS = 100
