import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { z } from 'zod'
import { errnoOf, writeFileAtomic } from '../fs/index.js'
import type { Logger } from '../log/index.js'
import type { ContentRouter } from '../net/index.js'
import type { LocalNode } from '../node/index.js'
import { decodeSignedRecord } from '../record/index.js'
import { cidsToProvide } from './content-routing.js'

/*
 * content-routing-v1 C2a: the records a node stored before it announced what it stores (a store
 * filled before content routing ran, or records whose announcement a stop cut short) are announced
 * once, in the background, from a mark kept in `.memory/`: the position in the node's log below
 * which every record was handed to the DHT. Bounded: one page of the log at a time, the next page
 * only once the provide queue is idle, so the backlog runs at the queue's pace (PROVIDE_CONCURRENCY
 * operations at once) and never holds more than a page; the mark moves after each page, so a
 * restart resumes where the last run stopped and each record of the backlog is announced once.
 * At a clean stop after the backlog is done the mark moves to the end of the log: what was stored
 * while the daemon ran was announced as it was stored. After a crash those records are announced
 * again at the next start, which is harmless.
 */

/** The file the mark is kept in, in the data directory. */
export const ANNOUNCED_FILE = 'dht-announced.json'
/** @default 256 — log positions read and announced per step of the backlog. */
export const BACKLOG_PAGE = 256
/** @default 1000 — how often the backlog looks for a first connected peer before it starts. */
const PEER_POLL_MS = 1000

const AnnouncedSchema = z.strictObject({ through: z.number().int().min(0) })

export interface ContentBacklogInit {
  /** The node now (a reindex reopens it). */
  node: () => LocalNode
  router: ContentRouter
  /** The data directory (`.memory/`). */
  dataDir: string
  /** Whether the node has a peer to announce to: the backlog waits for one. */
  connected: () => boolean
  logger: Logger
  /** @default BACKLOG_PAGE */
  pageSize?: number
}

export interface ContentBacklog {
  /** Resolves when the backlog is announced (or the backlog was stopped); the log position reached. */
  done: Promise<number>
  /** Stops the backlog; once it was done, marks the whole log announced. Call before the node closes. */
  stop: () => Promise<void>
}

/** Starts announcing the backlog in the background (C2a). */
export function startContentBacklog (init: ContentBacklogInit): ContentBacklog {
  const controller = new AbortController()
  const file = join(init.dataDir, ANNOUNCED_FILE)
  const pageSize = init.pageSize ?? BACKLOG_PAGE
  let finished = false
  const run = async (): Promise<number> => {
    let through = await readMark(file)
    // The end of the log now: what is stored from here on is announced as it is stored.
    const end = init.node().journal.state.merkle.size
    if (through >= end) {
      if (through > end) await writeMark(file, end) // a log rebuilt shorter: start over from its end
      finished = true
      return end
    }
    while (!init.connected()) {
      if (controller.signal.aborted) return through
      await orAbort(new Promise((resolve) => setTimeout(resolve, PEER_POLL_MS).unref()), controller.signal)
    }
    init.logger.info('announcing records stored before content routing', { from: through, to: end })
    while (through < end && !controller.signal.aborted) {
      const node = init.node()
      const { ids, next } = await node.journal.state.recordsSince(through, Math.min(pageSize, end - through))
      if (next <= through) break
      const bytes = await node.store.getBytesMany(ids)
      const records = ids.flatMap((id, i) => {
        const b = bytes[i]
        return b === undefined ? [] : [{ id, signed: decodeSignedRecord(b) }]
      })
      init.router.provide(await cidsToProvide(node, records))
      await orAbort(init.router.settled(), controller.signal)
      if (controller.signal.aborted) break // stopped mid-page: that page is announced again next time
      through = next
      await writeMark(file, through)
    }
    finished = through >= end
    if (finished) init.logger.info('records stored before content routing announced', { to: end })
    return through
  }
  const done = run().catch((err: unknown) => {
    init.logger.warn('announcing the stored backlog failed', { error: err })
    return 0
  })
  return {
    done,
    stop: async () => {
      controller.abort()
      await done
      if (finished) await writeMark(file, init.node().journal.state.merkle.size)
    }
  }
}

/** Waits for `promise`, or less when `signal` aborts first (a stop does not wait for provides in flight). */
async function orAbort (promise: Promise<unknown>, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return
  let onAbort = (): void => {}
  await Promise.race([promise, new Promise<void>((resolve) => { onAbort = resolve; signal.addEventListener('abort', onAbort, { once: true }) })])
  signal.removeEventListener('abort', onAbort)
}

async function readMark (file: string): Promise<number> {
  try {
    return AnnouncedSchema.parse(JSON.parse(await readFile(file, 'utf8'))).through
  } catch (err) {
    // Missing: nothing was announced from the backlog yet. Damaged: announcing again is harmless.
    if (errnoOf(err) !== 'ENOENT' && !(err instanceof SyntaxError) && !(err instanceof z.ZodError)) throw err
    return 0
  }
}

async function writeMark (file: string, through: number): Promise<void> {
  await writeFileAtomic(file, JSON.stringify({ through }), 0o600)
}
