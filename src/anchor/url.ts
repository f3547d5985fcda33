import { createHash } from 'node:crypto'
import { IsnadError } from '../errors/index.js'
import { MAX_URL_BYTES, MAX_URL_REDIRECTS, URL_TIMEOUT_MS } from './constants.js'
import { splitHash, type AnchorChecker, type CheckOutcome } from './types.js'

export interface UrlLimits {
  /** @default MAX_URL_BYTES */
  maxBytes?: number
  /** @default URL_TIMEOUT_MS */
  timeoutMs?: number
  /** @default MAX_URL_REDIRECTS */
  maxRedirects?: number
}

/** Why a bounded fetch gave no content: each maps to one verification state (anchors-v1 V3). */
export type UrlFailure = 'not-http' | 'unreachable' | 'too-large'

export class UrlFetchError extends IsnadError {
  constructor (readonly failure: UrlFailure, message: string, cause?: unknown) {
    super(failure === 'not-http' ? 'USAGE' : 'IO_ERROR', message, { cause, details: { failure } })
  }
}

/** Parses an http(s) URL; UrlFetchError('not-http') for anything else. */
export function parseHttpUrl (reference: string): URL {
  let url: URL
  try {
    url = new URL(reference)
  } catch {
    throw new UrlFetchError('not-http', `${reference} is not a URL`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UrlFetchError('not-http', `${reference} is not an http or https URL`)
  return url
}

/**
 * GETs `reference` within the limits of anchors-v1 V3: http and https only, redirects followed by
 * hand (at most `maxRedirects`, each target checked again), the whole exchange within `timeoutMs`,
 * and the body read only up to `maxBytes` (a longer body is refused, never truncated and hashed).
 */
export async function fetchBounded (reference: string, limits: UrlLimits = {}, outer?: AbortSignal): Promise<Uint8Array> {
  const maxBytes = limits.maxBytes ?? MAX_URL_BYTES
  const maxRedirects = limits.maxRedirects ?? MAX_URL_REDIRECTS
  const timeout = AbortSignal.timeout(limits.timeoutMs ?? URL_TIMEOUT_MS)
  const signal = outer === undefined ? timeout : AbortSignal.any([outer, timeout])
  let url = parseHttpUrl(reference)
  for (let redirects = 0; ; redirects++) {
    let response: Response
    try {
      response = await fetch(url, { redirect: 'manual', signal, headers: { accept: '*/*' } })
    } catch (cause) {
      const why = timeout.aborted ? `no answer within ${limits.timeoutMs ?? URL_TIMEOUT_MS} ms` : describe(cause)
      throw new UrlFetchError('unreachable', `${url.href}: ${why}`, cause)
    }
    const location = response.headers.get('location')
    if (response.status >= 300 && response.status < 400 && location !== null) {
      await response.body?.cancel()
      if (redirects >= maxRedirects) throw new UrlFetchError('unreachable', `${reference}: more than ${maxRedirects} redirects`)
      url = parseHttpUrl(new URL(location, url).href)
      continue
    }
    if (!response.ok) {
      await response.body?.cancel()
      throw new UrlFetchError('unreachable', `${url.href} answered HTTP ${response.status}`)
    }
    return await readCapped(response, maxBytes, url.href)
  }
}

async function readCapped (response: Response, maxBytes: number, where: string): Promise<Uint8Array> {
  const declared = Number(response.headers.get('content-length') ?? NaN)
  if (declared > maxBytes) {
    await response.body?.cancel()
    throw new UrlFetchError('too-large', `${where} declares ${declared} bytes, above the limit of ${maxBytes}`)
  }
  const chunks: Uint8Array[] = []
  let total = 0
  const reader = response.body?.getReader()
  if (reader === undefined) return new Uint8Array(0)
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      total += value.length
      if (total > maxBytes) {
        await reader.cancel()
        throw new UrlFetchError('too-large', `${where} sent more than the limit of ${maxBytes} bytes`)
      }
      chunks.push(value)
    }
  } catch (cause) {
    if (cause instanceof UrlFetchError) throw cause
    throw new UrlFetchError('unreachable', `${where}: the body could not be read (${describe(cause)})`, cause)
  }
  return Buffer.concat(chunks)
}

function describe (cause: unknown): string {
  if (!(cause instanceof Error)) return String(cause)
  const inner = (cause as Error & { cause?: unknown }).cause
  return inner instanceof Error ? `${cause.message} (${inner.message})` : cause.message
}

export function sha256Hex (bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex')
}

/**
 * url and moltbook_post (anchors-v1 V3): the content at `reference` now, hashed with sha2-256 and
 * compared with the anchored hash. Different content is drift: the page changed since it was
 * anchored, reported as a mismatch with `drift`.
 */
export function createUrlChecker (limits: UrlLimits = {}): AnchorChecker {
  return async (anchor, signal): Promise<CheckOutcome> => {
    const { algorithm, hex } = splitHash(anchor.hash)
    if (algorithm !== 'sha2-256') {
      return { state: 'unverifiable', reason: `hash algorithm ${algorithm} is not checked here; url anchors use sha2-256` }
    }
    let body: Uint8Array
    try {
      body = await fetchBounded(anchor.reference, limits, signal)
    } catch (err) {
      if (!(err instanceof UrlFetchError)) throw err
      const state = err.failure === 'unreachable' ? 'unreachable' : 'unverifiable'
      return { state, reason: err.message }
    }
    const now = sha256Hex(body)
    if (now === hex) return { state: 'verified', reason: `the ${body.length} bytes at ${anchor.reference} hash to the anchored sha2-256` }
    return {
      state: 'mismatch',
      drift: true,
      reason: `drift: the content at ${anchor.reference} changed since it was anchored (now sha2-256:${now}, ${body.length} bytes)`
    }
  }
}
