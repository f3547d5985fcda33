/**
 * One error class for the whole node. Callers branch on `code`, never on the message; the CLI maps
 * codes to exit statuses and (later) the HTTP layer maps them to statuses in one table. Messages name
 * the object at fault and never contain key material.
 */
export const ERROR_CODES = [
  // input and encoding
  'JSON_INVALID',
  'SCHEMA_INVALID',
  'DECODE_FAILED',
  'RECORD_TOO_LARGE',
  'FIELD_TOO_LARGE',
  'CID_MISMATCH',
  'CID_INVALID',
  // signatures and keys
  'SIGNATURE_INVALID',
  'SIGNATURE_MALFORMED',
  'KEY_INVALID',
  'DID_INVALID',
  'UNKNOWN_KEY',
  'PASSPHRASE_REQUIRED',
  'PASSPHRASE_WRONG',
  'KEYFILE_INVALID',
  // record semantics
  'TIMESTAMP_INVALID',
  'TIMESTAMP_IN_FUTURE',
  'SELF_ATTESTATION',
  'WRONG_KIND',
  // record-v1 R19: an attestation's witness draw whose ECVRF proof does not verify for its memory
  'DRAW_INVALID',
  'BUNDLE_INVALID',
  // storage and state
  'NOT_FOUND',
  'ALREADY_EXISTS',
  'NOT_INITIALIZED',
  'STORE_CLOSED',
  'STORE_LOCKED',
  'IO_ERROR',
  // the disk (or the user's quota) is full: ENOSPC, EDQUOT. What was acknowledged is on disk; the
  // write that failed was not acknowledged (src/errors/disk-full.ts)
  'DISK_FULL',
  // the LevelDB index was written with another key layout: rebuild it (isnad ledger reindex)
  'INDEX_OUTDATED',
  // a LevelDB under .memory/ reports damaged files: rebuild the index (isnad ledger reindex)
  'INDEX_CORRUPT',
  // the bytes the index locates for a record in the ledger (a pack block) do not hash to its id:
  // the ledger changed under the index or is damaged (isnad ledger verify, then reindex)
  'RECORD_LOCATION_INVALID',
  // usage
  'USAGE',
  // the node home's configuration file (.memory/config.json) is not JSON or holds a key or value
  // `isnad config` refuses (docs/configuration.md)
  'CONFIG_INVALID',
  // transparency log (transparency-v1); an ECVRF proof that is not 80 bytes (witness-draw-v1)
  'PROOF_MALFORMED',
  'LOG_CORRUPT',
  // the .memory/ ledger: another live writer; a line that fails its checks
  'LEDGER_LOCKED',
  'LEDGER_CORRUPT',
  // key lifecycle (record-v1 §13): a key used outside its validity; a key event refused; a fork
  'KEY_ROTATED',
  'KEY_REVOKED',
  'KEY_INACTIVE',
  'KEY_EVENT_INVALID',
  'KEY_EVENT_CONFLICT',
  // resource limits (docs/limits.md)
  'RATE_LIMITED',
  // anchors-v1 §9: a url an anchor from a peer names resolves to an address this node does not fetch
  'ADDRESS_REFUSED',
  // a peer the operator asked to connect to could not be dialled (POST /v1/peers/connect), or a
  // bootstrap peer that does not answer (logged as a warning: the daemon keeps running)
  'PEER_UNREACHABLE',
  // a listen address (libp2p's or the API's) is held by another process (isnad start)
  'ADDRESS_IN_USE',
  // anchors-v1 §2.1: a file anchor names one of the home's private files, or a file outside the
  // directories the operator allowed a daemon or `isnad mcp` to read
  'PATH_FORBIDDEN',
  // `isnad sim` where the simulator's package (isnad-sim) is not installed
  'SIM_NOT_INSTALLED'
] as const

export type ErrorCode = (typeof ERROR_CODES)[number]

export interface IsnadErrorOptions {
  /** Structured context safe to print (never key material). */
  details?: Record<string, unknown>
  cause?: unknown
}

export class IsnadError extends Error {
  override readonly name = 'IsnadError'
  readonly code: ErrorCode
  readonly details: Record<string, unknown> | undefined

  constructor (code: ErrorCode, message: string, options: IsnadErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause })
    this.code = code
    this.details = options.details
  }

  toJSON (): { code: ErrorCode, message: string, details?: Record<string, unknown> } {
    return this.details === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, details: this.details }
  }
}

export function isIsnadError (err: unknown, code?: ErrorCode): err is IsnadError {
  return err instanceof IsnadError && (code === undefined || err.code === code)
}
