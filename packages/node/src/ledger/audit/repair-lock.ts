import { randomBytes } from 'node:crypto'
import { hostname } from 'node:os'
import { dirname } from 'node:path'
import { ensureDirectory } from '../../fs/index.js'
import {
  acquireWriterLock, ledgerFilePath, randomId, readEntries, releaseWriterLock, validateInstanceLine, writerLockPath,
  type WriterLockInfo
} from '../index.js'

/**
 * Repair and archive move and truncate shards, so no writer may append to them meanwhile (one
 * writer per data directory: docs/architecture.md). Run standalone (the CLI), they take the writer lock for the
 * time of their file operations; a node that already holds it passes `holdsLock` instead. A lock
 * held by this very process counts as live (LEDGER_LOCKED), never as stale: the caller must say
 * `holdsLock` rather than have its own lock taken over.
 */

async function registeredInstance (dataDir: string): Promise<string | undefined> {
  let found: string | undefined
  for await (const entry of readEntries(ledgerFilePath(dataDir, 'instances'), validateInstanceLine)) {
    if (entry.kind === 'record' && entry.value.kind === 'registered') found = entry.value.instance_id
  }
  return found
}

/** Runs `fn` under the data directory's writer lock (LEDGER_LOCKED while another writer holds it). */
export async function withWriterLock<T> (dataDir: string, fn: () => Promise<T>): Promise<T> {
  const info: WriterLockInfo = {
    pid: process.pid,
    hostname: hostname(),
    instance_id: await registeredInstance(dataDir) ?? randomId('instance', randomBytes),
    run_id: randomId('run', randomBytes),
    lease_id: randomId('lease', randomBytes),
    started_at: new Date().toISOString()
  }
  const lockPath = writerLockPath(dataDir)
  await ensureDirectory(dirname(lockPath))
  await acquireWriterLock({ lockPath, info, isHeldHere: () => true })
  try {
    return await fn()
  } finally {
    await releaseWriterLock(lockPath, info)
  }
}

/** `fn` under the lock, or as is when the caller holds it already. */
export async function underWriterLock<T> (dataDir: string, holdsLock: boolean, fn: () => Promise<T>): Promise<T> {
  return holdsLock ? await fn() : await withWriterLock(dataDir, fn)
}
