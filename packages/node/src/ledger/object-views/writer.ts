import { join } from 'node:path'
import type { Attachment } from './attachment.js'
import { MAX_REDUCTIONS_PER_EVENT } from './constants.js'
import { createFsAppend, readJsonlLines, type AppendLines, type ReadLines } from './fs-lines.js'
import type { HashLine } from './view-line-hash.js'
import type { Reduction } from './reduce.js'
import { buildReductionRound, reductionFilesOf, roundEntryOf, type ReductionFiles, type ReductionRecord, type RoundEntry } from './reduction-record.js'
import { reductionIdOf } from '../ids.js'

/**
 * Writes reduction rounds into `views/` and `coordination/reducers.jsonl` (Memory Format Spec V3.1
 * §4, §10) through an injected appender. Idempotent: a view line is skipped when the newest line for
 * its id in that file already has its hash, and a state already recorded in reducers.jsonl is not
 * recorded again; so re-reducing an unchanged memory writes nothing, and a retry after a crash
 * between the lines writes exactly the missing ones. Order matters for readers: attachments first
 * (so an `evidence_ref` never dangles), then objects, then the round's reducer line, which says the
 * round's reductions are complete.
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
  /** `reduction`: the state is new, and named by the round's reducer line. */
  written: { object: boolean, attachment: boolean, reduction: boolean }
  /** The reduction id of this state (new or already recorded): what the round's `memory.reduced` event names. */
  reductionId: string
}

export interface ViewRoundResult {
  /** One per reduction, in the order given. */
  results: ViewWriteResult[]
  /** The reducer lines the round appended: none when every state was recorded already. */
  records: ReductionRecord[]
}

export interface ViewWriter {
  /** The reductions of one round, in order: their view lines, then one reducer line for the new states. */
  writeRound: (reductions: readonly Reduction[], now: string) => Promise<ViewRoundResult>
  /** A round of one reduction. */
  write: (reduction: Reduction, now: string) => Promise<ViewWriteResult & { record: ReductionRecord | null }>
}

/**
 * The newest recorded state of an object. Lines of the per-state forms (v1, v2) and states written
 * by this writer carry the hashes; a round line (v3) names the reduction id only, which a state is
 * compared with by deriving its id (reductionIdOf) from `previous`.
 */
interface ReductionState {
  id: string
  previous: string | undefined
  objectHash?: string
  attachmentHash?: string | undefined
}

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

  /** The newest reduction of each object, from the lines of every form, in file order. */
  async function reductionStates (file: string): Promise<Map<string, ReductionState>> {
    if (reductions === undefined) {
      const states = new Map<string, ReductionState>()
      for (const line of parseLines(await readLines(pathOf(file)))) readReducerLine(line, states)
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

  async function writeRoundNow (list: readonly Reduction[], now: string): Promise<ViewRoundResult> {
    const results: ViewWriteResult[] = []
    const entries: RoundEntry[] = []
    let reducersFile: string | undefined
    for (const reduction of list) {
      const files = reductionFilesOf(reduction)
      const { object, attachment } = reduction
      const attachmentWritten = attachment !== null && files.attachment !== undefined
        ? await appendOnce(files.attachment, attachment)
        : false
      const objectWritten = await appendOnce(files.object, object)
      reducersFile = files.reducers
      const states = reductions ?? await reductionStates(files.reducers)
      const state = states.get(object.id)
      if (state !== undefined && isSameState(state, object.id, object.hash, attachment)) {
        results.push({ files, written: { object: objectWritten, attachment: attachmentWritten, reduction: false }, reductionId: state.id })
        continue
      }
      const entry = roundEntryOf(reduction, state?.id, files)
      const id = entry.reduction
      // Recorded in the cache now, so a second state of the object in this round chains to this one;
      // the cache is dropped below if the round's line does not reach the appender.
      states.set(object.id, { id, previous: state?.id, objectHash: object.hash, attachmentHash: attachment?.hash })
      entries.push(entry)
      results.push({ files, written: { object: objectWritten, attachment: attachmentWritten, reduction: true }, reductionId: id })
    }
    const records = roundLines(entries, now, hash)
    if (records.length > 0 && reducersFile !== undefined) {
      const appending = append(pathOf(reducersFile), records.map((record) => JSON.stringify(record)))
      if (appending !== undefined) await appending
    }
    return { results, records }
  }

  function enqueue<T> (work: () => Promise<T>): Promise<T> {
    // One write at a time: the caches above must match the files (the ledger has a single writer).
    const result = queue.then(work)
    queue = result.catch(() => undefined)
    return result
  }

  async function writeRound (list: readonly Reduction[], now: string): Promise<ViewRoundResult> {
    return await enqueue(async () => {
      try {
        return await writeRoundNow(list, now)
      } catch (err) {
        reductions = undefined // states of the round may be cached without their line on disk: read the file again
        throw err
      }
    })
  }

  return {
    writeRound,
    async write (reduction, now) {
      const { results, records } = await writeRound([reduction], now)
      const [result] = results
      if (result === undefined) throw new Error('a round of one reduction has one result')
      return { ...result, record: records[0] ?? null }
    }
  }
}

/**
 * The round's reducer lines: one, unless an object comes twice (a second state in the same round) or
 * the round is longer than MAX_REDUCTIONS_PER_EVENT, where a new line starts (file order then still
 * gives each state its `previous`).
 */
function roundLines (entries: readonly RoundEntry[], now: string, hash: HashLine | undefined): ReductionRecord[] {
  const lines: ReductionRecord[] = []
  let part: RoundEntry[] = []
  const inPart = new Set<string>()
  for (const entry of entries) {
    if (inPart.has(entry.object) || part.length >= MAX_REDUCTIONS_PER_EVENT) {
      lines.push(buildReductionRound(part, now, hash))
      part = []
      inPart.clear()
    }
    part.push(entry)
    inPart.add(entry.object)
  }
  if (part.length > 0) lines.push(buildReductionRound(part, now, hash))
  return lines
}

/** Folds one line of reducers.jsonl, of any form, into the newest state of each object. */
function readReducerLine (line: Record<string, unknown>, states: Map<string, ReductionState>): void {
  const { id, object, object_hash: objectHash, attachment_hash: attachmentHash, previous, reductions } = line
  if (typeof id === 'string' && typeof object === 'string' && typeof objectHash === 'string') {
    // v1, v2: one state, its hashes and previous spelled out
    states.set(object, {
      id,
      previous: typeof previous === 'string' ? previous : undefined,
      objectHash,
      attachmentHash: typeof attachmentHash === 'string' ? attachmentHash : undefined
    })
    return
  }
  if (typeof reductions !== 'object' || reductions === null) return
  // v3: shard → object → reduction id; each state's previous is the object's newest one before it
  for (const objects of Object.values(reductions)) {
    if (typeof objects !== 'object' || objects === null) continue
    for (const [objectId, reduction] of Object.entries(objects)) {
      if (typeof reduction === 'string') states.set(objectId, { id: reduction, previous: states.get(objectId)?.id })
    }
  }
}

function isSameState (state: ReductionState, objectId: string, objectHash: string, attachment: Attachment | null): boolean {
  if (state.objectHash !== undefined) return state.objectHash === objectHash && state.attachmentHash === attachment?.hash
  return state.id === reductionIdOf(objectId, objectHash, attachment?.hash, state.previous)
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
