import { MAX_BUNDLE_BYTES } from '../schema/index.js'

/* Limits on the operations' inputs: every surface (HTTP, MCP, the CLI, the library) parses against them. */

/**
 * @default 1 MiB — any request body but a bundle's. The largest ordinary body is a memory
 * (64 KiB of body text, at most doubled by JSON escapes, plus small fields) or an export's list of
 * ids (4096 × 59 characters); 1 MiB holds both with room and keeps a careless client cheap.
 */
export const MAX_REQUEST_BYTES = 1024 * 1024
/** @default MAX_BUNDLE_BYTES (8 MiB) — `POST /v1/import` and `POST /v1/verify`, whose bodies are bundle files. */
export const MAX_BUNDLE_REQUEST_BYTES = MAX_BUNDLE_BYTES
/** @default 1024 — a passphrase in a request body (UTF-8 bytes). */
export const MAX_PASSPHRASE_BYTES = 1024
/** @default 1024 — a query cursor (opaque, from a previous page). */
export const MAX_CURSOR_LENGTH = 1024

/** @default 256 — events the server keeps so a reconnecting client can resume with Last-Event-ID. */
export const EVENT_REPLAY_SIZE = 256
