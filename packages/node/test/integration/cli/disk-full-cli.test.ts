import { execFileSync } from 'node:child_process'
import { mkdtemp, open, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt } from '../../fixtures/build-dist.js'
import { runIsnad } from './run-cli.js'

/*
 * A full disk for real: a node home on a small tmpfs, filled to the last byte. `isnad remember` is
 * DISK_FULL, the memory acknowledged before is kept, `isnad ledger verify` finds the ledger whole,
 * and writes resume once the filler is removed. Mounting needs root (CAP_SYS_ADMIN); elsewhere the
 * test is skipped and test/integration/node/disk-full.test.ts, which injects ENOSPC, still runs.
 */

const SIZE = '4m'

/** Mounts a tmpfs of SIZE on `dir`; false when this process may not mount. */
function tryMount (dir: string): boolean {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return false
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${SIZE}`, 'tmpfs', dir], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}

/** Writes zeros to `path` until the file system refuses with ENOSPC. */
async function fill (path: string): Promise<void> {
  const handle = await open(path, 'w')
  const chunk = Buffer.alloc(64 * 1024)
  try {
    for (;;) {
      try {
        await handle.write(chunk)
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOSPC') break
        throw err
      }
    }
    // The last partial chunk: byte by byte down to nothing.
    for (let size = chunk.length / 2; size >= 1; size = Math.floor(size / 2)) {
      try {
        await handle.write(chunk.subarray(0, size))
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err
      }
    }
  } finally {
    await handle.close()
  }
}

describe('a full disk under a node home (a small tmpfs)', () => {
  let dir: string
  let mounted = false

  beforeAll(async () => {
    ensureBuilt()
    dir = await mkdtemp(join(tmpdir(), 'isnad-full-disk-'))
    mounted = tryMount(dir)
  }, 300_000)

  afterAll(async () => {
    if (mounted) execFileSync('umount', [dir], { stdio: 'ignore' })
    await rm(dir, { recursive: true, force: true })
  })

  it('is DISK_FULL, keeps what was acknowledged, leaves the ledger whole, and writes resume once space is freed', async (ctx) => {
    if (!mounted) ctx.skip()
    const home = join(dir, 'home')
    expect((await runIsnad(['init'], { home })).code).toBe(0)
    const kept = (await runIsnad(['--json', 'remember', 'written before the disk filled'], { home })).json<{ id: string }>()

    const filler = join(dir, 'filler')
    await fill(filler)
    const refused = await runIsnad(['--json', 'remember', 'written on a full disk'], { home })
    expect(refused.code, refused.stderr).toBe(1)
    expect(refused.errorCode(), refused.stderr).toBe('DISK_FULL')
    const { error } = JSON.parse(refused.stderr.trim().split('\n').find((l) => l.startsWith('{')) ?? '{}') as { error: { message: string } }
    expect(error.message).toMatch(/the disk is full.*Nothing acknowledged was lost.*writes resume once space is freed/)

    await rm(filler)
    const show = await runIsnad(['--json', 'show', kept.id], { home })
    expect(show.code, show.stderr).toBe(0)
    const after = await runIsnad(['--json', 'remember', 'written once space was freed'], { home })
    expect(after.code, after.stderr).toBe(0)
    const verify = await runIsnad(['--json', 'ledger', 'verify'], { home })
    expect(verify.code, verify.stdout + verify.stderr).toBe(0)
  }, 120_000)
})
