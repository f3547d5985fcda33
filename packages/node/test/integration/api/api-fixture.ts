import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createApiServer, type ApiServer, type ApiServerInit } from '../../../src/http/index.js'
import { loadOrCreateApiToken } from '../../../src/api-access/index.js'
import { createApiEventHub, type ApiEventHub, type NodeOperations } from '../../../src/operations/index.js'
import { createLocalOperations, type LocalOperations } from '../../../src/operations/local/index.js'
import { createKeystore, type Keystore } from '../../../src/keystore/index.js'
import { LocalNode, initHome } from '../../../src/node/index.js'

/** A real node home, LocalNode, keystore and API server on 127.0.0.1, torn down by `stop`. */
export interface ApiFixture {
  home: string
  token: string
  url: string
  server: ApiServer
  operations: LocalOperations
  keystore: Keystore
  hub: ApiEventHub
  /** The home's default agent. */
  author: string
  /** A second local agent, so the node can witness its own author's memories. */
  witness: string
  /** `fetch` with the bearer token; `body` objects are sent as JSON. */
  call: (method: string, path: string, body?: unknown, headers?: Record<string, string>) => Promise<Response>
  stop: () => Promise<void>
}

export interface FixtureOptions {
  /** Wraps the local operations, e.g. to stand in for the network node. */
  wrap?: (local: LocalOperations, hub: ApiEventHub) => NodeOperations
  /** Server settings: extra host names, request budgets. */
  server?: Pick<ApiServerInit, 'hostNames' | 'limits' | 'anyHost'>
}

export async function startApi (options: FixtureOptions = {}): Promise<ApiFixture> {
  const home = await mkdtemp(join(tmpdir(), 'isnad-api-'))
  const init = await initHome(home)
  // Encrypting keys with the default scrypt cost takes 0.1 s each; tests need no such cost.
  const keystore = createKeystore({ directory: init.paths.keys, scrypt: { N: 2 ** 10 } })
  const witness = (await keystore.create({ label: 'witness', makeDefault: false })).did
  const hub = createApiEventHub()
  const operations = createLocalOperations({ node: await LocalNode.open({ home }), home, keystore, events: hub })
  const token = await loadOrCreateApiToken(init.paths.data)
  const server = await createApiServer({ node: options.wrap?.(operations, hub) ?? operations, token, events: hub, ...options.server })
  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Response> => {
    const init: RequestInit = { method, headers: { authorization: `Bearer ${token}`, ...headers } }
    if (body !== undefined) {
      init.body = typeof body === 'string' ? body : JSON.stringify(body)
      init.headers = { 'content-type': 'application/json', ...init.headers as Record<string, string> }
    }
    return await fetch(`${server.url}${path}`, init)
  }
  return {
    home,
    token,
    url: server.url,
    server,
    operations,
    keystore,
    hub,
    author: init.defaultKey.did,
    witness,
    call,
    stop: async () => {
      await server.close()
      await operations.close()
      await rm(home, { recursive: true, force: true })
    }
  }
}

/** The JSON body of a response, with its status, for one-line assertions. */
export async function jsonOf<T = Record<string, unknown>> (response: Response): Promise<{ status: number, body: T }> {
  return { status: response.status, body: await response.json() as T }
}

/** Record counts, through the API. */
export async function countsOf (fixture: ApiFixture): Promise<Record<string, number>> {
  const { body } = await jsonOf<{ records: Record<string, number> }>(await fixture.call('GET', '/v1/status'))
  return body.records
}
