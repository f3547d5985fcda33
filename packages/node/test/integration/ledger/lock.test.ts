import { spawn, spawnSync } from 'node:child_process'
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises'
import { hostname } from 'node:os'
import { dirname, join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { isIsnadError } from '../../../src/errors/index.js'
import { openEventLedger, writerLockPath, type EventLedger, type WriterLockInfo } from '../../../src/ledger/index.js'
import { createTempDataDir, eventInput, readJsonLines, steppingClock } from './helpers.js'

const INS = `ins_${'d'.repeat(26)}`

function lockInfo (pid: number, over: Partial<WriterLockInfo> = {}): WriterLockInfo {
  return { pid, hostname: hostname(), instance_id: INS, run_id: `run_${'e'.repeat(26)}`, lease_id: `lse_${'f'.repeat(26)}`, started_at: '2026-02-01T00:00:00Z', ...over }
}

/** The pid of a process that has exited: nothing runs under it (for a while). */
function deadPid (): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' })
  return Number(child.stdout)
}

async function writeLock (dataDir: string, info: WriterLockInfo): Promise<void> {
  await mkdir(dirname(writerLockPath(dataDir)), { recursive: true })
  await writeFile(writerLockPath(dataDir), JSON.stringify(info))
}

async function exists (path: string): Promise<boolean> {
  return await stat(path).then(() => true, () => false)
}

describe('the single-writer lock', () => {
  let dir: { dataDir: string, remove: () => Promise<void> }
  const open: EventLedger[] = []

  beforeEach(async () => { dir = await createTempDataDir('lock') })
  afterEach(async () => {
    for (const l of open.splice(0)) await l.close()
    await dir.remove()
  })

  async function openLedger (scope = 'default'): Promise<EventLedger> {
    const l = await openEventLedger({ dataDir: dir.dataDir, scope, clock: steppingClock() })
    open.push(l)
    return l
  }

  it('holds coordination/writer.lock while open, records the lease, releases on close', async () => {
    const l = await openLedger()
    const lock = JSON.parse(await readFile(writerLockPath(dir.dataDir), 'utf8')) as WriterLockInfo
    expect(lock).toMatchObject({ pid: process.pid, hostname: hostname(), instance_id: l.instanceId, run_id: l.runId })
    await l.close()
    expect(await exists(writerLockPath(dir.dataDir))).toBe(false)
    const leases = await readJsonLines(join(dir.dataDir, 'coordination/leases.jsonl'))
    expect(leases.map((x) => x.kind)).toEqual(['acquired', 'released'])
    expect(leases.every((x) => x.lease_id === lock.lease_id)).toBe(true)
    const instances = await readJsonLines(join(dir.dataDir, 'coordination/instances.jsonl'))
    expect(instances.map((x) => x.kind)).toEqual(['registered', 'seen'])
  })

  it('keeps the instance id of the data directory across runs, with a new run id each time', async () => {
    const first = await openLedger()
    await first.close()
    const second = await openLedger()
    expect(second.instanceId).toBe(first.instanceId)
    expect(second.runId).not.toBe(first.runId)
    const instances = await readJsonLines(join(dir.dataDir, 'coordination/instances.jsonl'))
    expect(instances.map((x) => x.kind)).toEqual(['registered', 'seen', 'seen'])
  })

  it('lets a reopen wait for a close that is still releasing the lock', async () => {
    const first = await openEventLedger({ dataDir: dir.dataDir, scope: 'default', clock: steppingClock() })
    const closed = first.close()
    const second = await openLedger()
    await closed
    expect(second.instanceId).toBe(first.instanceId)
    expect(await exists(writerLockPath(dir.dataDir))).toBe(true)
  })

  it('refuses a second writer of the same scope in this process with LEDGER_LOCKED', async () => {
    await openLedger()
    const error = await openLedger().catch((err: unknown) => err)
    expect(isIsnadError(error, 'LEDGER_LOCKED')).toBe(true)
  })

  it('shares one lock and run between scopes of one process, released by the last to close', async () => {
    const a = await openLedger('a')
    const b = await openLedger('b')
    expect(b.instanceId).toBe(a.instanceId)
    expect(b.runId).toBe(a.runId)
    await a.close()
    expect(await exists(writerLockPath(dir.dataDir))).toBe(true)
    await b.append([eventInput(1)])
    await b.close()
    expect(await exists(writerLockPath(dir.dataDir))).toBe(false)
  })

  it('refuses with LEDGER_LOCKED naming the pid when another live process holds the lock', async () => {
    const holder = spawn('sleep', ['30'])
    try {
      await writeLock(dir.dataDir, lockInfo(holder.pid ?? 0))
      const error = await openLedger().catch((err: unknown) => err)
      expect(isIsnadError(error, 'LEDGER_LOCKED')).toBe(true)
      expect((error as Error).message).toContain(`pid ${holder.pid}`)
      expect(await exists(writerLockPath(dir.dataDir))).toBe(true)
    } finally {
      holder.kill('SIGKILL')
    }
  })

  it('refuses an unreadable lock instead of guessing', async () => {
    await mkdir(join(dir.dataDir, 'coordination'), { recursive: true })
    await writeFile(writerLockPath(dir.dataDir), 'garbage')
    const error = await openLedger().catch((err: unknown) => err)
    expect(isIsnadError(error, 'LEDGER_LOCKED')).toBe(true)
  })

  for (const [name, pid] of [['a dead pid', deadPid], ['our own pid, from a previous process (container restart)', () => process.pid]] as const) {
    it(`takes over a stale lock held by ${name}, records it and returns it for a handoff`, async () => {
      const stale = lockInfo(pid())
      await writeLock(dir.dataDir, stale)
      const l = await openLedger()
      expect(l.takeover).toEqual(stale)
      const leases = await readJsonLines(join(dir.dataDir, 'coordination/leases.jsonl'))
      expect(leases).toHaveLength(1)
      expect(leases[0]).toMatchObject({ kind: 'taken_over', previous: stale, run_id: l.runId })
      expect(String(leases[0]?.lease_id)).toMatch(/^lse_[a-z2-7]{26}$/)
      const [handoff] = await l.append([eventInput('handoff', { type: 'memory.handoff', payload: { from: stale } })])
      expect(handoff?.appended).toBe(true)
    })
  }

  it('recovers from a takeover that crashed half way (a guard left by a dead process)', async () => {
    const stale = lockInfo(deadPid())
    await writeLock(dir.dataDir, stale)
    await writeFile(`${writerLockPath(dir.dataDir)}.takeover`, JSON.stringify(lockInfo(deadPid(), { lease_id: `lse_${'g'.repeat(26)}` })))
    const l = await openLedger()
    expect(l.takeover).toEqual(stale)
    expect(await exists(`${writerLockPath(dir.dataDir)}.takeover`)).toBe(false)
  })

  it('refuses a lock held on another host: its process cannot be probed from here', async () => {
    await writeLock(dir.dataDir, lockInfo(deadPid(), { hostname: 'elsewhere.example' }))
    const error = await openLedger().catch((err: unknown) => err)
    expect(isIsnadError(error, 'LEDGER_LOCKED')).toBe(true)
    expect((error as Error).message).toContain('elsewhere.example')
  })
})
