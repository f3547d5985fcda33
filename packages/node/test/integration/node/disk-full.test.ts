import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { IsnadError } from '../../../src/errors/index.js'
import { LocalNode, initHome } from '../../../src/node/index.js'
import { createAgent } from '../../fixtures/records.js'
import { auditHome } from './audit-home.js'

/*
 * A full disk, injected: while `disk.full` is set, the ledger appender's next write(2) takes half the
 * bytes asked (a real short write, as a filling disk gives) and every later one fails with ENOSPC
 * (or EDQUOT). The node must say DISK_FULL, keep every acknowledged memory, leave the ledger whole,
 * and write again once space is back.
 */
const disk = vi.hoisted(() => ({ full: false, errno: 'ENOSPC', shortWriteDone: false, refused: 0 }))

vi.mock('node:fs', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs')>()
  type WriteCallback = (err: NodeJS.ErrnoException | null, written: number) => void
  const write = (...args: unknown[]): void => {
    const callback = args[args.length - 1] as WriteCallback
    if (!disk.full || typeof callback !== 'function' || !(args[1] instanceof Uint8Array)) {
      Reflect.apply(real.write, undefined, args)
      return
    }
    const [fd, buffer, offset, length] = args as [number, Uint8Array, number, number]
    if (!disk.shortWriteDone && length > 1) {
      disk.shortWriteDone = true
      real.write(fd, buffer, offset, Math.floor(length / 2), null, callback)
      return
    }
    disk.refused++
    const err: NodeJS.ErrnoException = Object.assign(new Error(`${disk.errno}: no space left on device, write`), { code: disk.errno, errno: -28, syscall: 'write' })
    queueMicrotask(() => { callback(err, 0) })
  }
  return { ...real, default: { ...real, write }, write }
})

const alice = createAgent(40)
const signer = { did: alice.did, secretKey: alice.secretKey }

describe.each(['ENOSPC', 'EDQUOT'])('a full disk (%s, injected)', (errno) => {
  let home: string

  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'isnad-disk-full-'))
    await initHome(home)
    Object.assign(disk, { full: false, errno, shortWriteDone: false, refused: 0 })
  })

  afterEach(async () => {
    disk.full = false
    await rm(home, { recursive: true, force: true })
  })

  it('is DISK_FULL saying so, loses no acknowledged memory, leaves the ledger whole, and writes resume once space is freed', async () => {
    let node = await LocalNode.open({ home })
    const kept = await node.remember({ type: 'fact', summary: 'written before the disk filled' }, signer)

    disk.full = true
    const refused = await node.remember({ type: 'fact', summary: 'written on a full disk' }, signer).catch((err: unknown) => err)
    expect(refused, errno).toBeInstanceOf(IsnadError)
    expect((refused as IsnadError).code, errno).toBe('DISK_FULL')
    expect((refused as IsnadError).message, errno).toMatch(/the disk is full/)
    expect((refused as IsnadError).message, errno).toMatch(/nothing acknowledged was lost/i)
    expect((refused as IsnadError).message, errno).toMatch(/writes resume once space is freed/)
    expect(disk.refused, errno).toBeGreaterThan(0)
    // Still full: refused again, with the same code.
    const again = await node.remember({ type: 'fact', summary: 'still full' }, signer).catch((err: unknown) => err)
    expect((again as IsnadError).code, errno).toBe('DISK_FULL')
    // Closing still writes (the session's last lines): refused as DISK_FULL, yet every part is closed.
    const closing = await node.close().then(() => undefined, (err: unknown) => err)
    if (closing !== undefined) expect((closing as IsnadError).code, errno).toBe('DISK_FULL')

    // Space is freed: the next open recovers the torn tail the short write left, and writes go on.
    disk.full = false
    node = await LocalNode.open({ home })
    try {
      expect((await node.show(kept.id)).id, errno).toBe(kept.id)
      const after = await node.remember({ type: 'fact', summary: 'written once space was freed' }, signer)
      expect((await node.show(after.id)).id, errno).toBe(after.id)
      expect((await node.store.count()).memory, errno).toBe(2)
    } finally {
      await node.close()
    }
    const report = await auditHome(home)
    expect(report.status, errno).not.toBe('corrupt')
    expect(report.findings.filter((f) => f.severity === 'error').map((f) => `${f.kind}: ${f.message}`), errno).toEqual([])
  }, 60_000)
})
