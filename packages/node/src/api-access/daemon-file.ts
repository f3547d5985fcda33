import { open, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { z } from 'zod'
import { writeFileAtomic } from '../fs/index.js'
import { IsnadError } from '../errors/index.js'
import { isoTimestamp } from '../schema/index.js'
import { API_HOST } from './constants.js'

/** The file a running daemon advertises itself in, inside the data directory (`.memory/daemon.json`). */
export const DAEMON_FILE = 'daemon.json'
/** @default 0o600 — it names the API a token unlocks; like the token, only the owner reads it. */
export const DAEMON_FILE_MODE = 0o600
/** @default 64 KiB — a daemon file is a few hundred bytes; anything larger is not one. */
export const MAX_DAEMON_FILE_BYTES = 64 * 1024

/**
 * What a daemon advertises. The url must be the API's own address on 127.0.0.1: the CLI sends the
 * bearer token there, so a file naming any other host is refused rather than trusted.
 */
export const DaemonInfoSchema = z.strictObject({
  pid: z.number().int().positive(),
  url: z.string().regex(new RegExp(`^http://${API_HOST.replaceAll('.', '\\.')}:\\d{1,5}$`), `must be http://${API_HOST}:<port>`),
  /** The daemon's libp2p peer id. */
  peer_id: z.string().max(256).optional(),
  /** The multiaddrs it listens on. */
  addrs: z.array(z.string().max(1024)).max(64).optional(),
  started_at: isoTimestamp
})

export type DaemonInfo = z.infer<typeof DaemonInfoSchema>

/** `<dataDir>/daemon.json`: dataDir is the node's `.memory/` directory (NodePaths.data). */
export function daemonFilePath (dataDir: string): string {
  return join(dataDir, DAEMON_FILE)
}

/**
 * Advertises a daemon: the file is written and synced under a temporary name with mode 0600, then
 * renamed over `daemon.json`, so a reader sees the old file or the new one, never half of one.
 */
export async function writeDaemonFile (dataDir: string, info: DaemonInfo): Promise<void> {
  const parsed = DaemonInfoSchema.safeParse(info)
  if (!parsed.success) throw new IsnadError('USAGE', `not a daemon description: ${parsed.error.issues[0]?.message ?? 'invalid'}`)
  await writeFileAtomic(daemonFilePath(dataDir), JSON.stringify(parsed.data, null, 2) + '\n', DAEMON_FILE_MODE)
}

/** Withdraws the advertisement (on shutdown). Idempotent. */
export async function removeDaemonFile (dataDir: string): Promise<void> {
  await rm(daemonFilePath(dataDir), { force: true })
}

/**
 * The daemon serving this data directory, or null. A missing, unreadable or malformed file, or one
 * whose process is gone (a daemon killed before it could remove it), is stale and ignored: the
 * caller then opens the data directory itself.
 */
export async function findDaemon (dataDir: string): Promise<DaemonInfo | null> {
  let text: string
  try {
    const handle = await open(daemonFilePath(dataDir), 'r')
    try {
      if ((await handle.stat()).size > MAX_DAEMON_FILE_BYTES) return null
      text = await handle.readFile('utf8')
    } finally {
      await handle.close()
    }
  } catch {
    return null
  }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    return null
  }
  const parsed = DaemonInfoSchema.safeParse(json)
  if (!parsed.success || !isProcessAlive(parsed.data.pid)) return null
  return parsed.data
}

/**
 * Signal 0 checks that a process exists without touching it: ESRCH means it is gone; EPERM means it
 * exists but belongs to another user, which is still a live process.
 */
export function isProcessAlive (pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    return errnoOf(err) === 'EPERM'
  }
}

function errnoOf (err: unknown): string | undefined {
  return err instanceof Error && 'code' in err && typeof err.code === 'string' ? err.code : undefined
}
