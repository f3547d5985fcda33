import { readFile, rename } from 'node:fs/promises'
import { dirname, join, relative, resolve, sep } from 'node:path'
import { IsnadError } from '../../errors/index.js'
import type { LedgerEvent } from '../../schema/index.js'
import { ensureDirectory, errnoOf, ioError, syncDirectory } from '../../fs/index.js'
import { dataRelative, isBusEvent, utcDay, validateEventLine, type LineValidator } from '../index.js'
import { readRawLines } from '../line-reader.js'
import { RESTORED_SUFFIX, SET_ASIDE_DIR } from './constants.js'
import { underWriterLock } from './repair-lock.js'
import { replaceShard, SetAsideLineSchema, type SetAsideLine } from './set-aside.js'
import { viewValidator } from './validators.js'
import { parseShardPath, type ViewFolder } from './walk.js'

/**
 * `isnad ledger restore <file>` (docs/threat-model.md, "Damage to the data directory"): puts the lines repair set aside back into their
 * shard once a person fixed them. Everything is checked before anything is written: each line must
 * now pass the checks of its shard (JSON, schema, spec §8 hash; an event must belong in the shard:
 * scope, instance, UTC day, stream or bus), else LEDGER_CORRUPT names it and nothing changes. Event
 * lines go back at their Lamport position (an event already in the shard is skipped; another event
 * with the same lc is a conflict), view lines where they were. The shard is replaced atomically
 * (set-aside.ts), the set-aside file renamed to `<file>.restored`; the caller then reindexes.
 */

export interface RestoreInit {
  dataDir: string
  /** The set-aside file: absolute, or relative to the data directory. */
  file: string
  /** The caller holds the writer lock already. @default false */
  holdsLock?: boolean
}

export interface RestoreResult {
  /** The set-aside file as it is now named (`….restored`), relative to the data directory. */
  file: string
  shard: string
  restored: number
  /** Event lines that were in the shard already. */
  present: number
}

interface Checked { entry: SetAsideLine, bytes: Buffer, event: LedgerEvent | undefined }

export async function restoreSetAside (init: RestoreInit): Promise<RestoreResult> {
  const path = resolve(init.dataDir, init.file)
  const rel = relative(join(init.dataDir, SET_ASIDE_DIR), path)
  if (rel.startsWith('..') || rel === '' || rel.split(sep)[0] === '..' || path.endsWith(RESTORED_SUFFIX)) {
    throw new IsnadError('USAGE', `${init.file} is not a file of set-aside lines (they are under ${SET_ASIDE_DIR}/)`)
  }
  const entries = await readSetAside(path, init.file)
  const shard = entries[0]?.file
  if (shard === undefined) throw new IsnadError('USAGE', `${init.file} holds no lines`)
  const validate = validatorOf(shard)
  const checked = entries.map((entry) => check(entry, shard, validate, init.file))
  return await underWriterLock(init.dataDir, init.holdsLock ?? false, async () => {
    const shardPath = join(init.dataDir, ...shard.split('/'))
    const lines: Buffer[] = []
    for await (const raw of readRawLines(shardPath)) {
      if (!raw.terminated) throw new IsnadError('LEDGER_CORRUPT', `${shard} ends with a torn line: run \`isnad ledger repair\` first`)
      lines.push(Buffer.from(raw.bytes))
    }
    const { merged, present } = parseShardPath(shard) === undefined ? insertViews(lines, checked) : insertEvents(lines, checked, shard)
    await ensureDirectory(dirname(shardPath))
    await replaceShard(init.dataDir, shardPath, merged)
    const done = `${path}${RESTORED_SUFFIX}`
    await rename(path, done).catch((err: unknown) => { throw ioError('rename', path, err) })
    await syncDirectory(dirname(path))
    return { file: dataRelative(init.dataDir, done), shard, restored: checked.length - present, present }
  })
}

async function readSetAside (path: string, name: string): Promise<SetAsideLine[]> {
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (err) {
    if (errnoOf(err) === 'ENOENT') throw new IsnadError('NOT_FOUND', `no set-aside file ${name}`)
    throw ioError('read', path, err)
  }
  return text.split('\n').filter((l) => l.trim() !== '').map((line, i) => {
    let raw: unknown
    try {
      raw = JSON.parse(line)
    } catch {
      throw new IsnadError('JSON_INVALID', `line ${i + 1} of ${name} is not JSON (edit only the "text" of each line)`)
    }
    const parsed = SetAsideLineSchema.safeParse(raw)
    if (!parsed.success) throw new IsnadError('SCHEMA_INVALID', `line ${i + 1} of ${name} is not a set-aside line: ${parsed.error.issues[0]?.message ?? 'schema'}`)
    return parsed.data
  })
}

function validatorOf (shard: string): LineValidator<unknown> {
  if (parseShardPath(shard) !== undefined) return validateEventLine
  const view = /^views\/([a-z]+)\//.exec(shard)
  if (view === null) throw new IsnadError('USAGE', `${shard} is neither an event shard nor a view shard`)
  return viewValidator(view[1] as ViewFolder)
}

function check (entry: SetAsideLine, shard: string, validate: LineValidator<unknown>, name: string): Checked {
  const where = `line ${entry.line} of ${shard} (in ${name})`
  if (entry.file !== shard) throw new IsnadError('USAGE', `${name} mixes lines of ${shard} and ${entry.file}`)
  const bytes = entry.text !== undefined ? Buffer.from(entry.text, 'utf8') : Buffer.from(entry.base64 ?? '', 'base64')
  const text = entry.text ?? bytes.toString('utf8')
  if (text.includes('\n') || entry.text === undefined) throw new IsnadError('LEDGER_CORRUPT', `${where} is still not one line of UTF-8 text: fix its "text"`)
  const result = validate(text)
  if (!result.ok) throw new IsnadError('LEDGER_CORRUPT', `${where} still fails its check (${result.reason}: ${result.message}): fix its "text"`)
  const shape = parseShardPath(shard)
  if (shape === undefined) return { entry, bytes, event: undefined }
  const event = result.value as LedgerEvent
  const wrong = event.scope !== shape.scope ? `scope ${event.scope}`
    : shape.instance !== undefined && event.instance_id !== shape.instance ? `instance ${event.instance_id}`
      : (shape.instance === undefined) !== isBusEvent(event.type) ? `type ${event.type}`
          : utcDay(event.ts_wall) !== shape.day ? `day ${utcDay(event.ts_wall)}` : undefined
  if (wrong !== undefined) throw new IsnadError('LEDGER_CORRUPT', `${where}: event ${event.event_id} of ${wrong} does not belong in ${shard}`)
  return { entry, bytes, event }
}

/** Events back at their Lamport position; one already there is skipped, another with its lc refused. */
function insertEvents (lines: readonly Buffer[], restored: readonly Checked[], shard: string): { merged: Buffer[], present: number } {
  const existing = lines.map((bytes) => ({ bytes, event: JSON.parse(bytes.toString('utf8')) as { lc: number, event_id: string } }))
  let present = 0
  for (const { bytes, event } of restored) {
    const { lc, event_id: id } = event as LedgerEvent
    if (existing.some((e) => e.event.event_id === id)) {
      present++
      continue
    }
    const clash = existing.find((e) => e.event.lc === lc)
    if (clash !== undefined) throw new IsnadError('LEDGER_CORRUPT', `${shard} already has event ${clash.event.event_id} at lc ${lc}; ${id} cannot go back there`)
    const at = existing.findIndex((e) => e.event.lc > lc)
    existing.splice(at === -1 ? existing.length : at, 0, { bytes, event: { lc, event_id: id } })
  }
  return { merged: existing.map((e) => e.bytes), present }
}

/** View lines where they were (their old line numbers, in order). */
function insertViews (lines: readonly Buffer[], restored: readonly Checked[]): { merged: Buffer[], present: number } {
  const merged = [...lines]
  for (const { entry, bytes } of [...restored].sort((a, b) => a.entry.line - b.entry.line)) {
    if (merged.some((l) => l.equals(bytes))) continue
    merged.splice(Math.min(entry.line - 1, merged.length), 0, bytes)
  }
  return { merged, present: 0 }
}
