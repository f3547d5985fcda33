import type { Connection, PeerId, Stream } from '@libp2p/interface'
import * as dagCbor from '@ipld/dag-cbor'
import { IsnadError } from '../../errors/index.js'
import type { VerifiedRecord } from '../../record/index.js'
import {
  MAX_RECORD_FRAME_BYTES, MAX_SYNC_PAGE_SIZE, FrameReader, isViolation, sendFrames, withDeadline, SyncHeaderSchema, SyncRequestSchema, decodeWire, encodeWire
} from '../wire/index.js'
import {
  MAX_SYNC_CONTROL_BYTES, MAX_SYNC_INTEREST_REQUEST_BYTES, MAX_SYNC_PAGES, SYNC_FIRST_PAGE_SIZE, SYNC_INTEREST_PROTOCOL, SYNC_PAGE_BYTES, SYNC_PAGE_SIZE, SYNC_PAGE_TIMEOUT_MS, SYNC_PAGES_AHEAD,
  SYNC_PROTOCOL
} from './constants.js'
import { deadline, type NetContext } from '../net-context.js'
import { serveOneRequest } from '../serve-request.js'
import type { RecordPage } from '../host.js'
import type { GateResult } from '../record-gate.js'
import { coversEveryShard, groupByCursor, interestKeys, SyncInterestsSchema, type SyncInterests } from './interest.js'
import { matchingRecordsSince } from './interest-page.js'

/** The outcome of one sync run with one peer (sync-v1 §4). */
export interface SyncResult {
  peer: string
  /** The saved cursor before and after the run; by interest (§9), the lowest before and the highest after. */
  from: number
  to: number
  pages: number
  /** Records the peer sent. */
  received: number
  /** Records handed to the host (new to this node, verified). */
  accepted: number
}

export interface SyncOptions {
  /** Records asked per page once the first pages ramped up to it (SYNC_FIRST_PAGE_SIZE, doubling). @default SYNC_PAGE_SIZE */
  pageSize?: number
  /** @default SYNC_PAGE_TIMEOUT_MS */
  pageTimeoutMs?: number
  /** Bytes of records a page is asked for at most, by the size of the records before it. @default SYNC_PAGE_BYTES */
  pageBytes?: number
}

/** The server side of `/isnad/sync/1.0.0` (sync-v1 §3): the whole log. */
export function createSyncHandler (context: NetContext, timeoutMs = SYNC_PAGE_TIMEOUT_MS): (stream: Stream, connection: Connection) => Promise<void> {
  return serveSync(context, timeoutMs, MAX_SYNC_CONTROL_BYTES, async (frame) => {
    const { cursor, limit } = decodeWire(frame, SyncRequestSchema, 'sync request', MAX_SYNC_CONTROL_BYTES) // S1
    return { limit, page: await context.host.recordsSince(cursor, Math.min(limit, MAX_SYNC_PAGE_SIZE)) }
  })
}

/** The server side of `/isnad/sync/2.0.0` (sync-v1 §9): the records of the log that match the client's interests. */
export function createInterestSyncHandler (context: NetContext, timeoutMs = SYNC_PAGE_TIMEOUT_MS): (stream: Stream, connection: Connection) => Promise<void> {
  return serveSync(context, timeoutMs, MAX_SYNC_INTEREST_REQUEST_BYTES, async (frame) => {
    const { cursor, limit, interests } = decodeWire(frame, SyncInterestRequestSchema, 'sync request', MAX_SYNC_INTEREST_REQUEST_BYTES) // S9
    return { limit, page: await matchingRecordsSince(context.host, interests, cursor, Math.min(limit, MAX_SYNC_PAGE_SIZE)) }
  })
}

/** One request frame, one page (S2): the part both versions share. */
function serveSync (
  context: NetContext, timeoutMs: number, maxRequestBytes: number,
  answer: (request: Uint8Array) => Promise<{ limit: number, page: RecordPage }>
): (stream: Stream, connection: Connection) => Promise<void> {
  return serveOneRequest(context, { name: 'sync', timeoutMs, maxRequestBytes }, async (frame) => {
    const { limit, page } = await answer(frame)
    if (page.records.length > limit) throw new IsnadError('IO_ERROR', `the host returned ${page.records.length} records, ${limit} asked`)
    return [encodeWire({ count: page.records.length, next: page.next }), ...page.records] // S2
  })
}

/** sync-v1 §9, S9: a sync-by-interest request. */
const SyncInterestRequestSchema = SyncRequestSchema.extend({ interests: SyncInterestsSchema })

/**
 * One page from `peer`: the records after `cursor` in its log, and the cursor after them (sync-v1
 * §4); with `interests`, by `/isnad/sync/2.0.0`: only the records that match them (§9).
 */
export async function requestPage (context: NetContext, peer: PeerId, cursor: number, limit: number, timeoutMs: number, interests?: SyncInterests): Promise<RecordPage> {
  const signal = deadline(context, timeoutMs)
  const stream = await context.libp2p.dialProtocol(peer, interests === undefined ? SYNC_PROTOCOL : SYNC_INTEREST_PROTOCOL, { signal })
  try {
    const reader = new FrameReader(stream, MAX_SYNC_CONTROL_BYTES, signal)
    return await withDeadline(stream, signal, async () => {
      await sendFrames(stream, [interests === undefined ? encodeWire({ cursor, limit }) : dagCbor.encode({ cursor, limit, interests })], signal)
      await stream.close({ signal })
      const first = await reader.next(MAX_SYNC_CONTROL_BYTES)
      if (first === null) throw violation('sync response without a header')
      const header = decodeWire(first, SyncHeaderSchema, 'sync header', MAX_SYNC_CONTROL_BYTES)
      if (header.count > limit) throw violation(`sync page of ${header.count} records, ${limit} asked`) // S5
      if (header.next < cursor) throw violation(`sync cursor went back from ${cursor} to ${header.next}`) // S6
      const records: Uint8Array[] = []
      while (records.length < header.count) {
        const frame = await reader.next(MAX_RECORD_FRAME_BYTES)
        if (frame === null) throw violation(`sync page ended after ${records.length} of ${header.count} records`)
        records.push(frame)
      }
      if (await reader.next(MAX_SYNC_CONTROL_BYTES) !== null) throw violation('sync page has more records than its header says') // S5
      return { records, next: header.next }
    })
  } catch (err) {
    stream.abort(err instanceof Error ? err : new Error(String(err)))
    if (isViolation(err)) context.penalize(peer, `sync response: ${String(err)}`)
    throw err
  }
}

/**
 * Catches up with `peer` (sync-v1 §4). Given the node's `interests` and a peer that speaks
 * `/isnad/sync/2.0.0`, by interest (§9): each interest from the cursor saved for it with that peer
 * (0 for a new one), interests at the same cursor in one run. Else, or when the interests cover
 * every shard (count 1: the whole log is what the node wants), the whole log by
 * `/isnad/sync/1.0.0` from the cursor saved for the peer.
 */
export async function syncWithPeer (context: NetContext, peer: PeerId, options: SyncOptions = {}, interests?: SyncInterests): Promise<SyncResult> {
  const peerKey = peer.toString()
  if (interests === undefined || coversEveryShard(interests) || !await speaks(context, peer, SYNC_INTEREST_PROTOCOL)) {
    const from = await context.host.loadCursor(peerKey) ?? 0
    const run = await catchUp(context, peer, from, options, undefined, async (next) => { await context.host.saveCursor(peerKey, next) })
    return { peer: peerKey, from, ...run }
  }
  const saved = new Map<string, number | null>()
  for (const key of interestKeys(interests)) saved.set(key, await context.host.loadCursor(interestCursorKey(peerKey, key)))
  const groups = groupByCursor(interests, (key) => saved.get(key) ?? null)
  const result: SyncResult = { peer: peerKey, from: groups[0]?.cursor ?? 0, to: 0, pages: 0, received: 0, accepted: 0 }
  for (const group of groups) {
    const run = await catchUp(context, peer, group.cursor, options, group.interests, async (next) => {
      for (const key of group.keys) await context.host.saveCursor(interestCursorKey(peerKey, key), next)
    })
    result.to = Math.max(result.to, run.to)
    result.pages += run.pages
    result.received += run.received
    result.accepted += run.accepted
  }
  return result
}

/** Where the cursor of one interest with one peer is kept: beside the peer's whole-log cursor, under its own key. */
function interestCursorKey (peerKey: string, interestKey: string): string {
  return `${peerKey}#${interestKey}`
}

/** Whether identify reported that `peer` speaks `protocol`. */
async function speaks (context: NetContext, peer: PeerId, protocol: string): Promise<boolean> {
  try {
    return (await context.libp2p.peerStore.get(peer)).protocols.includes(protocol)
  } catch {
    return false
  }
}

/**
 * One catch-up run from `from` (sync-v1 §4): page after page, each verified (S7), handed to the
 * host, then its cursor saved by `save` (S8), until the run is over. An invalid record ends the run
 * without saving that page's cursor; the pages before it stay saved.
 *
 * Pipelined (sync-v1 §4, "pages ahead"): the next page is asked for as soon as a full page has
 * arrived, and each page's signatures are checked (on the thread pool) as soon as it arrives, while
 * earlier pages are stored (at most SYNC_PAGES_AHEAD of them wait). So the serving peer, the
 * network, verification and the host's write path all work at once. Pages are still accepted, and
 * cursors saved, strictly in order.
 */
async function catchUp (
  context: NetContext, peer: PeerId, from: number, options: SyncOptions, interests: SyncInterests | undefined, save: (next: number) => Promise<void>
): Promise<Omit<SyncResult, 'peer' | 'from'>> {
  const pageSize = Math.min(options.pageSize ?? SYNC_PAGE_SIZE, MAX_SYNC_PAGE_SIZE)
  const timeoutMs = options.pageTimeoutMs ?? SYNC_PAGE_TIMEOUT_MS
  const result = { to: from, pages: 0, received: 0, accepted: 0 }
  const pages = new PageWindow(context, peer, { records: pageSize, bytes: options.pageBytes ?? SYNC_PAGE_BYTES }, timeoutMs, interests)
  pages.start(from)
  // The page being stored, whose cursor is saved once it is: the next page's store starts while
  // this one finishes (its Merkle leaves, views and cursor wait on I/O that the next page's
  // journaling overlaps). Cursors are still saved strictly in page order (S8).
  let previous: Promise<void> = Promise.resolve()
  try {
    for (let page = await pages.take(); page !== null; page = await pages.take()) {
      result.pages++
      result.received += page.records.length
      const fresh: VerifiedRecord[] = []
      for (const item of await page.checked) {
        if (item.status === 'invalid') {
          context.penalize(peer, `sync record: ${item.error.message}`)
          await previous
          throw item.error
        }
        // Known records are skipped; records from the future are left to gossip or a later fetch (R7).
        if (item.status === 'verified' || item.status === 'cached') fresh.push(item.record)
      }
      const storing = fresh.length > 0 ? context.accept(fresh, 'sync') : Promise.resolve()
      storing.catch(() => undefined) // awaited below, after the page before it
      const stored = previous.then(async () => {
        await storing
        result.accepted += fresh.length
        if (page.next !== result.to) await save(page.next)
        result.to = page.next
      })
      stored.catch(() => undefined) // awaited by the next page, or at the end of the run
      await previous
      previous = stored
    }
    await previous
  } finally {
    pages.stop()
  }
  return result
}

interface ReceivedPage {
  records: Uint8Array[]
  next: number
  /** The page's verification, started when it arrived. */
  checked: Promise<GateResult[]>
}

/** How large a page is asked for: at most `records` records, and about `bytes` bytes of them. */
interface PageLimits {
  records: number
  bytes: number
}

/**
 * The pages of one run, requested one after another (one request in flight), each as soon as the
 * previous one arrived full and fewer than SYNC_PAGES_AHEAD wait to be taken: with the page being
 * stored, at most SYNC_PAGES_AHEAD + 1 pages are held. `take` returns them in order, then null; a
 * failed request surfaces there, in its turn. The first page asks for SYNC_FIRST_PAGE_SIZE records
 * and each next one for twice as many as the one before, up to `limits.records`, and no more than
 * `limits.bytes` would hold at the mean size of the last page's records (sync-v1 §4).
 */
class PageWindow {
  private readonly ready: Array<Promise<ReceivedPage>> = []
  private waiting: Array<() => void> = []
  private requested = 0
  private last: Promise<ReceivedPage> | null = null
  private ended = false
  private stopped = false
  /** The mean size of the records of the last page that held any; undefined before. */
  private recordBytes: number | undefined

  constructor (
    private readonly context: NetContext,
    private readonly peer: PeerId,
    private readonly limits: PageLimits,
    private readonly timeoutMs: number,
    /** Absent: the whole log (sync-v1 §3); present: the records matching them (§9). */
    private readonly interests?: SyncInterests
  ) {}

  start (cursor: number): void {
    this.request(cursor)
  }

  async take (): Promise<ReceivedPage | null> {
    for (;;) {
      const page = this.ready.shift()
      if (page !== undefined) {
        const taken = await page
        this.wake()
        return taken
      }
      if (this.ended || this.stopped) return null
      await new Promise<void>((resolve) => { this.waiting.push(resolve) })
    }
  }

  /** Stops asking for pages (the run ended or failed); pages in flight are dropped. */
  stop (): void {
    this.stopped = true
    this.wake()
  }

  private request (cursor: number): void {
    const ramp = Math.min(this.limits.records, SYNC_FIRST_PAGE_SIZE * 2 ** Math.min(this.requested, 16))
    const limit = this.recordBytes === undefined ? ramp : Math.max(1, Math.min(ramp, Math.floor(this.limits.bytes / this.recordBytes)))
    this.requested++
    const page = (async (): Promise<ReceivedPage> => {
      const { records, next } = await requestPage(this.context, this.peer, cursor, limit, this.timeoutMs, this.interests)
      if (records.length > 0) this.recordBytes = records.reduce((sum, r) => sum + r.length, 0) / records.length
      const checked = records.length === 0 ? Promise.resolve([]) : this.context.gate.checkMany(records)
      checked.catch(() => undefined) // awaited by take's caller, or dropped when the run ended first
      // By interest, a short page may end at the server's scan bound, not at the end of its log (S10).
      const full = (records.length === limit || this.interests !== undefined) && next !== cursor && this.requested < MAX_SYNC_PAGES
      if (full) this.requestWhenRoom(next)
      else this.ended = true
      this.wake()
      return { records, next, checked }
    })()
    // Marked handled at once: a page requested ahead may fail while earlier ones are stored; its
    // error surfaces when take reaches it, or is dropped when the run ended first.
    page.catch(() => { this.ended = true; this.wake() })
    this.ready.push(page)
    this.last = page
  }

  /** Asks for the page at `cursor` once fewer than SYNC_PAGES_AHEAD pages wait to be taken. */
  private requestWhenRoom (cursor: number): void {
    const previous = this.last
    const tryRequest = (): void => {
      if (this.stopped || this.last !== previous) return
      if (this.ready.length < SYNC_PAGES_AHEAD) this.request(cursor)
      else this.waiting.push(tryRequest)
    }
    tryRequest()
  }

  private wake (): void {
    const waiting = this.waiting
    this.waiting = []
    for (const resolve of waiting) resolve()
  }
}

function violation (message: string): IsnadError {
  return new IsnadError('DECODE_FAILED', message, { details: { violation: true } })
}
