import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { gzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createUrlChecker, sha256Hex, type AnchorClaim } from '../../../src/anchor/index.js'

/*
 * anchors-v1 V3's limits against a local HTTP server: size, redirects, status, scheme. The server is
 * on loopback, which checks reach only when allowed (anchors-v1 §9): every checker here allows it.
 */

const LOOPBACK = { allow: ['127.0.0.1'] }

describe('url checks within limits (anchors-v1 V3)', () => {
  let server: Server
  let base: string
  const body = 'x'.repeat(100)

  beforeAll(async () => {
    server = createServer((req, res) => {
      const hops = /^\/loop\/(\d+)$/.exec(req.url ?? '')
      if (hops !== null) res.writeHead(302, { location: `/loop/${Number(hops[1]) + 1}` }).end()
      else if (req.url === '/gzip') res.writeHead(200, { 'content-encoding': 'gzip' }).end(gzipSync(body))
      else if (req.url === '/bomb') res.writeHead(200, { 'content-encoding': 'gzip' }).end(gzipSync('x'.repeat(1_000_000)))
      else if (req.url === '/gone') res.writeHead(404).end('gone')
      else if (req.url === '/chunked') {
        res.writeHead(200) // no content-length: the limit must hold while reading
        res.write(body)
        res.end(body)
      } else res.writeHead(200, { 'content-length': String(body.length) }).end(body)
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })

  afterAll(() => { server.close() })

  const claim = (reference: string): AnchorClaim => ({ type: 'url', reference, hash: `sha2-256:${sha256Hex(new TextEncoder().encode(body))}` })
  const signal = new AbortController().signal

  it('verifies within the limits and refuses a body over them, declared or streamed', async () => {
    expect((await createUrlChecker(LOOPBACK)(claim(`${base}/page`), signal)).state).toBe('verified')
    const small = createUrlChecker({ ...LOOPBACK, maxBytes: 150 })
    expect(await small(claim(`${base}/page`), signal)).toMatchObject({ state: 'verified' })
    expect(await createUrlChecker({ ...LOOPBACK, maxBytes: 50 })(claim(`${base}/page`), signal)).toMatchObject({ state: 'unverifiable', reason: expect.stringMatching(/declares 100 bytes/) })
    expect(await small(claim(`${base}/chunked`), signal)).toMatchObject({ state: 'unverifiable', reason: expect.stringMatching(/more than the limit of 150/) })
    // The body hashed is the decoded one, and the limit counts decoded bytes (a small gzip of 1 MB is refused).
    expect(await small(claim(`${base}/gzip`), signal)).toMatchObject({ state: 'verified' })
    expect(await createUrlChecker({ ...LOOPBACK, maxBytes: 100_000 })(claim(`${base}/bomb`), signal)).toMatchObject({ state: 'unverifiable', reason: expect.stringMatching(/more than the limit of 100000/) })
  })

  it('is unreachable past the redirect limit or on an error status; unverifiable for other schemes', async () => {
    expect(await createUrlChecker({ ...LOOPBACK, maxRedirects: 3 })(claim(`${base}/loop/0`), signal)).toMatchObject({ state: 'unreachable', reason: expect.stringMatching(/more than 3 redirects/) })
    expect(await createUrlChecker(LOOPBACK)(claim(`${base}/gone`), signal)).toMatchObject({ state: 'unreachable', reason: expect.stringMatching(/HTTP 404/) })
    expect((await createUrlChecker(LOOPBACK)(claim('file:///etc/passwd'), signal)).state).toBe('unverifiable')
  })
})
