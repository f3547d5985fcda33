import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { retryingFetch } from '../../src/pools/stale-socket.js'

/*
 * The driver's fetch against a server that closes the connection of every other request without
 * answering, as a node does to a keep-alive connection it has just timed out: a read is sent again,
 * a write is not.
 */

let server: Server
let url: string
let requests = 0

beforeAll(async () => {
  server = createServer((req, res) => {
    requests++
    if (requests % 2 === 1) { req.socket.destroy(); return }
    res.end(JSON.stringify({ method: req.method }))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`
})
afterAll(async () => { await new Promise((resolve) => server.close(resolve)) })

describe('retryingFetch', () => {
  it('sends a GET once more when the connection closes before any answer', async () => {
    requests = 0
    expect(await (await retryingFetch(url)).json()).toEqual({ method: 'GET' })
    expect(requests).toBe(2)
  })

  it('does not repeat a POST: the node may have acted on it', async () => {
    requests = 0
    await expect(retryingFetch(url, { method: 'POST', body: '{}' })).rejects.toThrow()
    expect(requests).toBe(1)
  })
})
