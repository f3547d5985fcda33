/** The API's path prefix; a breaking change gets `/v2`. */
export const API_PREFIX = '/v1'

/** @default 1024 — events queued for one slow SSE client before it is dropped (it may resume). */
export const MAX_PENDING_EVENTS = 1024
/** @default 15000 — a comment line this often keeps idle SSE connections (and proxies) open. */
export const SSE_HEARTBEAT_MS = 15_000
