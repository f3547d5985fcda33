import { HTTPException } from 'hono/http-exception'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import { diskFullError, isDiskFull, IsnadError } from '../errors/index.js'
import { ApiError, type ApiErrorBody, type ApiErrorCode } from '../api-access/index.js'
import { indexCorruptError, isLevelCorruption } from '../record-index/level/damage.js'

/**
 * The one table from error code to HTTP status (STYLE: "the HTTP layer maps codes to statuses in one
 * table"). Typed as a Record over every code, so a code added to src/errors does not compile until
 * it has a status here. 400: the request itself is malformed; 422: well-formed but refused by a
 * record rule (bad signature, self-attestation, …); 409: the data directory is busy or the thing
 * exists; 5xx: the node's own state is broken.
 */
export const HTTP_STATUS_BY_CODE: Record<ApiErrorCode, ContentfulStatusCode> = {
  JSON_INVALID: 400,
  SCHEMA_INVALID: 400,
  DECODE_FAILED: 400,
  RECORD_TOO_LARGE: 413,
  FIELD_TOO_LARGE: 400,
  CID_MISMATCH: 422,
  CID_INVALID: 400,
  SIGNATURE_INVALID: 422,
  SIGNATURE_MALFORMED: 422,
  KEY_INVALID: 422,
  DID_INVALID: 400,
  UNKNOWN_KEY: 404,
  PASSPHRASE_REQUIRED: 400,
  PASSPHRASE_WRONG: 403,
  KEYFILE_INVALID: 500,
  TIMESTAMP_INVALID: 400,
  TIMESTAMP_IN_FUTURE: 422,
  SELF_ATTESTATION: 422,
  WRONG_KIND: 422,
  DRAW_INVALID: 422,
  BUNDLE_INVALID: 400,
  NOT_FOUND: 404,
  ALREADY_EXISTS: 409,
  NOT_INITIALIZED: 503,
  STORE_CLOSED: 503,
  STORE_LOCKED: 409,
  IO_ERROR: 500,
  // RFC 4918 §11.5 Insufficient Storage: the node cannot store what the request asked it to
  DISK_FULL: 507,
  INDEX_OUTDATED: 503,
  INDEX_CORRUPT: 503,
  RECORD_LOCATION_INVALID: 500,
  USAGE: 400,
  CONFIG_INVALID: 500,
  PROOF_MALFORMED: 400,
  LOG_CORRUPT: 500,
  LEDGER_LOCKED: 409,
  LEDGER_CORRUPT: 500,
  KEY_ROTATED: 422,
  KEY_REVOKED: 422,
  KEY_INACTIVE: 422,
  KEY_EVENT_INVALID: 422,
  KEY_EVENT_CONFLICT: 409,
  RATE_LIMITED: 429,
  ADDRESS_REFUSED: 403,
  PEER_UNREACHABLE: 502,
  ADDRESS_IN_USE: 409,
  PATH_FORBIDDEN: 403,
  SIM_NOT_INSTALLED: 501,
  UNAUTHORIZED: 401,
  BODY_TOO_LARGE: 413,
  BODY_TOO_DEEP: 400,
  ROUTE_NOT_FOUND: 404,
  UNSUPPORTED_MEDIA_TYPE: 415,
  // RFC 9110 §15.5.20: the request was directed at a name this server does not answer for.
  HOST_REFUSED: 421,
  ORIGIN_REFUSED: 403,
  INTERNAL: 500
}

/** hono's own exceptions (malformed JSON, wrong media type, …) in the API's codes. */
function fromHttpException (err: HTTPException): ApiErrorBody['error'] {
  if (err.status === 413) return { code: 'BODY_TOO_LARGE', message: 'request body too large' }
  if (err.status === 415) return { code: 'UNSUPPORTED_MEDIA_TYPE', message: 'request bodies must be application/json' }
  if (err.status === 400) return { code: 'JSON_INVALID', message: 'request body is not valid JSON' }
  return { code: 'INTERNAL', message: 'internal error' }
}

/**
 * The status and body for any thrown value. IsnadError messages are written to be shown (they name
 * the object at fault and never hold key material), so they pass through; anything else is a bug
 * and becomes a bare 500, its message and stack kept out of the response.
 */
export function errorResponseOf (err: unknown): { status: ContentfulStatusCode, body: ApiErrorBody } {
  let error: ApiErrorBody['error']
  if (err instanceof IsnadError && !(err.code === 'IO_ERROR' && (isLevelCorruption(err) || isDiskFull(err)))) error = err.toJSON()
  else if (isDiskFull(err)) error = diskFullError('the node\'s data directory', err).toJSON()
  else if (err instanceof ApiError) error = { code: err.code, message: err.message }
  else if (err instanceof HTTPException) error = fromHttpException(err)
  else if (isLevelCorruption(err)) error = indexCorruptError(undefined, err).toJSON()
  else error = { code: 'INTERNAL', message: 'internal error' }
  return { status: HTTP_STATUS_BY_CODE[error.code], body: { error } }
}
