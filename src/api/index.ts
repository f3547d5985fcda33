export { createApiServer, listen, MIN_TOKEN_LENGTH, type ApiServer, type ApiServerInit } from './server.js'
export { createApiApp, requireBearer, API_VERSION, type ApiAppInit } from './app.js'
export { loadOrCreateApiToken, readApiToken, apiTokenPath, tokensEqual } from './token.js'
export {
  createApiEventHub, EventLog, type ApiEvent, type ApiEventHub, type ApiEventListener, type ApiEventSource, type SequencedEvent
} from './events.js'
export { API_ERROR_CODES, ApiError, HTTP_STATUS_BY_CODE, errorResponseOf, type ApiErrorBody, type ApiErrorCode } from './errors.js'
export type { CreateKeyInput, NodeOperations, Signer, WitnessRequestInput } from './operations.js'
export { createLocalOperations, LocalOperations, type LocalOperationsInit } from './local-operations.js'
export * from './constants.js'
export * from './schemas/network.js'
export { isPeerControl, type NetworkStats, type PeerControl, type PeerSync } from './peer-control.js'
export type { KeyInfoJson, NodeStatus, ObserveOutcome, QueryPageJson, ReindexResult } from './schemas/responses.js'
