/*
 * The node's operations, apart from any transport: the table (table/), the shapes they take and
 * return, and the limits on their inputs. The local implementation over a data directory is
 * local/ (it loads LevelDB, so it has its own index); the HTTP transport is src/http.
 */
export * from './table/index.js'
export * from './constants.js'
export * from './network-shapes.js'
export {
  createApiEventHub, EventLog, type ApiEvent, type ApiEventHub, type ApiEventListener, type ApiEventSource, type SequencedEvent
} from './node-events.js'
export type { AnchorResult, AttestResult, CreateKeyInput, NodeOperations, ReindexInput, Signer, WitnessRequestInput } from './node-operations.js'
export { FOLLOW_ACTIONS, FollowGossipSchema, FollowsSchema, type FollowAction, type FollowGossip, type FollowInput, type Follows } from './follow-shapes.js'
export * from './peer-control.js'
export * from './response-shapes.js'
export { verifyAnyDocument } from './verify-document.js'
export { renderTrust, renderView } from './render-text.js'
