/*
 * Names and limits of key events (protocols/record-v1.md §13). The document is normative; these
 * constants are its values.
 */

/** record-v1 K3: the domain tag of every key event signature (both signatures of one event). */
export const KEY_EVENT_DOMAIN_TAG = 'isnad/key-event/v1\0'

/** @default 4096 — one signed key event, DAG-CBOR encoded (record-v1 K2); a rotation is about 700 bytes. */
export const MAX_KEY_EVENT_BYTES = 4096
/** @default 64 — events in one identity's key log (record-v1 K2): rotations, delegations, revocations. */
export const MAX_KEY_LOG_EVENTS = 64
/** @default 266240 — a key log as gossiped or served: MAX_KEY_LOG_EVENTS events plus framing. */
export const MAX_KEY_LOG_BYTES = MAX_KEY_LOG_EVENTS * MAX_KEY_EVENT_BYTES + 4096
/** @default 4096 — identities a node keeps key logs for; past it, logs of new identities are ignored. */
export const MAX_KEY_LOGS = 4096
/** @default 256 — bytes of a revocation's free-text reason. */
export const MAX_REASON_BYTES = 256

/** `sha2-256:` + 64 lower-case hex digits: how an event commits to the next key (record-v1 K6). */
export const KEY_DIGEST_PREFIX = 'sha2-256:'
