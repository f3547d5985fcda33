import { IsnadError } from './isnad-error.js'

/*
 * A full disk named as such (docs/configuration.md, "A full disk"). The ledgers acknowledge a line
 * only after its write and fdatasync both succeeded (docs/architecture.md, "The data directory"),
 * and LevelDB commits a batch only after its log write, so a write refused for want of space loses
 * nothing that was acknowledged: the operator frees space and the writes go on.
 */

/** ENOSPC: no space left on the device; EDQUOT: the user's disk quota is used up. */
export const DISK_FULL_ERRNOS: readonly string[] = ['ENOSPC', 'EDQUOT']

/** @default 8 — causes followed when looking for the errno (a loop guard). */
const MAX_CAUSES = 8

/** LevelDB reports errno as text inside its own error ("IO error: …: No space left on device"). */
const DISK_FULL_TEXT = /No space left on device|Disk quota exceeded/i

/** Whether `err`, or one of its causes, is a write refused because the disk or the quota is full. */
export function isDiskFull (err: unknown): boolean {
  let current: unknown = err
  for (let depth = 0; depth < MAX_CAUSES && current !== null && typeof current === 'object'; depth++) {
    const { code, message, cause } = current as { code?: unknown, message?: unknown, cause?: unknown }
    if (typeof code === 'string' && (DISK_FULL_ERRNOS.includes(code) || code === 'DISK_FULL')) return true
    if (typeof message === 'string' && DISK_FULL_TEXT.test(message)) return true
    current = cause
  }
  return false
}

/**
 * DISK_FULL for a write to `target` (a file or a store, as the caller names it) that the disk
 * refused; it says what happened to the data and what to do.
 */
export function diskFullError (target: string, cause: unknown, details: Record<string, unknown> = {}): IsnadError {
  if (cause instanceof IsnadError && cause.code === 'DISK_FULL') return cause
  return new IsnadError('DISK_FULL',
    `the disk is full: cannot write ${target}. Nothing acknowledged was lost (this write was not acknowledged); ` +
    'free space on the disk holding the node home and retry: writes resume once space is freed (a running `isnad start` stops writing until it is restarted)',
    { cause, details })
}
