// Reaching a running daemon's HTTP API from another process: where it listens (daemon.json), the
// token that admits a caller, the shape of its errors, and the client that calls the operations.
// Light on purpose: the CLI and the library load it without the HTTP server (src/http).
export * from './constants.js'
export * from './api-errors.js'
export * from './token.js'
export * from './daemon-file.js'
export * from './client.js'
export * from './api-port-file.js'
