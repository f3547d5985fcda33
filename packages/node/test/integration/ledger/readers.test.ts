import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { readEntries, readRawLines, validateOperationalLine, withLineHash } from '../../../src/ledger/index.js'
import { collect, createTempDataDir } from './helpers.js'

const good = (n: number): string => JSON.stringify(withLineHash({ n })) + '\n'

describe('reading ledger files line by line (spec §2: auditable, partially recoverable)', () => {
  let dir: { dataDir: string, remove: () => Promise<void> }
  let root: string

  beforeEach(async () => {
    dir = await createTempDataDir('readers')
    root = join(dir.dataDir, '..')
  })
  afterEach(async () => { await dir.remove() })

  it('gives every line its byte offset and number, across read chunks', async () => {
    const lines = Array.from({ length: 5000 }, (_, i) => good(i))
    const path = join(root, 'many.jsonl')
    await writeFile(path, lines.join(''))
    let offset = 0
    let n = 0
    for await (const raw of readRawLines(path)) {
      expect(raw).toMatchObject({ offset, line: ++n, terminated: true })
      expect(raw.bytes.toString() + '\n').toBe(lines[n - 1])
      offset += (lines[n - 1] as string).length
    }
    expect(n).toBe(5000)
  })

  it('reads no further than a limit, reports bad UTF-8, JSON, hash and an unterminated end', async () => {
    const path = join(root, 'mixed.jsonl')
    const bad = Buffer.from([0xff, 0xfe, 0x0a])
    await writeFile(path, Buffer.concat([Buffer.from(good(1)), bad, Buffer.from('not json\n{"n":2,"hash":"sha256:00"}\n' + good(3) + '{"n":4')]))
    const entries = await collect(readEntries(path, validateOperationalLine))
    expect(entries.map((e) => e.kind === 'corrupt' ? e.reason : e.kind)).toEqual(['record', 'utf8', 'json', 'hash', 'record', 'torn_tail'])
    const limited = await collect(readEntries(path, validateOperationalLine, { limit: good(1).length }))
    expect(limited.map((e) => e.kind)).toEqual(['record'])
  })

  it('reads .jsonl.gz archives, and reports where a damaged archive stops being readable', async () => {
    const text = good(1) + good(2) + good(3)
    const gz = gzipSync(text)
    const whole = join(root, 'a.jsonl.gz')
    await writeFile(whole, gz)
    expect((await collect(readEntries(whole, validateOperationalLine))).map((e) => e.kind)).toEqual(['record', 'record', 'record'])
    const cut = join(root, 'b.jsonl.gz')
    await writeFile(cut, gz.subarray(0, gz.length - 12))
    const entries = await collect(readEntries(cut, validateOperationalLine))
    expect(entries.at(-1)).toMatchObject({ kind: 'corrupt', reason: 'archive' })
  })

  it('reads a missing file as empty', async () => {
    expect(await collect(readEntries(join(root, 'none.jsonl'), validateOperationalLine))).toEqual([])
  })
})
