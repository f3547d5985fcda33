import type { Context } from 'hono'
import { ApiError } from '../api-access/index.js'

/*
 * Bounded request bodies (docs/limits.md, docs/threat-model.md, "Local API"). A JSON body costs what its parse costs:
 * hono's bodyLimit bounds the bytes, but 7 MB of `[[[[…` within the 8 MiB bundle limit kept the event
 * loop busy for seconds and took > 1 GB while JSON.parse built millions of nested arrays. So the
 * body is read here, counted as it streams in, and its nesting depth is measured by a scan of its
 * bytes (no allocation per value) before anything parses it.
 */

/**
 * @default 32 — the deepest nesting of arrays and objects a request body may have. The deepest
 * bodies the API takes are a bundle and a memory view for `POST /v1/verify` (about 8 levels,
 * their trust explanation included); 32 leaves room and keeps the parse linear and shallow.
 */
export const MAX_JSON_DEPTH = 32

const OPEN_ARRAY = 0x5b
const CLOSE_ARRAY = 0x5d
const OPEN_OBJECT = 0x7b
const CLOSE_OBJECT = 0x7d
const QUOTE = 0x22
const BACKSLASH = 0x5c

/**
 * The nesting depth of a JSON text, counted on its UTF-8 bytes: brackets outside strings. Stops as
 * soon as the depth passes `limit` and returns it (limit + 1), so a hostile body costs one partial
 * pass. Malformed JSON is measured as well as it can be; JSON.parse refuses it afterwards. In UTF-8
 * these ASCII bytes never occur inside a multi-byte character, so no decoding is needed.
 */
export function jsonDepthOf (bytes: Uint8Array, limit = Infinity): number {
  let depth = 0
  let deepest = 0
  let inString = false
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]
    if (inString) {
      if (b === BACKSLASH) i++
      else if (b === QUOTE) inString = false
      continue
    }
    if (b === QUOTE) inString = true
    else if (b === OPEN_ARRAY || b === OPEN_OBJECT) {
      depth++
      if (depth > deepest) {
        deepest = depth
        if (deepest > limit) return deepest
      }
    } else if ((b === CLOSE_ARRAY || b === CLOSE_OBJECT) && depth > 0) depth--
  }
  return deepest
}

function tooLarge (maxBytes: number): ApiError {
  return new ApiError('BODY_TOO_LARGE', `request body exceeds ${maxBytes} bytes`)
}

/**
 * Reads the request's body, at most `maxBytes`: refused on its Content-Length before any byte is
 * read, else as soon as the bytes streamed in pass the limit (the rest is never buffered). Then
 * refuses a body nested deeper than `maxDepth` (BODY_TOO_DEEP), and leaves the text where hono's
 * `c.req.json()` (the route's validator) takes it from, so the body is read once.
 */
export async function readBoundedBody (c: Context, maxBytes: number, maxDepth = MAX_JSON_DEPTH): Promise<void> {
  const declared = c.req.header('content-length')
  if (declared !== undefined && (!/^\d+$/.test(declared) || Number(declared) > maxBytes)) throw tooLarge(maxBytes)
  const stream = c.req.raw.body
  if (stream === null) return
  const reader = stream.getReader()
  const chunks: Uint8Array[] = []
  let total = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    total += value.byteLength
    if (total > maxBytes) {
      await reader.cancel().catch(() => {})
      throw tooLarge(maxBytes)
    }
    chunks.push(value)
  }
  const bytes = Buffer.concat(chunks, total)
  if (jsonDepthOf(bytes, maxDepth) > maxDepth) {
    throw new ApiError('BODY_TOO_DEEP', `request body nests arrays and objects more than ${maxDepth} levels deep`)
  }
  // hono's request keeps each body form it has read as a promise in `bodyCache` (its own bodyLimit
  // and validators rely on it); its declared type names the values, not the promises.
  ;(c.req.bodyCache as { text?: Promise<string> }).text = Promise.resolve(bytes.toString('utf8'))
}
