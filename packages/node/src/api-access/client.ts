import { ERROR_CODES, IsnadError, type ErrorCode } from '../errors/index.js'
import { ApiError, ErrorBodySchema } from './api-errors.js'
import {
  OPERATION_SPECS, parseOperationInput, pathParamsOf, type OperationCaller, type OperationInput, type OperationName, type OperationOutput, type OperationSpec
} from '../operations/index.js'

/** @default 60000 — the longest a request may take, body included (a reindex or an 8 MiB import are the slow ones). */
export const DEFAULT_REQUEST_TIMEOUT_MS = 60_000

export interface HttpOperationsInit {
  /** The daemon's API, `http://127.0.0.1:<port>` (its daemon.json). */
  url: string
  /** The bearer token (`.memory/api.token`). */
  token: string
  /** @default globalThis.fetch */
  fetch?: typeof fetch
  /** @default DEFAULT_REQUEST_TIMEOUT_MS */
  timeoutMs?: number
}

export interface RequestOptions { body?: unknown, query?: URLSearchParams }

/**
 * The table's operations over a daemon's local HTTP API (src/http/routes): `call(name, input)`, as
 * the library and the CLI call them on a node of their own, so a caller behaves the same whether it
 * opens the data directory itself or goes through the daemon that holds it. An error response
 * becomes the error the daemon's operations threw: IsnadError with the same code, message and
 * details, or ApiError for the HTTP layer's own codes (UNAUTHORIZED, BODY_TOO_LARGE, …).
 *
 * Secret keys never cross the API: a signing operation names its key (`as`) and may carry the
 * passphrase that unlocks it; the daemon loads the key and wipes it.
 */
export class HttpOperations implements OperationCaller {
  private readonly url: string
  private readonly fetch: typeof fetch
  private readonly timeoutMs: number

  constructor (private readonly init: HttpOperationsInit) {
    this.url = init.url.replace(/\/+$/, '')
    this.fetch = init.fetch ?? globalThis.fetch
    this.timeoutMs = init.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS
  }

  /**
   * One operation of the table over HTTP: the input is parsed here first, by the same parse the
   * daemon runs (so a bad input fails with the same code before any request), then placed where
   * the operation's HTTP binding says: path parameters, the query string or the JSON body.
   */
  async call<N extends OperationName> (name: N, raw: OperationInput<N>): Promise<OperationOutput<N>> {
    const spec = OPERATION_SPECS[name] as unknown as OperationSpec
    const { method, path, ...options } = httpRequestOf(spec, parseOperationInput(spec, raw) as Record<string, unknown>)
    return await this.request(method, path, options)
  }

  /**
   * One request: bearer token, JSON both ways, a deadline for the whole exchange. The daemon is
   * this user's own process on 127.0.0.1 and builds its answers from the same schemas, so a 2xx body
   * is taken as the route's documented shape; an error body becomes the daemon's error.
   */
  private async request<T> (method: 'GET' | 'POST', path: string, options: RequestOptions = {}): Promise<T> {
    const query = options.query === undefined || options.query.size === 0 ? '' : `?${options.query.toString()}`
    const headers: Record<string, string> = { authorization: `Bearer ${this.init.token}`, accept: 'application/json' }
    if (options.body !== undefined) headers['content-type'] = 'application/json'
    const signal = AbortSignal.timeout(this.timeoutMs)
    try {
      const response = await this.fetch(`${this.url}${path}${query}`, {
        method, headers, signal, ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) })
      })
      if (!response.ok) throw await errorOf(response, `${method} ${path}`)
      return await response.json() as T
    } catch (err) {
      if (err instanceof IsnadError || err instanceof ApiError) throw err
      if (signal.aborted) {
        throw new IsnadError('IO_ERROR', `the daemon at ${this.url} did not answer ${method} ${path} within ${this.timeoutMs} ms`, { cause: err })
      }
      throw new IsnadError('IO_ERROR', `cannot reach the daemon at ${this.url} (${reasonOf(err)}); is it still running?`, { cause: err })
    }
  }
}

/** Where an input's fields go over HTTP, by the operation's binding: path parameters, the query string or the JSON body. */
export function httpRequestOf (spec: OperationSpec, input: Record<string, unknown>): RequestOptions & { method: 'GET' | 'POST', path: string } {
  const params = pathParamsOf(spec)
  const path = spec.http.path.replace(/\{([^}]+)\}/g, (_, key: string) => encodeURIComponent(String(input[key])))
  const rest = Object.fromEntries(Object.entries(input).filter(([key, value]) => !params.includes(key) && value !== undefined))
  const method = spec.http.method === 'get' ? 'GET' : 'POST'
  if (spec.http.in === 'body') return { method, path, body: spec.http.bodyField === undefined ? rest : rest[spec.http.bodyField] }
  // The other routes take their fields in the query string (a GET's), where an unknown one is refused as well.
  return { method, path, ...(Object.keys(rest).length === 0 ? {} : { query: queryStringOf(rest) }) }
}

/** `?tags=a&tags=b&limit=5`: lists repeat their key. */
function queryStringOf (fields: Record<string, unknown>): URLSearchParams {
  const params = new URLSearchParams()
  for (const [key, value] of Object.entries(fields)) {
    for (const item of Array.isArray(value) ? value : [value]) params.append(key, String(item))
  }
  return params
}

export function createHttpOperations (init: HttpOperationsInit): HttpOperations {
  return new HttpOperations(init)
}

function isErrorCode (code: string): code is ErrorCode {
  return (ERROR_CODES as readonly string[]).includes(code)
}

/** The daemon's error from its `{ error: { code, message, details? } }` body (errors.ts). */
async function errorOf (response: Response, what: string): Promise<Error> {
  const body: unknown = await response.json().catch(() => undefined)
  const parsed = ErrorBodySchema.safeParse(body)
  if (!parsed.success) {
    return new ApiError('INTERNAL', `${what}: the daemon answered HTTP ${response.status} without an error body`)
  }
  const { code, message, details } = parsed.data.error
  if (isErrorCode(code)) return new IsnadError(code, message, details === undefined ? {} : { details })
  return new ApiError(code, message)
}

/** `ECONNREFUSED` and the like, from undici's `fetch failed` and its cause. */
function reasonOf (err: unknown): string {
  const cause: unknown = err instanceof Error ? err.cause : undefined
  if (cause instanceof Error && 'code' in cause && typeof cause.code === 'string') return cause.code
  return err instanceof Error ? err.message : String(err)
}
