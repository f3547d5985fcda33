import type { AddAnchorInput, AnchorCheck } from '../anchor/index.js'
import { ERROR_CODES, IsnadError, type ErrorCode } from '../errors/index.js'
import { ErrorBodySchema } from './errors.js'
import type { DelegateKeyInput, KeyEventResult, RevokeKeyInput, RotateKeyInput } from '../key-events/index.js'
import type { FdrReport, SelectedMemory, SelectRequest } from '../fdr/index.js'
import type { KeyInfo } from '../keystore/index.js'
import type { AgentReputation, TrustRoot } from '../reputation/index.js'
import type { RecordInclusion, SignedCheckpoint } from '../merkle/index.js'
import type { AttestInput, IngestResult, QueryResultItem, RememberInput } from '../node/index.js'
import type { Bundle, MemoryView, TrustResult } from '../schema/index.js'
import type { MemoryQuery } from '../record-index/index.js'
import type { DocumentReport } from '../memory-view/index.js'
import type { z } from 'zod'
import type { GossipHealth } from '../net/gossip/gossip-health.js'
import { ApiError } from './errors.js'
import { OPERATION_SPECS, parseOperationInput, pathParamsOf, type OperationName, type OperationSpec } from '../operations/index.js'
import type { CreateKeyInput, NodeOperations, Signer, WitnessRequestInput } from '../operations/index.js'
import type { NetworkStats, PeerControl, PeerSync } from '../operations/index.js'
import type { InboxItem, PeerInfo, WitnessRequestResult } from '../operations/index.js'
import type { FollowInput, Follows } from '../operations/index.js'
import { type NodeStatus, type ObserveOutcome, type ReindexResult } from '../operations/index.js'

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

/** How a signing request names its key over HTTP: the daemon loads and wipes the key itself. */
interface SignerFields { as?: string, passphrase?: string }

export interface RequestOptions { body?: unknown, query?: URLSearchParams }

/**
 * NodeOperations over a daemon's local HTTP API (src/http/routes), so a caller (the CLI) behaves the
 * same whether it opens the data directory itself or goes through the daemon that holds it. An error
 * response becomes the error the daemon's operations threw: IsnadError with the same code, message
 * and details, or ApiError for the HTTP layer's own codes (UNAUTHORIZED, BODY_TOO_LARGE, …).
 *
 * Secret keys never cross the API: `resolveSigner` returns a handle whose `secretKey` is empty and
 * remembers the key's did and passphrase, which the signing requests carry (`as`, `passphrase`).
 */
export class HttpOperations implements NodeOperations, PeerControl {
  private readonly url: string
  private readonly fetch: typeof fetch
  private readonly timeoutMs: number
  private readonly signers = new WeakMap<Signer, SignerFields>()

  constructor (private readonly init: HttpOperationsInit) {
    this.url = init.url.replace(/\/+$/, '')
    this.fetch = init.fetch ?? globalThis.fetch
    this.timeoutMs = init.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS
  }

  async status (): Promise<NodeStatus> { return await this.call('status', {}) }

  async listKeys (): Promise<KeyInfo[]> { return await this.call('listKeys', {}) }

  async keyInfo (did: string): Promise<KeyInfo> { return await this.call('keyInfo', { did }) }

  async createKey (input: CreateKeyInput): Promise<KeyInfo> {
    return await this.call('createKey', {
      ...(input.label === undefined ? {} : { label: input.label }), default: input.makeDefault ?? false, ...(input.passphrase === undefined ? {} : { passphrase: input.passphrase })
    })
  }

  async resolveSigner (as?: string, passphrase?: string): Promise<Signer> {
    const did = as ?? (await this.listKeys()).find((k) => k.default)?.did
    if (did === undefined) throw new IsnadError('UNKNOWN_KEY', 'this node has no default key; name one with `as`')
    const signer: Signer = { did, secretKey: new Uint8Array(0) }
    this.signers.set(signer, { as: did, ...(passphrase === undefined ? {} : { passphrase }) })
    return signer
  }

  async rotateKey (input: RotateKeyInput, signer: Signer): Promise<KeyEventResult> {
    return await this.call('rotateKey', { ...withoutPassphrase(input), ...this.fieldsOf(signer) })
  }

  async revokeKey (input: RevokeKeyInput, signer: Signer): Promise<KeyEventResult> {
    return await this.call('revokeKey', { ...withoutPassphrase(input), ...this.fieldsOf(signer) })
  }

  async delegateKey (input: DelegateKeyInput, signer: Signer): Promise<KeyEventResult> {
    return await this.call('delegateKey', { ...withoutPassphrase(input), ...this.fieldsOf(signer) })
  }

  async remember (input: RememberInput, signer: Signer): Promise<MemoryView> {
    return await this.call('remember', { ...input, ...this.fieldsOf(signer) })
  }

  async show (id: string): Promise<MemoryView> { return await this.call('show', { id }) }

  async explainTrust (id: string): Promise<TrustResult> { return await this.call('explainTrust', { id }) }

  async query (query: MemoryQuery): Promise<{ items: QueryResultItem[], next?: string }> {
    return await this.call('query', query)
  }

  async attest ({ memory, ...input }: AttestInput, signer: Signer): Promise<{ id: string, view: MemoryView }> {
    const result = await this.call('attest', { id: memory, ...input, ...this.fieldsOf(signer) })
    return { id: result.attestation, view: result.memory }
  }

  async addAnchor (input: AddAnchorInput, signer: Signer): Promise<{ id: string, view: MemoryView }> {
    const { memory, ...anchor } = input
    const result = await this.call('addAnchor', { id: memory, anchor, ...this.fieldsOf(signer) })
    return { id: result.anchor, view: result.memory }
  }

  async checkAnchors (memory?: string): Promise<AnchorCheck[]> {
    return (await this.call('checkAnchors', memory === undefined ? {} : { id: memory })).checks
  }

  async select (request: SelectRequest): Promise<SelectedMemory[]> { return (await this.call('select', request)).selected }

  async follow (input: FollowInput): Promise<Follows> { return await this.call('follow', input) }
  async listTrustRoots (): Promise<TrustRoot[]> { return (await this.call('listTrustRoots', {})).roots }

  async addTrustRoot (did: string): Promise<TrustRoot[]> { return (await this.call('addTrustRoot', { did })).roots }

  async removeTrustRoot (did: string): Promise<TrustRoot[]> { return (await this.call('removeTrustRoot', { did })).roots }

  async reputation (did: string): Promise<AgentReputation> { return await this.call('reputation', { did }) }

  async verify (document: unknown): Promise<DocumentReport | FdrReport> { return await this.call('verify', { document: document as Record<string, unknown> }) as DocumentReport | FdrReport }

  async exportBundle (ids: readonly string[]): Promise<Bundle> { return await this.call('exportBundle', { ids: [...ids] }) }

  async importBundle (bundle: Bundle): Promise<IngestResult> { return await this.call('importBundle', { bundle }) }

  async reindex (): Promise<ReindexResult> { return await this.call('reindex', {}) }

  async proveRecord (id: string): Promise<RecordInclusion> { return await this.call('proveRecord', { id }) }

  async latestCheckpoint (): Promise<SignedCheckpoint> { return await this.call('latestCheckpoint', {}) }

  async observeCheckpoint (checkpoint: SignedCheckpoint): Promise<ObserveOutcome> {
    return (await this.call('observeCheckpoint', { checkpoint })).outcome
  }

  async requestWitnesses ({ memory, ...input }: WitnessRequestInput, signer: Signer): Promise<WitnessRequestResult> {
    return await this.call('requestWitnesses', { id: memory, ...input, ...this.fieldsOf(signer) })
  }

  async inbox (): Promise<InboxItem[]> { return (await this.call('inbox', {})).items }

  async peers (): Promise<PeerInfo[]> { return (await this.call('peers', {})).peers }

  async connectPeer (address: string): Promise<string> { return (await this.call('connectPeer', { address })).peer }

  async disconnectPeer (peer: string): Promise<number> { return (await this.call('disconnectPeer', { peer })).closed }

  async syncPeers (peer?: string): Promise<PeerSync[]> { return (await this.call('syncPeers', peer === undefined ? {} : { peer })).syncs }

  async networkStats (): Promise<NetworkStats> { return await this.call('networkStats', {}) }

  async gossipHealth (): Promise<GossipHealth> { return await this.call('gossipHealth', {}) }

  /**
   * One operation of the table over HTTP: the input is parsed here first, by the same parse the
   * daemon runs (so a bad input fails with the same code before any request), then placed where
   * the operation's HTTP binding says: path parameters, the query string or the JSON body.
   */
  async call<N extends OperationName> (name: N, raw: z.input<(typeof OPERATION_SPECS)[N]['input']>): Promise<z.output<(typeof OPERATION_SPECS)[N]['output']>> {
    const spec = OPERATION_SPECS[name] as unknown as OperationSpec
    const { method, path, ...options } = httpRequestOf(spec, parseOperationInput(spec, raw) as Record<string, unknown>)
    return await this.request(method, path, options)
  }

  /** A signer from `resolveSigner`, or any other by its did alone (the daemon holds the same keys/). */
  private fieldsOf (signer: Signer): SignerFields {
    return this.signers.get(signer) ?? { as: signer.did }
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

/** Key lifecycle inputs over HTTP: the passphrase travels once, with the signer's fields. */
function withoutPassphrase<T extends { passphrase?: string }> (input: T): Omit<T, 'passphrase'> {
  const { passphrase: _passphrase, ...rest } = input
  return rest
}
