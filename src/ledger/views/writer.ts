import { join } from 'node:path'
import type { Attachment } from './attachment.js'
import { createFsAppend, readJsonlLines, type AppendLines, type ReadLines } from './fs-lines.js'
import type { HashLine } from './view-line-hash.js'
import type { Reduction } from './reduce.js'
import { buildReductionRecord, reductionFilesOf, type ReductionFiles, type ReductionRecord } from './reduction-record.js'

/**
 * Writes reductions into `views/` and `coordination/reducers.jsonl` (Memory Format Spec V3.1 §4, §10)
 * through an injected appender. Idempotent: a line is skipped when the newest line for its id in
 * that file already has its hash; so re-reducing an unchanged memory writes nothing, and a retry
 * after a crash between the lines writes exactly the missing ones. Order matters for readers: the
 * attachment first (so an `evidence_ref` never dangles), then the object, then the reducer line,
 * which says the reduction is complete.
 */

export interface ViewWriterInit {
  /** The data directory (`.memory/`); append and readLines receive absolute paths inside it. */
  dataDir: string
  /** @default createFsAppend() — the node injects the ledger's durable appender. */
  append?: AppendLines
  /** @default readJsonlLines */
  readLines?: ReadLines
  /** The hash of reducer lines; inject the ledger's. @default this folder's hashLine (same rule) */
  hashLine?: HashLine
}

export interface ViewWriteResult {
  files: ReductionFiles
  written: { object: boolean, attachment: boolean, reduction: boolean }
  /** The reducer line written by this call, or null when the object's state was already recorded. */
  record: ReductionRecord | null
  /** The reduction id of this state (new or already recorded): what the round's `memory.reduced` event names. */
  reductionId: string
}

export interface ViewWriter {
  write: (reduction: Reduction, now: string) => Promise<ViewWriteResult>
}

interface ReductionState { id: string, objectHash: string, attachmentHash: string | undefined }

export function createViewWriter (init: ViewWriterInit): ViewWriter {
  const append = init.append ?? createFsAppend()
  const readLines = init.readLines ?? readJsonlLines
  const hash = init.hashLine
  const shards = new Map<string, Map<string, string>>() // file → id → newest hash
  let reductions: Map<string, ReductionState> | undefined // object id → newest reduction
  let queue: Promise<unknown> = Promise.resolve()
  const paths = new Map<string, string>() // file → absolute path: a few files per month, each written often

  function pathOf (file: string): string {
    let path = paths.get(file)
    if (path === undefined) paths.set(file, path = join(init.dataDir, file))
    return path
  }

  async function newestHashes (file: string): Promise<Map<string, string>> {
    let known = shards.get(file)
    if (known === undefined) {
      known = new Map()
      for (const line of parseLines(await readLines(pathOf(file)))) {
        if (typeof line.id === 'string' && typeof line.hash === 'string') known.set(line.id, line.hash)
      }
      shards.set(file, known)
    }
    return known
  }

  /** The newest reduction of each object, from lines of either form (both name object, object_hash, attachment_hash). */
  async function reductionStates (file: string): Promise<Map<string, ReductionState>> {
    if (reductions === undefined) {
      const states = new Map<string, ReductionState>()
      for (const line of parseLines(await readLines(pathOf(file)))) {
        const { id, object, object_hash: objectHash, attachment_hash: attachmentHash } = line
        if (typeof id !== 'string' || typeof object !== 'string' || typeof objectHash !== 'string') continue
        states.set(object, { id, objectHash, attachmentHash: typeof attachmentHash === 'string' ? attachmentHash : undefined })
      }
      reductions = states
    }
    return reductions
  }

  /** Appends `line` unless the newest line with its id has its hash; forgets the file's cache on failure. */
  async function appendOnce (file: string, line: { id: string, hash: string }): Promise<boolean> {
    const known = shards.get(file) ?? await newestHashes(file) // no promise once the file is read
    if (known.get(line.id) === line.hash) return false
    try {
      const appending = append(pathOf(file), [JSON.stringify(line)])
      if (appending !== undefined) await appending
    } catch (err) {
      shards.delete(file) // the line may or may not be there now: read the file again next time
      throw err
    }
    known.set(line.id, line.hash)
    return true
  }

  async function writeNow (reduction: Reduction, now: string): Promise<ViewWriteResult> {
    const files = reductionFilesOf(reduction)
    const { object, attachment } = reduction
    const attachmentWritten = attachment !== null && files.attachment !== undefined
      ? await appendOnce(files.attachment, attachment)
      : false
    const objectWritten = await appendOnce(files.object, object)

    const states = reductions ?? await reductionStates(files.reducers)
    const state = states.get(object.id)
    if (state !== undefined && isSameState(state, object.hash, attachment)) {
      return { files, written: { object: objectWritten, attachment: attachmentWritten, reduction: false }, record: null, reductionId: state.id }
    }
    const record = buildReductionRecord(reduction, now, state?.id, hash, files)
    try {
      const appending = append(pathOf(files.reducers), [JSON.stringify(record)])
      if (appending !== undefined) await appending
    } catch (err) {
      reductions = undefined
      throw err
    }
    states.set(object.id, { id: record.id, objectHash: object.hash, attachmentHash: attachment?.hash })
    return { files, written: { object: objectWritten, attachment: attachmentWritten, reduction: true }, record, reductionId: record.id }
  }

  return {
    // One write at a time: the caches above must match the files (the ledger has a single writer).
    async write (reduction, now) {
      const result = queue.then(async () => await writeNow(reduction, now))
      queue = result.catch(() => undefined)
      return await result
    }
  }
}

function isSameState (state: ReductionState, objectHash: string, attachment: Attachment | null): boolean {
  return state.objectHash === objectHash && state.attachmentHash === attachment?.hash
}

/** Lines that parse as JSON objects; a torn or foreign line is skipped (the ledger audit reports it). */
function parseLines (lines: readonly string[]): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = []
  for (const line of lines) {
    try {
      const value: unknown = JSON.parse(line)
      if (typeof value === 'object' && value !== null && !Array.isArray(value)) out.push(value as Record<string, unknown>)
    } catch {
      // skipped on purpose
    }
  }
  return out
}
