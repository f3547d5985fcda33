import { ATTACH_FOLDER, VIEW_FOLDER_OF_TYPE, VIEWS_DIR } from './constants.js'
import { statesOf, type NamedState, type ReductionRecord, type ReductionRecordV1, type ReductionRecordV2 } from './reduction-record.js'
import { attachmentIdOf, reductionIdOf } from '../ids.js'

/**
 * Checking `coordination/reducers.jsonl` against the view lines (docs/views.md, "Reductions"): every
 * state a reducer line names must be reproduced by the lines it names, and the line a reader takes
 * for each id (the newest in its shard) must be a state some reducer line names, unless its
 * object's newest state is reported already (one finding per damaged state, not one per line of it).
 * Given the lines, no I/O: `ledger verify` reads each file once and hands them here.
 *
 * A round entry (v3) names the object and the reduction id only: the state is found by deriving
 * reductionIdOf from the object's lines and its attachment's lines, `previous` being the object's
 * newest entry earlier in the file. A state's lines are the newest of their ids when its round
 * ran, so an object's states sit at non-decreasing places in its shards: the search starts where the
 * object's previous state was found and only goes forward, which makes the usual check one hash.
 * A per-state line (v1, v2) spells its hashes out: they must be there, and its id must derive from
 * them.
 */

/** One view line as the check needs it: where it is, its id, its hash, and the memory it names (`source`). */
export interface ViewLineRef {
  line: number
  offset: number
  id: string
  hash: string
  /** The memory CID an object line names (`source`), or a v1 attachment (`memory`). */
  memory?: string
}

/** One line of reducers.jsonl that passed its line checks, with where it is. */
export interface ReducerLineRef {
  line: number
  offset: number
  value: ReductionRecord | ReductionRecordV2 | ReductionRecordV1
}

export interface ReductionCheckInput {
  /** The lines of reducers.jsonl, in file order. */
  reducers: readonly ReducerLineRef[]
  /** View shard (relative path, object and attachment shards alike) → its good lines, in file order. */
  views: ReadonlyMap<string, readonly ViewLineRef[]>
  /**
   * Reductions a repair re-reduced because their lines were lost (a done `reduce_views` execution):
   * a later state of the object that resolves stands for them, so they are not reported again.
   */
  settled?: ReadonlySet<string>
}

/** A state the view lines do not reproduce. */
export interface UnresolvedReduction {
  reduction: string
  object: string
  /** The object shard the reducer line names. */
  shard: string
  /** Where the reducer line is. */
  line: number
  offset: number
  /** Which of the state's lines is missing or differs. */
  missing: 'object' | 'attachment' | 'state'
  /** The memory, when a line of the object (any) or the reducer line names it. */
  memory?: string
}

/** The newest line of an id that no recorded state names: what readers take, unrecorded. */
export interface UnrecordedLine {
  file: string
  line: number
  offset: number
  id: string
  hash: string
  memory?: string
}

export interface ReductionCheck {
  /** Every state named, resolved or not. */
  states: number
  unresolved: UnresolvedReduction[]
  unrecorded: UnrecordedLine[]
}

/** `views/attach/<scope>/<month>.jsonl` of an object shard `views/<folder>/<scope>/<month>.jsonl` (docs/views.md). */
export function attachShardOf (objectShard: string): string | undefined {
  const parts = objectShard.split('/')
  if (parts.length !== 4 || parts[0] !== VIEWS_DIR) return undefined
  return `${VIEWS_DIR}/${ATTACH_FOLDER}/${parts[2] as string}/${parts[3] as string}`
}

const OBJECT_FOLDERS: readonly string[] = Object.values(VIEW_FOLDER_OF_TYPE)

interface Located { list: readonly ViewLineRef[], at: number }

/** Lines by shard and id, in file order. */
class LineIndex {
  private readonly byShard = new Map<string, Map<string, ViewLineRef[]>>()

  constructor (views: ReadonlyMap<string, readonly ViewLineRef[]>) {
    for (const [shard, lines] of views) {
      const ids = new Map<string, ViewLineRef[]>()
      for (const line of lines) {
        const list = ids.get(line.id)
        if (list === undefined) ids.set(line.id, [line])
        else list.push(line)
      }
      this.byShard.set(shard, ids)
    }
  }

  lines (shard: string | undefined, id: string): readonly ViewLineRef[] {
    return shard === undefined ? [] : this.byShard.get(shard)?.get(id) ?? []
  }

  /** Every id's newest line, per shard. */
  * newest (): Generator<{ shard: string, line: ViewLineRef }> {
    for (const [shard, ids] of this.byShard) {
      for (const list of ids.values()) yield { shard, line: list[list.length - 1] as ViewLineRef }
    }
  }
}

/**
 * Per object: the newest reduction before the current line, its attachment's id, where its last
 * resolved state's lines were found (-1: none yet), and that state's number (1-based, in file order
 * over all objects; 0: none).
 */
interface ObjectTrack { previous: string | undefined, attachment: string, objectAt: number, attachmentAt: number, resolvedAt: number, newestResolved: boolean }

export function checkReductions (input: ReductionCheckInput): ReductionCheck {
  const index = new LineIndex(input.views)
  const tracks = new Map<string, ObjectTrack>()
  /** Every line a resolved state names. */
  const recorded = new Set<ViewLineRef>()
  const lost: Array<{ entry: UnresolvedReduction, at: number }> = []
  const attachShards = new Map<string, string | undefined>() // a home has a few shards, named by every state
  let states = 0
  const trackOf = (object: string): ObjectTrack => {
    let track = tracks.get(object)
    if (track === undefined) tracks.set(object, track = { previous: undefined, attachment: attachmentIdOf(object), objectAt: -1, attachmentAt: -1, resolvedAt: 0, newestResolved: true })
    return track
  }
  for (const { line, offset, value } of input.reducers) {
    for (const state of statesOf(value)) {
      states++
      const track = trackOf(state.object)
      const attachShard = state.attachmentShard ?? attachShards.get(state.shard) ?? attachShards.set(state.shard, attachShardOf(state.shard)).get(state.shard)
      const objects = { list: index.lines(state.shard, state.object), at: track.objectAt }
      const attachments = { list: index.lines(attachShard, track.attachment), at: track.attachmentAt }
      const found = state.hashes === undefined
        ? findState(state.object, state.reduction, track.previous, objects, attachments)
        : findSpelledOut(state.object, state.reduction, state.hashes, objects, attachments)
      if (found.missing === undefined) {
        recorded.add(objects.list[found.objectAt] as ViewLineRef)
        const attachment = found.attachmentAt < 0 ? undefined : attachments.list[found.attachmentAt]
        if (attachment !== undefined) recorded.add(attachment)
        track.objectAt = Math.max(track.objectAt, found.objectAt)
        track.attachmentAt = Math.max(track.attachmentAt, found.attachmentAt)
        track.resolvedAt = states
        track.newestResolved = true
      } else {
        track.newestResolved = false
        const memory = state.memory ?? objects.list.find((l) => l.memory !== undefined)?.memory
        const entry = { reduction: state.reduction, object: state.object, shard: state.shard, line, offset, missing: found.missing, ...(memory === undefined ? {} : { memory }) }
        lost.push({ entry, at: states })
      }
      track.previous = state.reduction
    }
  }
  // A settled state is not reported once a later state of its object resolves: that state stands for it.
  const unresolved = lost.filter(({ entry, at }) => input.settled?.has(entry.reduction) !== true || (tracks.get(entry.object)?.resolvedAt ?? 0) <= at)
    .map(({ entry }) => entry)
  const unrecorded: UnrecordedLine[] = []
  let objectOfAttachment: Map<string, string> | undefined
  for (const { shard, line } of index.newest()) {
    if (recorded.has(line)) continue
    let object: string | undefined = line.id
    if (line.id.startsWith('att_')) {
      objectOfAttachment ??= new Map([...tracks].map(([o, track]) => [track.attachment, o]))
      object = objectOfAttachment.get(line.id)
    }
    // The object's newest state is reported unresolved already: its lines are what that finding is about.
    if (object !== undefined && tracks.get(object)?.newestResolved === false) continue
    // A compact attachment names no memory: its object's lines do (the objects reducer lines name).
    const memory = line.memory ?? (object === undefined || object === line.id ? undefined : memoryOf(index, shard, object))
    unrecorded.push({ file: shard, line: line.line, offset: line.offset, id: line.id, hash: line.hash, ...(memory === undefined ? {} : { memory }) })
  }
  unrecorded.sort((a, b) => a.file < b.file ? -1 : a.file > b.file ? 1 : a.offset - b.offset)
  return { states, unresolved, unrecorded }
}

/** The memory an object's lines name, the object found through its attachment shard's scope and month. */
function memoryOf (index: LineIndex, attachShard: string, object: string): string | undefined {
  for (const folder of OBJECT_FOLDERS) {
    const memory = index.lines(attachShard.replace(`/${ATTACH_FOLDER}/`, `/${folder}/`), object).find((l) => l.memory !== undefined)?.memory
    if (memory !== undefined) return memory
  }
  return undefined
}

interface Found { objectAt: number, attachmentAt: number, missing?: UnresolvedReduction['missing'] }

/**
 * The pair of lines (object line, attachment line or none) whose hashes give `reduction`, from where
 * the object's previous state was found onwards: the next line first (the usual new state), then
 * the same (a line the round left unchanged), then the later ones.
 */
function findState (object: string, reduction: string, previous: string | undefined, objects: Located, attachments: Located): Found {
  if (objects.list.length === 0) return { objectAt: -1, attachmentAt: -1, missing: 'object' }
  for (let i = 0; i <= triesOf(objects, false); i++) {
    const o = placeAt(objects.at, i, false)
    if (o >= objects.list.length) continue
    const hash = (objects.list[o] as ViewLineRef).hash
    // attachment -1: none, possible only while none was found for an earlier state (evidence only grows)
    for (let j = 0; j <= triesOf(attachments, true); j++) {
      const a = placeAt(attachments.at, j, true)
      if (a >= attachments.list.length) continue
      const attachment = a < 0 ? undefined : (attachments.list[a] as ViewLineRef).hash
      if (reductionIdOf(object, hash, attachment, previous) === reduction) return { objectAt: o, attachmentAt: a }
    }
  }
  return { objectAt: -1, attachmentAt: -1, missing: 'state' }
}

/** How many places placeAt gives for a list (one more may be past its end). */
function triesOf ({ list, at }: Located, none: boolean): number {
  return at < 0 ? list.length + (none ? 1 : 0) : list.length - at
}

/**
 * The `k`th place to try after `at`: at + 1, at, at + 2, at + 3, … (-1: nothing found yet: from the
 * first place, or from none when `none`). Past the end when there is none left.
 */
function placeAt (at: number, k: number, none: boolean): number {
  if (at < 0) return k - (none ? 1 : 0)
  return k === 0 ? at + 1 : k === 1 ? at : at + k
}

/** A v1/v2 line: its object and attachment hashes must be lines of their shards, and its id must derive from them. */
function findSpelledOut (object: string, reduction: string, hashes: NonNullable<NamedState['hashes']>, objects: Located, attachments: Located): Found {
  if (reductionIdOf(object, hashes.object, hashes.attachment, hashes.previous) !== reduction) return { objectAt: -1, attachmentAt: -1, missing: 'state' }
  const objectAt = objects.list.findIndex((l) => l.hash === hashes.object)
  if (objectAt < 0) return { objectAt, attachmentAt: -1, missing: 'object' }
  const attachmentAt = hashes.attachment === undefined ? -1 : attachments.list.findIndex((l) => l.hash === hashes.attachment)
  if (hashes.attachment !== undefined && attachmentAt < 0) return { objectAt, attachmentAt, missing: 'attachment' }
  return { objectAt, attachmentAt }
}
