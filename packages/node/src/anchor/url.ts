import { createHash } from 'node:crypto'
import { lookup } from 'node:dns/promises'
import { request as httpRequest, type IncomingMessage } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { isIP, type LookupFunction } from 'node:net'
import type { Readable } from 'node:stream'
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib'
import { IsnadError } from '../errors/index.js'
import { ANY_ADDRESS_POLICY, parseUrlAllowance, publicOnlyPolicy, type AddressPolicy } from './address-policy.js'
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

/** Resolves a host name to every address it has (node:dns lookup with `all`). */
export type HostResolver = (host: string) => Promise<string[]>

export interface FetchOptions extends UrlLimits {
  /** Which addresses may be connected to, checked at every hop. @default publicOnlyPolicy() */
  policy?: AddressPolicy
  /** @default node:dns lookup of all addresses; tests pass their own names. */
  resolve?: HostResolver
}

/** Why a bounded fetch gave no content: each maps to one verification state (anchors-v1 V3, §9). */
export type UrlFailure = 'not-http' | 'unreachable' | 'too-large' | 'unsupported-encoding' | 'address-refused'

/** The stable start of the reason of a url check refused by the address policy (anchors-v1 §9). */
export const ADDRESS_REFUSED = 'ADDRESS_REFUSED'

const ERROR_CODE_OF = { 'not-http': 'USAGE', unreachable: 'IO_ERROR', 'too-large': 'IO_ERROR', 'unsupported-encoding': 'IO_ERROR', 'address-refused': 'ADDRESS_REFUSED' } as const

export class UrlFetchError extends IsnadError {
  constructor (readonly failure: UrlFailure, message: string, cause?: unknown) {
    super(ERROR_CODE_OF[failure], message, { cause, details: { failure } })
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

const resolveAll: HostResolver = async (host) => (await lookup(host, { all: true, order: 'verbatim' })).map(({ address }) => address)

/**
 * GETs `reference` within the limits of anchors-v1 V3: http and https only, redirects followed by
 * hand (at most `maxRedirects`), the whole exchange within `timeoutMs`, and the body read only up to
 * `maxBytes` (a longer body is refused, never truncated and hashed). At every hop the host is
 * resolved once, every address it has is checked against `policy`, and the connection goes to the
 * checked address only (anchors-v1 §9): a DNS answer that changes between check and connect cannot
 * move it elsewhere.
 */
export async function fetchBounded (reference: string, options: FetchOptions = {}, outer?: AbortSignal): Promise<Uint8Array> {
  const maxBytes = options.maxBytes ?? MAX_URL_BYTES
  const maxRedirects = options.maxRedirects ?? MAX_URL_REDIRECTS
  const timeout = AbortSignal.timeout(options.timeoutMs ?? URL_TIMEOUT_MS)
  const signal = outer === undefined ? timeout : AbortSignal.any([outer, timeout])
  const policy = options.policy ?? publicOnlyPolicy()
  let url = parseHttpUrl(reference)
  for (let redirects = 0; ; redirects++) {
    let response: IncomingMessage
    try {
      const address = await checkedAddress(url, policy, options.resolve ?? resolveAll, signal)
      response = await get(url, address, signal)
    } catch (cause) {
      if (cause instanceof UrlFetchError) throw cause
      const why = timeout.aborted ? `no answer within ${options.timeoutMs ?? URL_TIMEOUT_MS} ms` : describe(cause)
      throw new UrlFetchError('unreachable', `${url.href}: ${why}`, cause)
    }
    const status = response.statusCode ?? 0
    const location = response.headers.location
    if (status >= 300 && status < 400 && location !== undefined) {
      response.destroy()
      if (redirects >= maxRedirects) throw new UrlFetchError('unreachable', `${reference}: more than ${maxRedirects} redirects`)
      url = parseHttpUrl(new URL(location, url).href)
      continue
    }
    if (status < 200 || status >= 300) {
      response.destroy()
      throw new UrlFetchError('unreachable', `${url.href} answered HTTP ${status}`)
    }
    return await readCapped(response, maxBytes, url.href)
  }
}

/** The URL's host without the brackets of an IPv6 literal. */
function hostOf (url: URL): string {
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname
}

/**
 * The one address to connect to for `url`: its IP literal, or the first of every address its host
 * resolves to, after all of them passed the policy (one private answer refuses the host: which one
 * a client would pick is not this node's to predict).
 */
async function checkedAddress (url: URL, policy: AddressPolicy, resolve: HostResolver, signal: AbortSignal): Promise<string> {
  const host = hostOf(url)
  const addresses = isIP(host) !== 0 ? [host] : await abortable(resolve(host), signal)
  if (addresses.length === 0) throw new UrlFetchError('unreachable', `${url.href}: ${host} has no address`)
  for (const address of addresses) {
    const refusal = policy.refusalOf(host, address)
    if (refusal !== null) {
      const shown = address === host ? address : `${host} (${address})`
      throw new UrlFetchError('address-refused',
        `${ADDRESS_REFUSED}: ${url.href} was not fetched: ${shown} is ${refusal.range.name}, ${refusal.range.cidr}; ` +
        'anchors from peers are fetched from public addresses only (allow a host or range with --anchor-url-allow)')
    }
  }
  return addresses[0] as string
}

async function abortable<T> (task: Promise<T>, signal: AbortSignal): Promise<T> {
  signal.throwIfAborted()
  let onAbort = (): void => {}
  const aborted = new Promise<never>((_resolve, reject) => {
    onAbort = () => { reject(signal.reason) }
    signal.addEventListener('abort', onAbort, { once: true })
  })
  try {
    return await Promise.race([task, aborted])
  } finally {
    signal.removeEventListener('abort', onAbort)
  }
}

/** One GET of `url` over a connection to `address` (the TLS name and Host header stay the URL's). */
async function get (url: URL, address: string, signal: AbortSignal): Promise<IncomingMessage> {
  const family = isIP(address)
  // The socket asks this instead of DNS (with `all` when it races address families): only the checked address.
  const pinned: LookupFunction = (_host, options, callback) => {
    if (options.all === true) callback(null, [{ address, family }])
    else callback(null, address, family)
  }
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest
  return await new Promise<IncomingMessage>((resolve, reject) => {
    const request = send({
      host: hostOf(url),
      ...(url.port === '' ? {} : { port: Number(url.port) }),
      path: `${url.pathname}${url.search}`,
      method: 'GET',
      headers: { accept: '*/*', 'accept-encoding': 'gzip, deflate, br' },
      lookup: pinned,
      agent: false,
      signal
    }, resolve)
    request.on('error', reject)
    request.end()
  })
}

/** The body as sent, decoded from its content-encoding (as fetch would), counted after decoding. */
function decodedBody (response: IncomingMessage, where: string): Readable {
  const encoding = (response.headers['content-encoding'] ?? 'identity').trim().toLowerCase()
  const decoder = encoding === 'gzip' || encoding === 'x-gzip'
    ? createGunzip()
    : encoding === 'deflate' ? createInflate() : encoding === 'br' ? createBrotliDecompress() : undefined
  if (decoder === undefined) {
    if (encoding !== 'identity') {
      response.destroy()
      throw new UrlFetchError('unsupported-encoding', `${where} sent content-encoding ${encoding}, which this node does not decode`)
    }
    return response
  }
  response.on('error', (err) => decoder.destroy(err))
  return response.pipe(decoder)
}

async function readCapped (response: IncomingMessage, maxBytes: number, where: string): Promise<Uint8Array> {
  const declared = Number(response.headers['content-length'] ?? NaN)
  if (declared > maxBytes && response.headers['content-encoding'] === undefined) {
    response.destroy()
    throw new UrlFetchError('too-large', `${where} declares ${declared} bytes, above the limit of ${maxBytes}`)
  }
  const chunks: Uint8Array[] = []
  let total = 0
  try {
    const body = decodedBody(response, where)
    for await (const chunk of body) {
      const bytes = chunk as Buffer
      total += bytes.length
      if (total > maxBytes) {
        response.destroy()
        body.destroy()
        throw new UrlFetchError('too-large', `${where} sent more than the limit of ${maxBytes} bytes`)
      }
      chunks.push(bytes)
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

export interface UrlCheckerInit extends UrlLimits {
  /**
   * Host names, addresses and CIDR ranges that anchors from peers may reach although not public
   * (`isnad start --anchor-url-allow`; parseUrlAllowance). @default none
   */
  allow?: readonly string[]
  /** @default node:dns lookup of all addresses */
  resolve?: HostResolver
}

/**
 * url and moltbook_post (anchors-v1 V3): the content at `reference` now, hashed with sha2-256 and
 * compared with the anchored hash. Different content is drift: the page changed since it was
 * anchored, reported as a mismatch with `drift`. An anchor of this node's own agents may reach any
 * address; any other only public ones and the allowed (§9): a refused address is `unverifiable`
 * (this node will not check it), never `unreachable`, which would tell whether an internal host exists.
 */
export function createUrlChecker (init: UrlCheckerInit = {}): AnchorChecker {
  const { allow = [], resolve, ...limits } = init
  const strict = publicOnlyPolicy(parseUrlAllowance(allow))
  return async (anchor, signal, context): Promise<CheckOutcome> => {
    const { algorithm, hex } = splitHash(anchor.hash)
    if (algorithm !== 'sha2-256') {
      return { state: 'unverifiable', reason: `hash algorithm ${algorithm} is not checked here; url anchors use sha2-256` }
    }
    const policy = context?.origin === 'local' ? ANY_ADDRESS_POLICY : strict
    let body: Uint8Array
    try {
      body = await fetchBounded(anchor.reference, { ...limits, policy, ...(resolve === undefined ? {} : { resolve }) }, signal)
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
