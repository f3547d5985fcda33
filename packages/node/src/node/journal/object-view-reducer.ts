import type { TrustSetting } from '../../reputation/index.js'
import { JsonlAppender, hashLine, recoverTail, validateOperationalLine, type EventInput, type RecoveryContext } from '../../ledger/index.js'
import {
  ATTACH_FOLDER, REDUCERS_FILE, createViewWriter, objectTypeOf, reduceMemory, reducedEventsOf, viewEvidenceOf, viewTrustOf,
  type Reduction, type ViewRules, type ViewWriter
} from '../../ledger/object-views/index.js'
import { sortInPlace, type IsnadRecord, type ViewObjectType } from '../../schema/index.js'
import type { RecordStore, StoredRecord } from '../../record-index/index.js'
import { gatherEvidence, scoreEvidence, type ScoredEvidence } from '../trust/memory-evidence.js'
import { mapConcurrently } from '../map-concurrently.js'
import { recordEventId } from './record-events.js'

/** @default 16 — memories whose view inputs are read from the store at the same time. */
export const REDUCE_CONCURRENCY = 16

/** @default 65536 — event ids kept by record id (about 150 bytes each); the cache starts over when full. */
const EVENT_ID_CACHE = 65_536

type ReduceInput = Parameters<typeof reduceMemory>[0]

/** A copy of `list` sorted by id (code-unit order), stably; see sortInPlace for why not Array#sort. */
function inIdOrder<T> (list: readonly T[], idOf: (entry: T) => string): T[] {
  return sortInPlace(list.slice(), (a, b) => compareIds(idOf(a), idOf(b)))
}

function compareIds (a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

/**
 * Keeps `views/` reduced (spec §6, docs/views.md): every memory touched by a batch — stored, attested,
 * anchored, or superseded by a correction — is reduced again, once per round however many batches
 * of the round touched it; the writer skips unchanged objects, and the round's reductions are named
 * by one `memory.reduced` event (per MAX_REDUCTIONS_PER_EVENT).
 */
export class ViewReducer {
  private writer: ViewWriter
  private readonly appenders = new Map<string, JsonlAppender>()
  /** Lines of the batch being reduced, per file: written with one durable append per file. */
  private readonly pending = new Map<string, string[]>()
  /** Record id → the id of its event (eventIdOf). */
  private readonly eventIds = new Map<string, string>()

  constructor (
    private readonly dataDir: string,
    private readonly scope: string,
    private readonly rules: Partial<ViewRules>,
    private readonly recovery: RecoveryContext
  ) {
    this.writer = this.createWriter()
  }

  private createWriter (): ViewWriter {
    return createViewWriter({
      dataDir: this.dataDir,
      hashLine,
      // Taken at once (flush writes them durably): the writer need not wait for each line.
      append: (file, lines) => {
        const list = this.pending.get(file)
        if (list === undefined) this.pending.set(file, [...lines])
        else list.push(...lines)
        return undefined
      }
    })
  }

  /**
   * Writes the round's view lines: one append (one fsync) per file rather than three fsyncs per
   * memory, in the writer's order (attachments, then objects, then reducer lines, so no line on disk
   * points at one that is not), the files of one step in parallel. Views are derived, so a crash
   * before this only loses lines a later reduction writes again; the `memory.reduced` events are
   * appended after it.
   */
  private async flush (): Promise<void> {
    const batches = [...this.pending.entries()]
    this.pending.clear()
    try {
      for (const step of [0, 1, 2]) {
        const files = batches.filter(([file]) => writeStepOf(file) === step)
        await Promise.all(files.map(async ([file, lines]) => { await (await this.appenderFor(file)).append(lines) }))
      }
    } catch (err) {
      // The writer's caches now claim lines that may not be on disk: start over from the files.
      this.writer = this.createWriter()
      throw err
    }
  }

  /**
   * The memories a batch touches: its memories, what its evidence points at, what they correct. A
   * witness request is none of these: no view line depends on it (reduceMemory's inputs are the
   * memory, its attestations, anchors, successors and trust), so it reduces nothing again.
   */
  static touchedBy (records: readonly StoredRecord[]): Set<string> {
    const touched = new Set<string>()
    for (const { id, signed } of records) {
      const record: IsnadRecord = signed.record
      if (record.kind === 'memory') {
        touched.add(id)
        if (record.lineage.supersedes !== undefined) touched.add(record.lineage.supersedes)
      } else if (record.kind === 'attestation' || record.kind === 'anchor') {
        touched.add(record.memory)
      }
    }
    return touched
  }

  /**
   * Reduces the given memories (those the store holds), writes their lines, and returns the round's
   * `memory.reduced` events (naming every reduction the round arrived at, new or already recorded;
   * `causes` are the ledger events that asked for it).
   * `scored` holds evidence ingest just scored (what the store holds for those memories) with the
   * trust it stored, so their records are not read again and their trust is not computed again; the
   * rest is read from the store, REDUCE_CONCURRENCY memories at a time, and scored under `setting`,
   * the node's (what ingest stores). Either way a view carries the score `query` filters on.
   * Reductions are written in the order of `memoryIds`.
   */
  async reduce (
    store: RecordStore, memoryIds: Iterable<string>, now: number, scored: ReadonlyMap<string, ScoredEvidence> = new Map(),
    setting: TrustSetting = {}, causes: readonly string[] = []
  ): Promise<EventInput[]> {
    const loaded = await mapConcurrently([...memoryIds], REDUCE_CONCURRENCY, async (id) => await this.load(store, id, now, setting, scored.get(id)))
    const round: Reduction[] = []
    for (const input of loaded) {
      // No schema self-check: the inputs are records the store validated, this node's scope and
      // event ids, and no hints (test/integration/node/view-reducer-schemas.test.ts checks the lines).
      if (input !== null) round.push(reduceMemory(input, { hashLine, rules: this.rules, selfCheck: false }))
    }
    // One reducer line for the round's new states (docs/views.md), written after their view lines.
    const { results } = await this.writer.writeRound(round, new Date(now).toISOString())
    const reductions = results.map((result) => result.reductionId)
    await this.flush()
    return reducedEventsOf(reductions, causes).map((draft) => ({ ...draft, actor: 'node', owner: 'node', visibility: 'private' }))
  }

  /** What reducing one memory needs, or null when the store does not hold it. */
  private async load (store: RecordStore, id: string, now: number, setting: TrustSetting, known: ScoredEvidence | undefined): Promise<ReduceInput | null> {
    const memory = known?.memory ?? await store.getMemory(id)
    if (memory === null) return null
    // The store lists evidence in id order; scored evidence is in arrival order.
    const evidence = known === undefined
      ? await gatherEvidence(store, memory)
      : { memory, attestations: inIdOrder(known.attestations, (a) => a.id), anchors: inIdOrder(known.anchors, (a) => a.stored.id), requests: known.requests }
    const trust = known?.trust ?? scoreEvidence(evidence, now, setting)
    // One after the other: successors are answered from memory, and only a correction reads the store.
    const supersededBy = await store.supersededBy(id)
    const supersedes = memory.signed.record.lineage.supersedes
    const supersededType = supersedes === undefined ? undefined : await this.supersededTypeOf(store, supersedes)
    const eventRefs = [this.eventIdOf(memory)]
    for (const attestation of evidence.attestations) eventRefs.push(this.eventIdOf(attestation))
    for (const anchor of evidence.anchors) eventRefs.push(this.eventIdOf(anchor.stored))
    const input: ReduceInput = {
      memory,
      scope: this.scope,
      eventRefs,
      trust: viewTrustOf(trust),
      // From the records: building the `show` view for it would read the store for its lineage.
      evidence: viewEvidenceOf(evidence),
      supersededBy
    }
    if (supersededType !== undefined) input.supersededType = supersededType
    return input
  }

  /**
   * The id of the event that journaled `record`: a hash, computed once per record while cached (a
   * memory is reduced again at each attestation, with every earlier one among its refs).
   */
  private eventIdOf (record: StoredRecord): string {
    let id = this.eventIds.get(record.id)
    if (id === undefined) {
      if (this.eventIds.size >= EVENT_ID_CACHE) this.eventIds.clear()
      this.eventIds.set(record.id, id = recordEventId(this.scope, record))
    }
    return id
  }

  async close (): Promise<void> {
    await Promise.all([...this.appenders.values()].map(async (a) => { await a.close() }))
    this.appenders.clear()
  }

  /** A correction takes the object type of what it corrects (docs/views.md), `previous`. */
  private async supersededTypeOf (store: RecordStore, previous: string): Promise<ViewObjectType | undefined> {
    const corrected = await store.getMemory(previous)
    return corrected === null ? undefined : objectTypeOf(corrected.signed.record.content.type)
  }

  /** One durable appender per view file; a torn tail left by a crash is recovered on first use. */
  private async appenderFor (file: string): Promise<JsonlAppender> {
    let appender = this.appenders.get(file)
    if (appender === undefined) {
      await recoverTail(file, validateOperationalLine, this.recovery).catch((err: unknown) => {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err
      })
      appender = new JsonlAppender(file)
      this.appenders.set(file, appender)
    }
    return appender
  }
}

/** 0 for attachment shards, 2 for the reducers file, 1 for object shards: the order lines may land in. */
export function writeStepOf (file: string): number {
  const path = file.replaceAll('\\', '/') // the appenders' paths come from path.join
  if (path.endsWith(REDUCERS_FILE)) return 2
  return path.includes(`/views/${ATTACH_FOLDER}/`) ? 0 : 1
}
