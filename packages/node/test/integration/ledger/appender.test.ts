import { readFile, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { isIsnadError } from '../../../src/errors/index.js'
import { JsonlAppender } from '../../../src/ledger/index.js'
import { createTempDataDir } from './helpers.js'

describe('JsonlAppender: durable appends with group commit', () => {
  let dir: { dataDir: string, remove: () => Promise<void> }
  let path: string

  beforeEach(async () => {
    dir = await createTempDataDir('appender')
    path = join(dir.dataDir, 'coordination', 'deep', 'test.jsonl')
  })
  afterEach(async () => { await dir.remove() })

  it('creates the file and its directories, appends lines in order, keeps what was there', async () => {
    const first = new JsonlAppender(path)
    await first.append(['{"n":1}', '{"n":2}'])
    await first.close()
    const second = new JsonlAppender(path)
    expect(await second.durableSize()).toBe(16)
    await second.appendObjects([{ n: 3 }])
    await second.close()
    expect(await readFile(path, 'utf8')).toBe('{"n":1}\n{"n":2}\n{"n":3}\n')
  })

  it('batches appends issued while a sync is in flight into one write + fdatasync', async () => {
    const appender = new JsonlAppender(path)
    await appender.ready()
    const calls = Array.from({ length: 500 }, async (_, i) => { await appender.append([JSON.stringify({ i })]) })
    await Promise.all(calls)
    // All 500 were issued in one tick: the first flush carries them all.
    expect(appender.stats).toMatchObject({ lines: 500, syncs: 1, writes: 1 })
    // A steady stream of concurrent callers: each sync carries whatever arrived during the previous one.
    let issued = 0
    const worker = async (): Promise<void> => {
      while (issued < 2000) await appender.append([JSON.stringify({ i: issued++ })])
    }
    await Promise.all(Array.from({ length: 32 }, worker))
    expect(appender.stats.lines).toBe(500 + issued)
    expect(appender.stats.syncs).toBeLessThan(issued / 8)
    await appender.close()
    const lines = (await readFile(path, 'utf8')).trimEnd().split('\n')
    expect(lines).toHaveLength(500 + issued)
    expect(await appender.durableSize().catch(() => -1)).toBe((await stat(path)).size)
  })

  it('splits a flush at maxFlushBytes and resolves a call only when its last line is durable', async () => {
    const appender = new JsonlAppender(path, { maxFlushBytes: 100 })
    await appender.append(Array.from({ length: 10 }, (_, i) => JSON.stringify({ pad: 'x'.repeat(30), i })))
    expect(appender.stats.syncs).toBeGreaterThanOrEqual(4)
    expect(appender.stats.lines).toBe(10)
    await appender.close()
  })

  it('refuses a line with a newline, a line over the limit, and appends after close', async () => {
    const appender = new JsonlAppender(path, { maxLineBytes: 64 })
    await expect(appender.append(['{"a":"\n"}'])).rejects.toMatchObject({ code: 'USAGE' })
    await expect(appender.append([JSON.stringify({ x: 'y'.repeat(100) })])).rejects.toMatchObject({ code: 'RECORD_TOO_LARGE' })
    await appender.close()
    const error = await appender.append(['{}']).catch((err: unknown) => err)
    expect(isIsnadError(error, 'STORE_CLOSED')).toBe(true)
  })

  it('fails every later append after an I/O failure (no retry after a failed fsync)', async () => {
    const blocker = new JsonlAppender(join(dir.dataDir, 'file-not-dir.jsonl'))
    await blocker.append(['{}'])
    // its directory is a file: opening fails, and the appender stays failed
    const appender = new JsonlAppender(join(dir.dataDir, 'file-not-dir.jsonl', 'x.jsonl'))
    await expect(appender.append(['{}'])).rejects.toMatchObject({ code: 'IO_ERROR' })
    await expect(appender.append(['{}'])).rejects.toMatchObject({ code: 'IO_ERROR' })
    await blocker.close()
    await appender.close()
  })

  it('appends pre-encoded lines byte for byte, in call order with string lines, split at maxFlushBytes', async () => {
    const appender = new JsonlAppender(path, { maxFlushBytes: 100 })
    const lines = Array.from({ length: 10 }, (_, i) => JSON.stringify({ pad: 'é'.repeat(20), i }))
    const encoded = Buffer.from(lines.slice(2).map((l) => `${l}\n`).join(''), 'utf8')
    await Promise.all([appender.append(lines.slice(0, 2)), appender.appendEncoded(encoded), appender.appendEncoded(Buffer.alloc(0))])
    // 8 encoded lines of 51 bytes: no write over 100 bytes, so at least 4 syncs for them.
    expect(appender.stats.lines).toBe(10)
    expect(appender.stats.syncs).toBeGreaterThanOrEqual(5)
    await appender.close()
    const written = await readFile(path)
    expect(written.toString('utf8')).toBe(lines.map((l) => `${l}\n`).join(''))
    expect(appender.stats.bytes).toBe(written.length)
  })

  it('refuses pre-encoded bytes that do not end a line, or hold a line over the limit, and writes none of them', async () => {
    const appender = new JsonlAppender(path, { maxLineBytes: 16 })
    await expect(appender.appendEncoded(Buffer.from('{"a":1}'))).rejects.toMatchObject({ code: 'USAGE' })
    await expect(appender.appendEncoded(Buffer.from('{"a":1}\n{"b":"0123456789"}\n'))).rejects.toMatchObject({ code: 'RECORD_TOO_LARGE' })
    await appender.appendEncoded(Buffer.from('{"a":1}\n\n{"b":2}\n'))
    expect(appender.stats.lines).toBe(3)
    await appender.close()
    expect(await readFile(path, 'utf8')).toBe('{"a":1}\n\n{"b":2}\n')
    await expect(appender.appendEncoded(Buffer.from('{}\n'))).rejects.toMatchObject({ code: 'STORE_CLOSED' })
  })
})
