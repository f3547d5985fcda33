import { open, type FileHandle } from 'node:fs/promises'
import { IsnadError } from '../errors/index.js'
import { MAX_LINE_BYTES, MAX_TORN_TAIL_BYTES, TAIL_PROBE_BYTES } from './constants.js'
import type { CorruptReason, LineValidator } from './entries.js'
import { decodeUtf8 } from './line-reader.js'
import { errnoOf, ioError } from '../fs/index.js'

/**
 * Finds where the intact part of a ledger file ends: after its last complete line that passes every
 * check. Whatever follows is a torn tail (spec §2: line-oriented "for partial recovery"): the bytes
 * of a write that a crash interrupted, or that reached the disk only in part (after a power loss a
 * file may even end in zeros where unsynced pages never got written).
 */

export interface TailState<T> {
  /** The file's size when inspected. */
  size: number
  /** Offset just after the last valid line; equals `size` when the tail is intact. */
  validEnd: number
  /** The last valid line's value, when there is one. */
  last: T | undefined
  /** Why the torn bytes fail, when `validEnd < size`. */
  reason: CorruptReason | 'unterminated' | undefined
}

export interface InspectTailOptions {
  /** @default MAX_TORN_TAIL_BYTES */
  maxTornBytes?: number
  /** @default MAX_LINE_BYTES */
  maxLineBytes?: number
}

/** Missing file → size 0. A longer invalid suffix than `maxTornBytes` → LEDGER_CORRUPT. */
export async function inspectTail<T> (path: string, validate: LineValidator<T>, options: InspectTailOptions = {}): Promise<TailState<T>> {
  const maxTorn = options.maxTornBytes ?? MAX_TORN_TAIL_BYTES
  let handle: FileHandle
  try {
    handle = await open(path, 'r')
  } catch (err) {
    if (errnoOf(err) === 'ENOENT') return { size: 0, validEnd: 0, last: undefined, reason: undefined }
    throw ioError('open', path, err)
  }
  try {
    const size = (await handle.stat()).size
    if (size === 0) return { size, validEnd: 0, last: undefined, reason: undefined }
    // Healthy files resolve from a small probe; only a torn tail needs the wider window.
    for (const window of [TAIL_PROBE_BYTES, maxTorn + (options.maxLineBytes ?? MAX_LINE_BYTES)]) {
      const start = Math.max(0, size - window)
      const found = scanBack(await readAt(handle, path, start, size - start), start, validate)
      if (found === undefined && start > 0) continue
      const state: TailState<T> = { size, validEnd: found?.end ?? 0, last: found?.value, reason: found?.reason }
      if (size - state.validEnd > maxTorn) break
      return state
    }
    throw new IsnadError('LEDGER_CORRUPT', `the end of ${path} is invalid over more than ${maxTorn} bytes: not a torn write (run ledger repair)`, {
      details: { file: path, size }
    })
  } finally {
    await handle.close()
  }
}

async function readAt (handle: FileHandle, path: string, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length)
  let filled = 0
  try {
    while (filled < length) {
      const { bytesRead } = await handle.read(buffer, filled, length - filled, position + filled)
      if (bytesRead === 0) break
      filled += bytesRead
    }
  } catch (err) {
    throw ioError('read', path, err)
  }
  return buffer.subarray(0, filled)
}

interface Found<T> {
  end: number
  value: T | undefined
  reason: CorruptReason | 'unterminated' | undefined
}

/**
 * Walks complete lines from the end of `data` (which starts at file offset `start`) back to the last
 * valid one. Undefined when none is valid and the window may have cut the first line (start > 0).
 */
function scanBack<T> (data: Buffer, start: number, validate: LineValidator<T>): Found<T> | undefined {
  let end = data.length
  let reason: Found<T>['reason']
  if (data[end - 1] !== 0x0a) {
    reason = 'unterminated'
    const newline = data.lastIndexOf(0x0a)
    end = newline + 1 // 0 when no newline at all
  }
  while (end > 0) {
    // (lastIndexOf counts a negative offset from the end, so the first line needs its own case)
    const previous = end >= 2 ? data.lastIndexOf(0x0a, end - 2) : -1
    if (previous === -1 && start > 0) return undefined // the window's first line may be partial
    const lineStart = previous + 1
    const text = decodeUtf8(data.subarray(lineStart, end - 1))
    const check = text === undefined ? { ok: false as const, reason: 'utf8' as const } : validate(text)
    if (check.ok) return { end: start + end, value: check.value, reason }
    reason ??= check.reason
    end = lineStart
  }
  return start === 0 ? { end: 0, value: undefined, reason } : undefined
}

/** Whether the open file ends with a newline (an empty one does): false is a torn last line. */
export async function lastLineEnded (handle: FileHandle): Promise<boolean> {
  const { size } = await handle.stat()
  if (size === 0) return true
  const last = Buffer.alloc(1)
  await handle.read(last, 0, 1, size - 1)
  return last[0] === 0x0a
}
