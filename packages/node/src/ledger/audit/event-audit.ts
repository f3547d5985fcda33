import type { LedgerEvent } from '../../schema/index.js'
import { isBusEvent, listScopeShards, mergeShards, utcDay, type ShardRef } from '../index.js'
import { ANCHOR_CHECKED_EVENT_TYPE, ARCHIVE_GZIP_HEADER, CHECKPOINT_EVENT_TYPE, RECORD_CHECKS_IN_FLIGHT, RECORD_EVENT_TYPES } from './constants.js'
import { checkEntry, relativeTo, type AuditContext } from './audit-context.js'
import { hasArchiveHeader } from './gzip.js'
import { LogAuditor, type CheckpointRegistry, type Where } from './log-audit.js'
import type { LedgerFactsCollector } from './ledger-facts.js'
import type { QuarantineIndex } from './quarantine-index.js'
import type { FindingDraft } from './findings.js'
import { checkCarriedRecord, recordLeafOf, type RecordCheckOptions } from './record-check.js'
import { checkPackedRecord, packedRecordsOf } from './pack-check.js'
import { PACK_EVENT_TYPE } from '../packs.js'

/**
 * The events of one scope (spec §4, §5, §8), read in Lamport order through the ledger's own readers
 * (listScopeShards, mergeShards: live and archived shards): every line's checks, where each event
 * sits, duplicate event ids, the Lamport sequence of each instance, and the Merkle log.
 *
 * The node's events are all local, so along one instance lc grows by exactly 1 per event (docs/architecture.md,
 * "The data directory"; event-builder nextLc): a jump is a lost event, a repeat a forged or copied one.
 */

export interface EventAuditOptions extends RecordCheckOptions {
  registry: CheckpointRegistry
  quarantine: QuarantineIndex
  /** Collects the scope's records for the index check (the node's scope only). */
  facts?: LedgerFactsCollector
}

/** One instance's sequence in a scope. */
export interface InstanceTrack {
  first: number
  last: number
  lastDay: string
  lastFile: string
  /** Each run that wrote events, with the file of its first one. */
  runs: Map<string, string>
}

export interface ScopeAudit {
  scope: string
  instances: Map<string, InstanceTrack>
  log: { size: number, root: string }
}

const RECORD_TYPES: ReadonlySet<string> = new Set(RECORD_EVENT_TYPES)

export async function auditScopeEvents (ctx: AuditContext, scope: string, options: EventAuditOptions): Promise<ScopeAudit> {
  const shards = await listScopeShards(ctx.dataDir, scope)
  const byPath = new Map(shards.map((s) => [s.path, s]))
  for (const shard of shards) {
    ctx.stats.files_checked++
    if (shard.archived && !(await hasArchiveHeader(shard.path))) {
      ctx.sink.add({ kind: 'archive_header', file: relativeTo(ctx, shard.path), offset: 0, message: `the gzip header is not the ${ARCHIVE_GZIP_HEADER.length} bytes isnad writes (damaged or foreign archive)` })
    }
  }
  const instances = new Map<string, InstanceTrack>()
  const eventIds = new Set<string>()
  const log = new LogAuditor(options.verifier, options.registry, options.now)
  /** Record verifications in flight, oldest first: their findings keep lc order. */
  const pending: Array<Promise<FindingDraft | undefined>> = []
  for await (const entry of mergeShards(shards)) {
    if (!checkEntry(ctx, entry)) continue
    const event = entry.value
    const where: Where = { file: relativeTo(ctx, entry.file), offset: entry.offset, line: entry.line }
    const misplaced = misplacement(event, scope, byPath.get(entry.file))
    if (misplaced !== undefined) ctx.sink.add({ kind: 'misplaced_line', ...where, message: `event ${event.event_id} ${misplaced}` })
    if (eventIds.has(event.event_id)) {
      ctx.sink.add({ kind: 'duplicate_event', ...where, message: `event ${event.event_id} (lc ${event.lc}) appears a second time in scope ${scope}` })
      continue
    }
    eventIds.add(event.event_id)
    ctx.stats.events++
    options.facts?.event(event.lc)
    track(ctx, scope, instances, event, where, options.quarantine)
    if (RECORD_TYPES.has(event.type)) {
      ctx.stats.records++
      const { leaf, problem, record } = recordLeafOf(event)
      if (leaf !== undefined) {
        log.addLeaf(leaf)
        options.facts?.record(event.type, leaf, record)
      }
      const message = (text: string | undefined): FindingDraft | undefined =>
        text === undefined ? undefined : { kind: 'record_invalid', ...where, message: `event ${event.event_id}: ${text}` }
      if (problem !== undefined) ctx.sink.add(message(problem))
      else if (options.checkRecords && leaf !== undefined) {
        pending.push(checkCarriedRecord(event.type, leaf, record, options).then(message))
        if (pending.length >= RECORD_CHECKS_IN_FLIGHT) ctx.sink.add(await pending.shift())
      }
    } else if (event.type === PACK_EVENT_TYPE) {
      // One leaf per record it names, in order, even when the pack is unreadable: the log stays comparable.
      const packed = await packedRecordsOf(ctx.dataDir, event)
      ctx.stats.records += packed.leaves.length
      for (const leaf of packed.leaves) log.addLeaf(leaf)
      if (packed.problem !== undefined) ctx.sink.add({ kind: 'pack_invalid', ...where, message: `event ${event.event_id}: ${packed.problem}` })
      for (const record of packed.records) {
        if (record.kind !== undefined) options.facts?.record(record.kind, record.id, record.signed)
        if (!options.checkRecords) continue
        pending.push(checkPackedRecord(record, options).then((text) =>
          text === undefined ? undefined : { kind: 'record_invalid', ...where, message: `event ${event.event_id}: ${text}` }))
        if (pending.length >= RECORD_CHECKS_IN_FLIGHT) ctx.sink.add(await pending.shift())
      }
    } else if (event.type === ANCHOR_CHECKED_EVENT_TYPE) {
      options.facts?.anchorChecked(event.payload)
    } else if (event.type === CHECKPOINT_EVENT_TYPE) {
      ctx.stats.checkpoints++
      const explained = options.quarantine.explains(scope, undefined, undefined, utcDay(event.ts_wall))
      for (const draft of log.checkCheckpoint(event.payload, where, explained)) ctx.sink.add(draft)
    }
  }
  for (const check of pending) ctx.sink.add(await check)
  checkFirstLc(ctx, scope, instances, options.quarantine)
  return { scope, instances, log: log.summary() }
}

/** spec §4: the shard of an event is fixed by its scope, instance, type (stream or bus) and UTC day. */
function misplacement (event: LedgerEvent, scope: string, shard: ShardRef | undefined): string | undefined {
  if (shard === undefined) return undefined
  if (event.scope !== scope) return `belongs to scope ${event.scope}`
  if (shard.kind === 'stream' && event.instance_id !== shard.instance) return `was written by instance ${event.instance_id}, not this stream's`
  if (isBusEvent(event.type) !== (shard.kind === 'bus')) return `of type ${event.type} does not belong in a ${shard.kind} shard`
  if (utcDay(event.ts_wall) !== shard.day) return `of ${utcDay(event.ts_wall)} does not belong in the shard of ${shard.day}`
  return undefined
}

/** The Lamport sequence of the event's instance: +1 per event, never a repeat (spec §5, docs/architecture.md). */
function track (ctx: AuditContext, scope: string, instances: Map<string, InstanceTrack>, event: LedgerEvent, where: Where, quarantine: QuarantineIndex): void {
  const day = utcDay(event.ts_wall)
  const current = instances.get(event.instance_id)
  if (current === undefined) {
    instances.set(event.instance_id, { first: event.lc, last: event.lc, lastDay: day, lastFile: where.file, runs: new Map([[event.run_id, where.file]]) })
    return
  }
  if (!current.runs.has(event.run_id)) current.runs.set(event.run_id, where.file)
  if (event.lc === current.last) {
    ctx.sink.add({ kind: 'lc_duplicate', ...where, message: `instance ${event.instance_id} has two events with lc ${event.lc} in scope ${scope} (the second: ${event.event_id})` })
    return
  }
  if (event.lc > current.last + 1) {
    const explained = quarantine.explains(scope, event.instance_id, current.lastDay, day)
    const missing = event.lc - current.last - 1
    ctx.sink.add({
      kind: 'lc_gap',
      severity: explained === undefined ? 'error' : 'warning',
      ...where,
      message: `instance ${event.instance_id} jumps from lc ${current.last} to lc ${event.lc} in scope ${scope}: ` +
        `${missing} event${missing === 1 ? ' is' : 's are'} missing${explained === undefined ? '' : ` (explained by the quarantine of ${explained})`}`
    })
  }
  current.last = event.lc
  current.lastDay = day
  current.lastFile = where.file
}

/**
 * The first event of a scope's only instance has lc 1 (nextLc starts at 1); with several instances
 * an instance may start anywhere, so only the single-instance case can show lost leading events.
 */
function checkFirstLc (ctx: AuditContext, scope: string, instances: Map<string, InstanceTrack>, quarantine: QuarantineIndex): void {
  if (instances.size !== 1) return
  const [instance, track] = [...instances][0] as [string, InstanceTrack]
  if (track.first === 1) return
  const explained = quarantine.explains(scope, instance, undefined, undefined)
  ctx.sink.add({
    kind: 'lc_gap',
    severity: explained === undefined ? 'error' : 'warning',
    file: `streams/${scope}/${instance}`,
    message: `the first event of instance ${instance} in scope ${scope} has lc ${track.first}: ${track.first - 1} earlier events are missing` +
      (explained === undefined ? '' : ` (explained by the quarantine of ${explained})`)
  })
}
