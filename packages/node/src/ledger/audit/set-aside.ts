import { createHash, randomBytes } from 'node:crypto'
import { open, rename, rm } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { z } from 'zod'
import { ensureDirectory, ioError, pathExists, syncDirectory } from '../../fs/index.js'
import { decodeUtf8, readRawLines, type RawLine } from '../line-reader.js'
import { dataRelative, type LineCheck, type LineValidator } from '../index.js'
import { QUARANTINE_DIR, SET_ASIDE_DIR } from './constants.js'

/**
 * Setting aside single bad lines of a live shard (docs/threat-model.md, "Damage to the data directory"): the shard keeps every good line,
 * byte for byte and in order; the bad lines go to `archive/quarantine/lines/<shard path>` (`.1`,
 * `.2`… when that exists), one JSON line each with where it was (line, offset), why, the sha256 of
 * its bytes, its text (or base64 when it is not UTF-8) and the ids it seems to name, so a person can
 * fix the text and `isnad ledger restore` it, or restore the original file byte for byte.
 *
 * Crash safety: the set-aside file is written and fsynced first, then the new shard is written to a
 * temporary file beside the set-aside files, fsynced, and renamed over the shard (rename(2) is
 * atomic), then the directories are fsynced. A crash leaves the old shard (the next repair sets the
 * lines aside again; restore skips events already present) or the new one.
 */

export const SetAsideLineSchema = z.strictObject({
  isnad_set_aside: z.literal(1),
  /** The shard, relative to the data directory. */
  file: z.string().min(1),
  line: z.number().int().min(1),
  offset: z.number().int().min(0),
  reason: z.string(),
  /** sha256 of the bytes as they were (without the newline). */
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  /** The line as UTF-8 text: what a person edits before `isnad ledger restore`. */
  text: z.string().optional(),
  /** The bytes, base64, when they are not UTF-8. */
  base64: z.string().optional(),
  /** Record and event ids the damaged text still shows (best effort): what the node no longer has. */
  names: z.array(z.string())
})
export type SetAsideLine = z.infer<typeof SetAsideLineSchema>

export interface SetAsideResult {
  /** The set-aside file, relative to the data directory. */
  file: string
  lines: SetAsideLine[]
}

const IDS = /\b(bafy[a-z2-7]{40,})|\b(evt_[a-z2-7]{26})/g

function namesIn (text: string): string[] {
  const found = new Set<string>()
  for (const match of text.matchAll(IDS)) found.add(match[0])
  return [...found]
}

function lineEntry (rel: string, raw: RawLine, reason: string): SetAsideLine {
  const text = decodeUtf8(raw.bytes)
  return {
    isnad_set_aside: 1,
    file: rel,
    line: raw.line,
    offset: raw.offset,
    reason,
    sha256: createHash('sha256').update(raw.bytes).digest('hex'),
    ...(text === undefined ? { base64: raw.bytes.toString('base64') } : { text }),
    names: namesIn(text ?? raw.bytes.toString('latin1'))
  }
}

function checkLine (bytes: Uint8Array, validate: LineValidator<unknown>): LineCheck<unknown> {
  const text = decodeUtf8(bytes)
  return text === undefined ? { ok: false, reason: 'utf8', message: 'not valid UTF-8' } : validate(text)
}

function parsedOrUndefined (bytes: Uint8Array): unknown {
  const text = decodeUtf8(bytes)
  if (text === undefined) return undefined
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

function lcOf (value: unknown): number | undefined {
  const lc = (value as { lc?: unknown } | null | undefined)?.lc
  return typeof lc === 'number' ? lc : undefined
}

/** Writes `chunks` to `path` (created, not there before) and fsyncs it. */
export async function writeDurably (path: string, chunks: readonly Uint8Array[]): Promise<void> {
  await ensureDirectory(dirname(path))
  const handle = await open(path, 'wx', 0o644).catch((err: unknown) => { throw ioError('create', path, err) })
  try {
    for (const chunk of chunks) await handle.write(chunk)
    await handle.sync()
  } catch (err) {
    throw ioError('write', path, err)
  } finally {
    await handle.close()
  }
}

/**
 * Replaces the shard at `path` with `lines` (each without its newline) through a temporary file
 * and an atomic rename.
 */
export async function replaceShard (dataDir: string, path: string, lines: readonly Uint8Array[]): Promise<void> {
  const temp = join(dataDir, QUARANTINE_DIR, 'tmp', `${randomBytes(8).toString('hex')}.jsonl`)
  const newline = Uint8Array.of(0x0a)
  await writeDurably(temp, lines.flatMap((l) => [l, newline]))
  try {
    await rename(temp, path)
  } catch (err) {
    await rm(temp, { force: true })
    throw ioError('replace', path, err)
  }
  await syncDirectory(dirname(path))
  await syncDirectory(dirname(temp))
}

/** The first free `archive/quarantine/lines/<rel>[.N]`. */
async function freeSetAsidePath (dataDir: string, rel: string): Promise<string> {
  const base = join(dataDir, SET_ASIDE_DIR, ...rel.split('/'))
  let target = base
  for (let n = 1; await pathExists(target); n++) target = `${base}.${n}`
  return target
}

/**
 * Sets aside the lines of `rel` whose 1-based numbers (and byte offsets, which must still match:
 * the plan was made from this file) are in `bad` and that still fail their check, or still have the
 * `hash` given for them (good lines set aside for what they are, not for their bytes); every other line stays. Undefined when the shard
 * is gone or none of the lines is where the plan saw it.
 */
export async function setAsideLines (
  dataDir: string, rel: string, bad: ReadonlyMap<number, { offset: number, reason: string, hash?: string }>, validate: LineValidator<unknown>
): Promise<SetAsideResult | undefined> {
  const path = join(dataDir, ...rel.split('/'))
  if (!await pathExists(path)) return undefined
  const keep: Uint8Array[] = []
  const aside: SetAsideLine[] = []
  let lastLc = Number.NEGATIVE_INFINITY
  for await (const raw of readRawLines(path)) {
    const wanted = bad.get(raw.line)
    // A torn last line (a write never acknowledged) goes aside too: the new shard ends with a newline.
    if (!raw.terminated) {
      aside.push(lineEntry(rel, raw, wanted?.reason ?? 'torn_tail: the last line has no newline'))
      continue
    }
    // The plan's line must still be where it was and still bad (a second run of the same plan sees
    // the shard without it: another line at that place passes, and stays).
    const check = wanted === undefined || wanted.offset !== raw.offset ? undefined : checkLine(raw.bytes, validate)
    const lc = check?.ok === true ? lcOf(check.value) : undefined
    const outOfOrder = wanted?.reason.startsWith('lc_order') === true && lc !== undefined && lc <= lastLc
    // A good line the plan named by its hash (a view line no reduction names) goes only if it still has it.
    const named = wanted?.hash !== undefined && check?.ok === true && (check.value as { hash?: unknown } | null)?.hash === wanted.hash
    if (wanted !== undefined && check !== undefined && (!check.ok || outOfOrder || named)) {
      aside.push(lineEntry(rel, raw, wanted.reason))
      continue
    }
    keep.push(Buffer.from(raw.bytes))
    const kept = lcOf(parsedOrUndefined(raw.bytes))
    if (kept !== undefined) lastLc = kept
  }
  if (aside.length === 0) return undefined
  const target = await freeSetAsidePath(dataDir, rel)
  await writeDurably(target, aside.map((entry) => Buffer.from(`${JSON.stringify(entry)}\n`)))
  await syncDirectory(dirname(target))
  await replaceShard(dataDir, path, keep)
  return { file: dataRelative(dataDir, target), lines: aside }
}
