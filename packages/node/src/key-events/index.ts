/*
 * Key lifecycle (protocols/record-v1.md §13): key events as signed records of their own
 * (inception, rotation to a pre-committed key, device delegation, revocation), the pure checks of an
 * identity's key log and the historical key lookup (which key could sign at which time), and the
 * node's keyring that keeps the logs in a ledger file and answers verification.
 */
export * from './constants.js'
export * from './schema.js'
export { keyEventCidOf, keyEventIdOf, keyEventSigningInput, keyDigestOf, parseSignedKeyEvent, parseKeyLog, encodeKeyLog, decodeKeyLog } from './codec.js'
export { applyKeyEvents, type KeyChainOptions, type KeyEnd, type KeyInterval, type KeyLogState } from './key-chain.js'
export { keyStatusAt, keyStatusError, mergeKeyLog, type KeyStatus, type MergeResult } from './key-status.js'
export { signKeyEvent, buildInception, buildRotation, buildDelegation, buildRevocation, type KeySigner, type RotationInput, type RevocationInput } from './build.js'
export {
  Keyring, keyEventsPath, KEY_EVENTS_LEDGER, type RecordKeyCheck, type KeyringInit, type KeyLogListener, type KeyLogSource
} from './keyring.js'
export {
  rotateKey, revokeKey, delegateKey, type LifecycleContext, type KeyEventResult, type RotateKeyInput, type RevokeKeyInput, type DelegateKeyInput
} from './lifecycle.js'
export { generateKeyEventJsonSchemas, KEY_EVENT_JSON_SCHEMA_SOURCES } from './key-event-json-schema.js'
