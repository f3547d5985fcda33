import { realpath } from 'node:fs/promises'
import { hostname } from 'node:os'
import { IsnadError } from '../errors/index.js'
import { JsonlAppender } from './appender.js'
import {
  validateInstanceLine, validateLeaseLine, validateOperationalLine, type TornTailFinding, type WriterLockInfo
} from './coordination-schema.js'
import { readEntries } from './entries.js'
import { ioError } from '../fs/index.js'
import { withLineHash } from './line-hash.js'
import { randomId, type RandomBytes } from './ids.js'
import { createDataLayout, ledgerFilePath, writerLockPath } from './layout.js'
import { acquireWriterLock, releaseWriterLock } from './writer-lock.js'
import { recoverTail, type RecoveryContext } from './recovery.js'

/**
 * One process's hold on one data directory: the writer lock, the lease, the instance id and run id,
 * and the appenders of the operational ledgers it writes (spec §10). Event ledgers of several scopes
 * in one process share it (one lock, one run); the last to close releases it.
 */

export interface SessionInit {
  dataDir: string
  scope: string
  /** Milliseconds since the epoch. */
  clock: () => number
  random: RandomBytes
}

export interface DataDirSession {
  dataDir: string
  instanceId: string
  runId: string
  lock: WriterLockInfo
  /** The dead holder whose stale lock this session replaced (spec §5 `memory.handoff`). */
  takenOver: WriterLockInfo | undefined
  /** Torn tails of the operational ledgers recovered at open. */
  findings: TornTailFinding[]
  recovery: RecoveryContext
}

interface Entry {
  session: Promise<Opened>
  scopes: Set<string>
}

interface Opened {
  session: DataDirSession
  close: () => Promise<void>
}

/** Keyed by the data directory's real path; also tells the lock which leases this process holds. */
const sessions = new Map<string, Entry>()
const heldLeases = new Set<string>()
/** Sessions still releasing their lock: a reopen waits for that instead of finding its own lock. */
const closing = new Map<string, Promise<void>>()

/** Joins (or opens) the session of `init.dataDir` for one scope; `leave` when that scope's ledger closes. */
export async function joinSession (init: SessionInit): Promise<{ session: DataDirSession, leave: () => Promise<void> }> {
  await createDataLayout(init.dataDir)
  const key = await realpath(init.dataDir).catch((err: unknown) => { throw ioError('resolve', init.dataDir, err) })
  await closing.get(key)
  let entry = sessions.get(key)
  if (entry?.scopes.has(init.scope) === true) {
    throw new IsnadError('LEDGER_LOCKED', `scope ${init.scope} of ${init.dataDir} is already open for writing in this process (pid ${process.pid})`, {
      details: { pid: process.pid, scope: init.scope }
    })
  }
  if (entry === undefined) {
    const created: Entry = { session: openSession(init), scopes: new Set() }
    sessions.set(key, created)
    created.session.catch(() => { if (sessions.get(key) === created) sessions.delete(key) })
    entry = created
  }
  const current = entry
  current.scopes.add(init.scope)
  let opened: Opened
  try {
    opened = await current.session
  } catch (err) {
    current.scopes.delete(init.scope)
    throw err
  }
  let left = false
  return {
    session: opened.session,
    leave: async () => {
      if (left) return
      left = true
      current.scopes.delete(init.scope)
      if (current.scopes.size > 0) return
      sessions.delete(key)
      const closed = opened.close().finally(() => closing.delete(key))
      closing.set(key, closed.catch(() => {}))
      await closed
    }
  }
}

/** The instance registered in the data directory, if any (spec §10 `coordination/instances.jsonl`). */
async function registeredInstance (path: string): Promise<string | undefined> {
  let found: string | undefined
  for await (const entry of readEntries(path, validateInstanceLine)) {
    if (entry.kind === 'record' && entry.value.kind === 'registered') found = entry.value.instance_id
  }
  return found
}

async function openSession (init: SessionInit, attempt = 0): Promise<Opened> {
  const { dataDir, clock, random } = init
  const now = (): string => new Date(clock()).toISOString()
  const paths = { instances: ledgerFilePath(dataDir, 'instances'), leases: ledgerFilePath(dataDir, 'leases'), findings: ledgerFilePath(dataDir, 'findings') }
  const known = await registeredInstance(paths.instances)
  const lock: WriterLockInfo = {
    pid: process.pid,
    hostname: hostname(),
    instance_id: known ?? randomId('instance', random),
    run_id: randomId('run', random),
    lease_id: randomId('lease', random),
    started_at: now()
  }
  const acquired = await acquireWriterLock({ lockPath: writerLockPath(dataDir), info: lock, isHeldHere: (h) => heldLeases.has(h.lease_id) })
  heldLeases.add(lock.lease_id)
  const appenders: JsonlAppender[] = []
  const release = async (): Promise<void> => {
    await Promise.all(appenders.map(async (a) => { await a.close() }))
    heldLeases.delete(lock.lease_id)
    await releaseWriterLock(writerLockPath(dataDir), lock)
  }
  try {
    let findingsFile: JsonlAppender | undefined
    let recorded: Set<string> | undefined
    const recovery: RecoveryContext = {
      dataDir,
      now,
      recordFinding: async (finding) => {
        if (findingsFile === undefined) appenders.push(findingsFile = new JsonlAppender(paths.findings))
        await findingsFile.appendObjects([finding])
        recorded?.add(finding.id)
      },
      recordedFindingIds: async () => {
        if (recorded === undefined) {
          recorded = new Set()
          for await (const entry of readEntries(paths.findings, validateOperationalLine)) {
            if (entry.kind === 'record' && typeof entry.value.id === 'string') recorded.add(entry.value.id)
          }
        }
        return recorded
      }
    }
    // Under the lock, before anything is appended to them: findings first, since the others report into it.
    const findings: TornTailFinding[] = []
    for (const [path, validate, truncateFirst] of [
      [paths.findings, validateOperationalLine, true], [paths.instances, validateInstanceLine, false], [paths.leases, validateLeaseLine, false]
    ] as const) {
      const { finding } = await recoverTail<unknown>(path, validate, recovery, { truncateFirst })
      if (finding !== undefined) findings.push(finding)
    }
    const registered = await registeredInstance(paths.instances)
    if (registered !== undefined && registered !== lock.instance_id) {
      // Another process registered the instance between our first read and the lock (then died).
      await release()
      if (attempt > 0) throw new IsnadError('LEDGER_LOCKED', `the instance of ${dataDir} changed while opening`)
      return await openSession(init, attempt + 1)
    }
    const instances = new JsonlAppender(paths.instances)
    const leases = new JsonlAppender(paths.leases)
    appenders.push(instances, leases)
    const who = { instance_id: lock.instance_id, run_id: lock.run_id, pid: lock.pid, hostname: lock.hostname }
    await instances.appendObjects([
      ...(registered === undefined ? [withLineHash({ kind: 'registered' as const, ...who, ts: now() })] : []),
      withLineHash({ kind: 'seen' as const, ...who, ts: now() })
    ])
    await leases.appendObjects([withLineHash({
      kind: acquired.takenOver === undefined ? 'acquired' as const : 'taken_over' as const,
      lease_id: lock.lease_id,
      ...who,
      ts: now(),
      ...(acquired.takenOver === undefined ? {} : { previous: acquired.takenOver })
    })])
    const session: DataDirSession = {
      dataDir, instanceId: lock.instance_id, runId: lock.run_id, lock, takenOver: acquired.takenOver, findings, recovery
    }
    return {
      session,
      close: async () => {
        try {
          await leases.appendObjects([withLineHash({ kind: 'released' as const, lease_id: lock.lease_id, ...who, ts: now() })])
        } finally {
          await release()
        }
      }
    }
  } catch (err) {
    await release().catch(() => {})
    throw err
  }
}
