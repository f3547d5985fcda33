// The daemon's HTTP server; what a caller needs to reach it (the client, the token, daemon.json, the
// error shape) is src/api-access's, which this server shares.
export { createApiServer, listen, MIN_TOKEN_LENGTH, type ApiServer, type ApiServerInit } from './http-server.js'
export { createApiApp, requireBearer, API_VERSION, type ApiAppInit } from './app.js'
export { HTTP_STATUS_BY_CODE, errorResponseOf } from './errors.js'
export * from './constants.js'
export { API_ANONYMOUS_REQUEST_BURST, API_ANONYMOUS_REQUESTS_PER_SECOND, API_REQUEST_BURST, API_REQUESTS_PER_SECOND, rateLimit, type RateLimitInit } from './rate-limit.js'
export { API_HOST_NAMES, createHostGuard, parseApiHostNames, type HostGuard, type HostGuardInit } from './host-guard.js'
export { MAX_JSON_DEPTH, jsonDepthOf, readBoundedBody } from './body.js'
