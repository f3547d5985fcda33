import { z } from 'zod'
import { ERROR_CODES, type ErrorCode } from '../errors/index.js'

// The shape of the API's errors: the server writes it (src/http/errors.ts gives each code its
// status) and the client reads it back into the error the daemon threw.

/** Codes only the HTTP layer produces, beside the node's own (src/errors). */
export const API_ERROR_CODES = [
  'UNAUTHORIZED',
  'BODY_TOO_LARGE',
  // arrays and objects nested deeper than MAX_JSON_DEPTH (src/http/body.ts)
  'BODY_TOO_DEEP',
  'ROUTE_NOT_FOUND',
  'UNSUPPORTED_MEDIA_TYPE',
  // a Host that is not the node's own (DNS rebinding); a browser request from another origin
  'HOST_REFUSED',
  'ORIGIN_REFUSED',
  'INTERNAL'
] as const
export type ApiOnlyErrorCode = (typeof API_ERROR_CODES)[number]
export type ApiErrorCode = ErrorCode | ApiOnlyErrorCode

export const ErrorBodySchema = z.strictObject({
  error: z.strictObject({
    code: z.enum([...ERROR_CODES, ...API_ERROR_CODES]),
    message: z.string(),
    details: z.record(z.string(), z.unknown()).optional()
  })
}).meta({ id: 'Error', description: 'Every error: a stable code to branch on, and a message for people.' })

/** The JSON body of every error response. */
export interface ApiErrorBody {
  error: { code: ApiErrorCode, message: string, details?: Record<string, unknown> }
}

/** An error raised by the HTTP layer itself, with one of its own codes. */
export class ApiError extends Error {
  override readonly name = 'ApiError'
  readonly code: ApiOnlyErrorCode

  constructor (code: ApiOnlyErrorCode, message: string) {
    super(message)
    this.code = code
  }
}
