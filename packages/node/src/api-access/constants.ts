/** The only address the API listens on: it is a local control surface, never a network service (http-api §2). */
export const API_HOST = '127.0.0.1'

/** The token file inside the data directory (`.memory/api.token`). */
export const API_TOKEN_FILE = 'api.token'
/** @default 0o600 — the token is a password: owner read/write only. */
export const API_TOKEN_MODE = 0o600
/** @default 32 — random bytes in a token (256 bits), written as 43 characters of base64url. */
export const API_TOKEN_BYTES = 32
/** A token file holds exactly this (plus an optional final newline). */
export const API_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/

/** The file in `.memory/` that keeps the API port across restarts. */
export const API_PORT_FILE = 'api.port'
