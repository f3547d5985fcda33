import type { OpenAPIHono } from '@hono/zod-openapi'
import type { MiddlewareHandler } from 'hono'
import type { z } from 'zod'
import { readBoundedBody } from '../body.js'
import type { NodeOperations, Signer } from '../operations.js'
import { ErrorBodySchema } from '../schemas/responses.js'

/** The app every route file registers on. */
export type ApiApp = OpenAPIHono

/** `content` of a JSON request or response body. */
export function json<T extends z.ZodType> (schema: T): { 'application/json': { schema: T } } {
  return { 'application/json': { schema } }
}

function errorResponse (description: string): { description: string, content: { 'application/json': { schema: typeof ErrorBodySchema } } } {
  return { description, content: json(ErrorBodySchema) }
}

/** Error responses, by status, for the OpenAPI document; the body is always ErrorBodySchema. */
export const ERRORS = {
  400: errorResponse('invalid request: JSON_INVALID, BODY_TOO_DEEP, SCHEMA_INVALID, FIELD_TOO_LARGE, USAGE, …'),
  401: errorResponse('UNAUTHORIZED: missing or wrong bearer token'),
  403: errorResponse('PASSPHRASE_WRONG'),
  404: errorResponse('NOT_FOUND, UNKNOWN_KEY'),
  409: errorResponse('STORE_LOCKED, LEDGER_LOCKED, ALREADY_EXISTS'),
  413: errorResponse('BODY_TOO_LARGE'),
  415: errorResponse('UNSUPPORTED_MEDIA_TYPE: bodies are application/json'),
  422: errorResponse('refused by a record rule: SIGNATURE_INVALID, SELF_ATTESTATION, TIMESTAMP_IN_FUTURE, …'),
  500: errorResponse('INTERNAL and the node\'s own failures (IO_ERROR, LEDGER_CORRUPT, …)')
} as const

/** The errors any authenticated route can answer with. */
export const BASE_ERRORS = { 401: ERRORS[401], 500: ERRORS[500] } as const
/** … plus those of a route that takes a JSON body. */
export const BODY_ERRORS = { ...BASE_ERRORS, 400: ERRORS[400], 413: ERRORS[413], 415: ERRORS[415] } as const
/** … plus those of a route that signs with a local key. */
export const SIGNING_ERRORS = { ...BODY_ERRORS, 403: ERRORS[403], 404: ERRORS[404], 422: ERRORS[422] } as const

/**
 * Refuses a body over `maxBytes` with 413 BODY_TOO_LARGE before it is parsed (on its Content-Length
 * when given, else while it streams in), and one nested deeper than MAX_JSON_DEPTH with 400
 * BODY_TOO_DEEP before JSON.parse sees it (body.ts). Every route that takes a body has it.
 */
export function limitBody (maxBytes: number): MiddlewareHandler {
  return async (c, next) => {
    await readBoundedBody(c, maxBytes)
    await next()
  }
}

/** Resolves the signing key, runs `fn`, then wipes the seed from memory whatever happened. */
export async function withSigner<T> (
  node: NodeOperations, fields: { as?: string | undefined, passphrase?: string | undefined }, fn: (signer: Signer) => Promise<T>
): Promise<T> {
  const signer = await node.resolveSigner(fields.as, fields.passphrase)
  try {
    return await fn(signer)
  } finally {
    signer.secretKey.fill(0)
  }
}
