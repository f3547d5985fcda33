import { mkdtemp, rm, stat, writeFile, chmod, readFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApiServer } from '../../../src/http/index.js'
import { apiTokenPath, loadOrCreateApiToken, readApiToken, tokensEqual } from '../../../src/api-access/index.js'
import { type NodeOperations } from '../../../src/operations/index.js'
import { IsnadError } from '../../../src/errors/index.js'
import { startApi, type ApiFixture } from './api-fixture.js'

async function codeOf (promise: Promise<unknown>): Promise<string | undefined> {
  const error = await promise.then(() => undefined, (err: unknown) => err)
  return error instanceof IsnadError ? error.code : undefined
}

describe('createApiServer', () => {
  let api: ApiFixture

  beforeAll(async () => { api = await startApi() })
  afterAll(async () => { await api.stop() })

  it('listens on 127.0.0.1 and refuses any other host with USAGE', async () => {
    expect(api.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    const node = api.operations as NodeOperations
    for (const host of ['0.0.0.0', 'localhost', '::1', '::', '192.168.1.10', '127.0.0.2']) {
      expect(await codeOf(createApiServer({ node, token: api.token, host })), host).toBe('USAGE')
    }
  })

  it('refuses a token too short to be a secret', async () => {
    expect(await codeOf(createApiServer({ node: api.operations, token: 'short' }))).toBe('USAGE')
  })

  it('reports a port in use as ADDRESS_IN_USE', async () => {
    const port = Number(new URL(api.url).port)
    expect(await codeOf(createApiServer({ node: api.operations, token: api.token, port }))).toBe('ADDRESS_IN_USE')
  })

  it('closes idempotently, and stops answering', async () => {
    const server = await createApiServer({ node: api.operations, token: api.token })
    await Promise.all([server.close(), server.close()])
    await expect(fetch(`${server.url}/v1/status`)).rejects.toThrow()
  })
})

describe('the API token', () => {
  let dir: string

  beforeAll(async () => { dir = await mkdtemp(join(tmpdir(), 'isnad-token-')) })
  afterAll(async () => { await rm(dir, { recursive: true, force: true }) })

  it('is created once, 32 random bytes as base64url, mode 0600, and read back by clients', async () => {
    const data = join(dir, '.memory')
    expect(await codeOf(readApiToken(data))).toBe('NOT_FOUND')
    const token = await loadOrCreateApiToken(data)
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(Buffer.from(token, 'base64url')).toHaveLength(32)
    expect((await stat(apiTokenPath(data))).mode & 0o777).toBe(0o600)
    expect(await loadOrCreateApiToken(data)).toBe(token)
    expect(await readApiToken(data)).toBe(token)
  })

  it('gives every concurrent caller the same token', async () => {
    const data = join(dir, 'race')
    const tokens = await Promise.all(Array.from({ length: 8 }, async () => await loadOrCreateApiToken(data)))
    expect(new Set(tokens).size).toBe(1)
    expect(await readApiToken(data)).toBe(tokens[0])
  })

  it('replaces a token file others can read, and refuses a malformed one', async () => {
    const data = join(dir, 'loose')
    const first = await loadOrCreateApiToken(data)
    await chmod(apiTokenPath(data), 0o644)
    const second = await loadOrCreateApiToken(data)
    expect(second).not.toBe(first)
    expect((await stat(apiTokenPath(data))).mode & 0o777).toBe(0o600)
    expect((await readFile(apiTokenPath(data), 'utf8')).trim()).toBe(second)
    await writeFile(apiTokenPath(data), 'not a token\n', { mode: 0o600 })
    expect(await codeOf(readApiToken(data))).toBe('IO_ERROR')
  })

  it('compares tokens by value only', () => {
    expect(tokensEqual('a'.repeat(43), 'a'.repeat(43))).toBe(true)
    expect(tokensEqual('a'.repeat(43), 'a'.repeat(42) + 'b')).toBe(false)
    expect(tokensEqual('', 'a'.repeat(43))).toBe(false)
  })
})
