import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { isIsnadError } from '../../../src/errors/index.js'
import { inspectTail, validateOperationalLine, withLineHash } from '../../../src/ledger/index.js'
import { createTempDataDir } from './helpers.js'

const good = (n: number): string => JSON.stringify(withLineHash({ n })) + '\n'

describe('inspectTail: where the intact part of a ledger file ends', () => {
  let dir: { dataDir: string, remove: () => Promise<void> }
  let path: string

  beforeEach(async () => {
    dir = await createTempDataDir('tail')
    path = join(dir.dataDir, '..', 'file.jsonl')
  })
  afterEach(async () => { await dir.remove() })

  async function inspect (content: string | Buffer, maxTornBytes?: number): Promise<Awaited<ReturnType<typeof inspectTail>>> {
    await writeFile(path, content)
    return await inspectTail(path, validateOperationalLine, maxTornBytes === undefined ? {} : { maxTornBytes })
  }

  it('finds nothing torn in a healthy, an empty or a missing file', async () => {
    const text = good(1) + good(2)
    expect(await inspect(text)).toMatchObject({ size: text.length, validEnd: text.length, reason: undefined, last: { n: 2 } })
    expect(await inspect('')).toMatchObject({ size: 0, validEnd: 0 })
    expect(await inspectTail(join(path, '..', 'missing.jsonl'), validateOperationalLine)).toMatchObject({ size: 0, validEnd: 0 })
  })

  it('cuts an unterminated last line, even one that is valid JSON (its write never finished)', async () => {
    const head = good(1) + good(2)
    expect(await inspect(head + '{"n":3,"ha')).toMatchObject({ validEnd: head.length, reason: 'unterminated', last: { n: 2 } })
    expect(await inspect(head + good(3).trimEnd())).toMatchObject({ validEnd: head.length, reason: 'unterminated' })
  })

  it('cuts zeros left by unwritten pages after a power loss, and several bad lines at the end', async () => {
    const head = good(1)
    expect(await inspect(Buffer.concat([Buffer.from(head), Buffer.alloc(4096)]))).toMatchObject({ validEnd: head.length, reason: 'unterminated' })
    expect(await inspect(head + '{"n":2,"hash":"sha256:00"}\n' + 'garbage\n')).toMatchObject({ validEnd: head.length, reason: 'json' })
    expect(await inspect('garbage\n')).toMatchObject({ validEnd: 0, reason: 'json', last: undefined })
  })

  it('stops at the last valid line: a bad line before it is mid-file damage, not a torn tail', async () => {
    const text = good(1) + 'garbage\n' + good(3)
    expect(await inspect(text)).toMatchObject({ validEnd: text.length, reason: undefined })
  })

  it('refuses an invalid suffix longer than one unsynced write with LEDGER_CORRUPT', async () => {
    const error = await inspect(good(1) + 'x'.repeat(300) + '\n' + 'y'.repeat(300) + '\n', 256).catch((err: unknown) => err)
    expect(isIsnadError(error, 'LEDGER_CORRUPT')).toBe(true)
  })

  it('looks past the first probe window when the torn region is large', async () => {
    const head = good(1)
    const state = await inspect(head + 'z'.repeat(100 * 1024))
    expect(state).toMatchObject({ validEnd: head.length, reason: 'unterminated' })
  })
})
