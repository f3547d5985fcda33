import { randomBytes } from 'node:crypto'
import { IsnadError } from '../errors/index.js'
import { scopeName, type LedgerEvent } from '../schema/index.js'
import { JsonlAppender, type AppenderStats } from './appender.js'
import { MAX_OPEN_SHARDS } from './constants.js'
import type { TornTailFinding, WriterLockInfo } from './coordination-schema.js'
import { assertInputKeys, buildEvent, encodeEventLines, isBusEvent, nextLc, type BuiltEvent, type EventContext, type EventInput } from './event-builder.js'
import { readScopeEntries, strictEvents } from './event-reader.js'
import { createLedgerScanIdempotency, type IdempotencyIndex } from './idempotency.js'
import type { RandomBytes } from './ids.js'
import { busShardPath, streamShardPath, utcDay } from './layout.js'
import type { EventEntry } from './merge.js'
import type { RecoveryContext } from './recovery.js'
import { RunKeys, type AppendState } from './run-keys.js'
import { recoverScope } from './scope-recovery.js'
import { joinSession, type DataDirSession } from './session.js'

/**
 * The append-only event log of one scope (spec §2–§5, §8–§10): `diasync-v1-event` lines
 * in the instance's daily `streams/` shards and the scope's daily `bus/` shards, each acknowledged
 * only once durable, deduplicated by idempotency key, ordered by a Lamport clock that continues
 * across restarts.
 */

export interface EventLedgerInit {
  /** The `.memory/` directory. */
  dataDir: string
  scope: string
  /** Milliseconds since the epoch, for `ts_wall`. @default Date.now */
  clock?: () => number
  /** Randomness for run, instance and lease ids. @default crypto.randomBytes */
  random?: RandomBytes
  /** Idempotency keys stored before this run. @default createLedgerScanIdempotency (reads the scope once) */
  idempotency?: IdempotencyIndex
}

export interface AppendOptions {
  /**
   * The caller records the new events' idempotency keys in the index itself (IdempotencyIndex.record),
   * after they are durable and before anything lets the ledger run past them: the journal writes
   * them in the same LevelDB batch as the records' Merkle leaves. Within this run the ledger still
   * answers duplicates from its own keys. @default false
   */
  deferKeys?: boolean
  /**
   * Checked synchronously at the moment the events would take their lcs (nothing can be appended
   * in between): false appends nothing and returns []. A checkpoint uses it to be written only
   * while every record event before it is in the Merkle log it signs (a checkpoint
   * racing a concurrent store could otherwise follow a record it does not count).
   */
  when?: () => boolean
  /**
   * Each new event's result says where its line is (`line`): the journal turns a `memory.packed`
   * line into its records' locations, which the index keeps instead of their bytes. @default false
   */
  locate?: boolean
}

/** Where an appended event's line is: its file (absolute), the byte offset of its first byte, its bytes (with the newline). */
export interface AppendedLine {
  file: string
  offset: number
  bytes: Buffer
}

export type AppendResult =
  | { appended: true, event_id: string, event: LedgerEvent, line?: AppendedLine }
  /** Stored before: `event` when the ledger or the index still has it, else only its id. */
  | { appended: false, event_id: string, event: LedgerEvent | undefined }

export interface EventLedger {
  readonly dataDir: string
  readonly scope: string
  readonly instanceId: string
  readonly runId: string
  /** The highest lc stored or assigned so far. */
  readonly lastLc: number
  /** The dead writer whose stale lock this open took over: emit a `memory.handoff` for it. */
  readonly takeover: WriterLockInfo | undefined
  /** Torn tails found and cut at open (the shards of this scope and the operational ledgers). */
  readonly findings: readonly TornTailFinding[]
  /**
   * For `recoverTail` on the other ledger files this writer appends to (views/, reducers, audit):
   * findings go to governance/findings/ through the writer's own appender, under its lock.
   */
  readonly recovery: RecoveryContext
  /** Appends in order; resolves once every new event is durable (and every duplicate's original). */
  append: (inputs: readonly EventInput[], options?: AppendOptions) => Promise<AppendResult[]>
  /** Every event of the scope with lc ≥ `from`, in lc order; LEDGER_CORRUPT at the first bad line. */
  readEvents: (from?: number) => AsyncIterable<LedgerEvent>
  /** Like readEvents, but bad lines come as entries instead of errors: what an auditor lists. */
  readEntries: (from?: number) => AsyncIterable<EventEntry>
  /** Write and sync counts of the shards opened in this run. */
  stats: () => AppenderStats
  close: () => Promise<void>
}

const NOTHING_STORED: ReadonlyMap<string, LedgerEvent | string> = new Map()

export async function openEventLedger (init: EventLedgerInit): Promise<EventLedger> {
  // The scope names directories (spec §4): checked before any path is built from it.
  if (!scopeName.safeParse(init.scope).success) throw new IsnadError('USAGE', `invalid scope name: ${JSON.stringify(init.scope)}`)
  const { session, leave } = await joinSession({
    dataDir: init.dataDir, scope: init.scope, clock: init.clock ?? Date.now, random: init.random ?? randomBytes
  })
  try {
    const recovered = await recoverScope(init.dataDir, init.scope, session.instanceId, session.recovery)
    return new FileEventLedger(init, session, leave, recovered.lastLc, [...session.findings, ...recovered.findings])
  } catch (err) {
    await leave()
    throw err
  }
}

/** Each event's line in `encoded` (one line per event, in order), written at file offset `offset`. */
function locateLines (file: string, offset: number, encoded: Buffer, built: readonly BuiltEvent[], located: Map<LedgerEvent, AppendedLine>): void {
  let start = 0
  for (const { event } of built) {
    const end = encoded.indexOf(0x0a, start) + 1
    located.set(event, { file, offset: offset + start, bytes: encoded.subarray(start, end) })
    start = end
  }
}

class FileEventLedger implements EventLedger {
  readonly dataDir: string
  readonly scope: string
  readonly instanceId: string
  readonly runId: string
  readonly takeover: WriterLockInfo | undefined
  readonly findings: readonly TornTailFinding[]
  readonly recovery: RecoveryContext
  private lc: number
  private readonly clock: () => number
  private readonly idempotency: IdempotencyIndex
  private readonly known = new RunKeys()
  private readonly shards = new Map<string, JsonlAppender>()
  private readonly closing = new Set<Promise<void>>()
  private paths = { tsWall: '', day: '', stream: '', bus: '' }
  private readonly totals: AppenderStats = { writes: 0, syncs: 0, lines: 0, bytes: 0 }
  private failure: Error | undefined
  private closed = false
  private context: EventContext | undefined

  constructor (init: EventLedgerInit, session: DataDirSession, private readonly leave: () => Promise<void>, lastLc: number, findings: TornTailFinding[]) {
    this.dataDir = init.dataDir
    this.scope = init.scope
    this.instanceId = session.instanceId
    this.runId = session.runId
    this.takeover = session.takenOver
    this.findings = findings
    this.recovery = session.recovery
    this.lc = lastLc
    this.clock = init.clock ?? Date.now
    this.idempotency = init.idempotency ?? createLedgerScanIdempotency({ dataDir: init.dataDir, scope: init.scope })
  }

  get lastLc (): number {
    return this.lc
  }

  private assertUsable (): void {
    if (this.failure !== undefined) throw this.failure
    if (this.closed) throw new IsnadError('STORE_CLOSED', `the event ledger of scope ${this.scope} is closed`)
  }

  async append (inputs: readonly EventInput[], options: AppendOptions = {}): Promise<AppendResult[]> {
    this.assertUsable()
    if (inputs.length === 0) return []
    assertInputKeys(inputs)
    const unknown: string[] = []
    for (const input of inputs) if (!this.known.has(input.idempotency_key)) unknown.push(input.idempotency_key)
    const stored = unknown.length === 0 ? NOTHING_STORED : await this.idempotency.lookup(unknown)
    this.assertUsable()
    if (options.when !== undefined && !options.when()) return []
    // From here to the enqueue nothing awaits: lc order is file order, and a key seen here is seen
    // by every later call (spec §5, §8).
    const ctx = this.contextAt(new Date(this.clock()).toISOString())
    const state: AppendState = { durable: undefined, settled: false }
    const results: AppendResult[] = []
    const fresh: LedgerEvent[] = []
    const lines = new Map<string, BuiltEvent[]>()
    let waits: Array<Promise<void>> | undefined
    let lc = this.lc
    try {
      for (let index = 0; index < inputs.length; index++) {
        const input = inputs[index] as EventInput
        const key = input.idempotency_key
        const prior = this.known.get(key)
        if (prior !== undefined) {
          results.push({ appended: false, event_id: prior.event_id, event: prior.event })
          if (prior.state !== state && !prior.state.settled) (waits ??= []).push(prior.state.durable ?? Promise.resolve())
          continue
        }
        const before = stored.get(key)
        if (before !== undefined) {
          results.push(typeof before === 'string' ? { appended: false, event_id: before, event: undefined } : { appended: false, event_id: before.event_id, event: before })
          continue
        }
        lc = nextLc(lc, input.observedLc, index)
        const built = buildEvent(input, ctx, lc, index)
        const { event } = built
        // Known at once, so a duplicate later in this batch (or in a call racing this one) finds it.
        this.known.add(key, { event_id: event.event_id, event, state })
        fresh.push(event)
        const paths = this.shardPathsAt(event.ts_wall)
        const path = isBusEvent(event.type) ? paths.bus : paths.stream
        const list = lines.get(path)
        if (list === undefined) lines.set(path, [built])
        else list.push(built)
        results.push({ appended: true, event_id: event.event_id, event })
      }
    } catch (err) {
      // A batch is refused whole: forget the keys it claimed, and its lc values were never committed.
      this.known.forget(fresh.map((e) => e.idempotency_key))
      throw err
    }
    this.lc = lc
    const located = options.locate === true ? new Map<LedgerEvent, AppendedLine>() : undefined
    if (fresh.length > 0) {
      state.durable = this.enqueue(lines, located).then(() => { state.settled = true })
      state.durable.catch(() => {}) // awaited below and by duplicates; never unhandled
      this.known.evict()
      await state.durable
    }
    if (waits !== undefined) await Promise.all(waits)
    if (fresh.length > 0 && options.deferKeys !== true) await this.idempotency.record?.(fresh)
    if (located !== undefined) {
      for (const result of results) {
        const line = result.appended ? located.get(result.event) : undefined
        if (line !== undefined && result.appended) result.line = line
      }
    }
    return results
  }

  /**
   * The envelope context of an append at `tsWall`: the same object while the time string is the
   * same, so buildEvent's check of it (a zod parse) runs once per distinct time, not per append.
   */
  private contextAt (tsWall: string): EventContext {
    if (this.context?.tsWall !== tsWall) this.context = { scope: this.scope, instanceId: this.instanceId, runId: this.runId, tsWall }
    return this.context
  }

  /**
   * Hands each shard its lines, encoded into one buffer per shard; resolves when all are durable. A
   * failure fails the ledger (see appender.ts).
   */
  private enqueue (lines: ReadonlyMap<string, readonly BuiltEvent[]>, located?: Map<LedgerEvent, AppendedLine>): Promise<void> {
    const parts: Array<Promise<unknown>> = []
    for (const [path, built] of lines) {
      const encoded = encodeEventLines(built)
      const written = this.appenderFor(path).appendEncoded(encoded)
      parts.push(located === undefined ? written : written.then((offset) => { locateLines(path, offset, encoded, built, located) }))
    }
    const all = parts.length === 1 ? (parts[0] as Promise<unknown>).then(() => undefined) : Promise.all(parts).then(() => undefined)
    return all.then(undefined, (err: unknown) => {
      this.failure ??= err instanceof Error ? err : new Error(String(err))
      throw err
    })
  }

  /**
   * spec §4 routing: the day's two shard paths for events at `tsWall`, cached (every event of one
   * append has the same ts_wall, and the day changes rarely), so routing allocates nothing per event.
   */
  private shardPathsAt (tsWall: string): { stream: string, bus: string } {
    if (this.paths.tsWall === tsWall) return this.paths
    const day = utcDay(tsWall)
    this.paths = this.paths.day === day
      ? { ...this.paths, tsWall }
      : { tsWall, day, stream: streamShardPath(this.dataDir, this.scope, this.instanceId, day), bus: busShardPath(this.dataDir, this.scope, day) }
    return this.paths
  }

  private appenderFor (path: string): JsonlAppender {
    const existing = this.shards.get(path)
    if (existing !== undefined) return existing
    const appender = new JsonlAppender(path)
    this.shards.set(path, appender)
    for (const [other, open] of this.shards) {
      if (this.shards.size <= MAX_OPEN_SHARDS) break
      if (other === path || !open.idle) continue
      this.shards.delete(other)
      this.retire(open)
    }
    return appender
  }

  private retire (appender: JsonlAppender): void {
    for (const key of Object.keys(this.totals) as Array<keyof AppenderStats>) this.totals[key] += appender.stats[key]
    const closed: Promise<void> = appender.close().catch(() => {}).finally(() => this.closing.delete(closed))
    this.closing.add(closed)
  }

  readEntries (from?: number): AsyncGenerator<EventEntry> {
    return readScopeEntries(this.dataDir, this.scope, (path) => this.shards.get(path)?.durableBytes, from)
  }

  readEvents (from?: number): AsyncGenerator<LedgerEvent> {
    return strictEvents(this.readEntries(from))
  }

  stats (): AppenderStats {
    const sum = { ...this.totals }
    for (const appender of this.shards.values()) {
      for (const key of Object.keys(sum) as Array<keyof AppenderStats>) sum[key] += appender.stats[key]
    }
    return sum
  }

  async close (): Promise<void> {
    if (this.closed) return
    this.closed = true
    try {
      for (const appender of this.shards.values()) this.retire(appender)
      this.shards.clear()
      await Promise.all(this.closing)
    } finally {
      await this.leave()
    }
  }
}
