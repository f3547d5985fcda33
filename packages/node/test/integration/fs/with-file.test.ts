import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { IsnadError } from '../../../src/errors/index.js'
import { withFile } from '../../../src/fs/index.js'

/* withFile on real files in a temp directory: the value, the handle closed, the errors it gives. */

let dir: string
beforeEach(async () => { dir = await mkdtemp(join(tmpdir(), 'isnad-with-file-')) })
afterEach(async () => { await rm(dir, { recursive: true, force: true }) })

describe('withFile', () => {
  it('returns what the work returns and closes the handle', async () => {
    const path = join(dir, 'a.txt')
    await writeFile(path, 'hello\n')
    let kept: { fd: number } | undefined
    const size = await withFile(path, { flags: 'r', action: 'read' }, async (handle) => {
      kept = handle
      return (await handle.stat()).size
    })
    expect(size).toBe(6)
    expect(kept?.fd, 'a closed FileHandle has fd -1').toBe(-1)
  })

  it('opens with the flags and mode given', async () => {
    const path = join(dir, 'b.txt')
    await withFile(path, { flags: 'w', mode: 0o600, action: 'write' }, async (handle) => { await handle.writeFile('written') })
    expect(await readFile(path, 'utf8')).toBe('written')
  })

  it('gives ifMissing for a file that does not exist, and IO_ERROR naming the action without it', async () => {
    const path = join(dir, 'absent.txt')
    expect(await withFile(path, { flags: 'r', action: 'read', ifMissing: 'none' }, async () => 'found')).toBe('none')
    const failed = withFile(path, { flags: 'r', action: 'read' }, async () => 'found')
    await expect(failed).rejects.toMatchObject({ code: 'IO_ERROR', message: `cannot read ${path}: ENOENT` })
  })

  it('passes an IsnadError of the work through as it is, and closes the handle', async () => {
    const path = join(dir, 'c.txt')
    await writeFile(path, 'x')
    let kept: { fd: number } | undefined
    const refusal = new IsnadError('LEDGER_CORRUPT', 'torn')
    await expect(withFile(path, { flags: 'r', action: 'read' }, async (handle) => { kept = handle; throw refusal })).rejects.toBe(refusal)
    expect(kept?.fd).toBe(-1)
  })

  it('turns another failure of the work into IO_ERROR with the action', async () => {
    const path = join(dir, 'd.txt')
    await writeFile(path, 'x')
    await expect(withFile(path, { flags: 'r', action: 'truncate' }, async (handle) => { await handle.truncate(0) }))
      .rejects.toMatchObject({ code: 'IO_ERROR', message: expect.stringMatching(/^cannot truncate /) as unknown })
  })
})
