import type { VerifiedRecord } from '../../record/index.js'
import type { IngestResult } from './steps.js'

/**
 * @default 256 — records handed to the host in one call at most (one journaled write: one ledger
 * fdatasync, one index batch, one view reduction), as a sync page.
 */
export const MAX_ACCEPT_BATCH = 256

interface Waiting {
  records: readonly VerifiedRecord[]
  resolve: (result: IngestResult) => void
  reject: (err: unknown) => void
}

/**
 * Group commit for records arriving by gossip (the pipeline's `accept`): the first delivery is
 * stored at once; those that arrive while it is being stored wait and go together in the next batch, in arrival order (so
 * a memory still precedes the attestation naming it). Under load a node then makes one durable
 * write for several messages instead of one each, and a message waits for at most one write ahead
 * of it. Each caller's promise settles when its own records are stored; when a combined call fails,
 * the calls in it are retried one by one, so one refused record never fails another's delivery.
 */
export class AcceptBatcher {
  private waiting: Waiting[] = []
  private draining = false

  constructor (private readonly store: (records: readonly VerifiedRecord[]) => Promise<IngestResult>) {}

  /** Resolves with what the batch holding `records` did to them (their ids only), once it is stored. */
  async accept (records: readonly VerifiedRecord[]): Promise<IngestResult> {
    return await new Promise<IngestResult>((resolve, reject) => {
      this.waiting.push({ records, resolve, reject })
      if (!this.draining) void this.drain()
    })
  }

  private async drain (): Promise<void> {
    this.draining = true
    try {
      while (this.waiting.length > 0) await this.storeBatch(this.takeBatch())
    } finally {
      this.draining = false
    }
  }

  /** The waiting calls, oldest first, up to MAX_ACCEPT_BATCH records (always at least one call). */
  private takeBatch (): Waiting[] {
    let records = 0
    let count = 0
    for (const item of this.waiting) {
      if (count > 0 && records + item.records.length > MAX_ACCEPT_BATCH) break
      records += item.records.length
      count++
    }
    return this.waiting.splice(0, count)
  }

  private async storeBatch (batch: readonly Waiting[]): Promise<void> {
    try {
      if (batch.length === 1) {
        const only = batch[0] as Waiting
        only.resolve(await this.store(only.records))
        return
      }
      const result = await this.store(batch.flatMap((item) => item.records))
      const split = splitResult(result)
      for (const item of batch) item.resolve(split(item.records))
    } catch (err) {
      if (batch.length === 1) {
        (batch[0] as Waiting).reject(err)
        return
      }
      for (const item of batch) {
        try {
          item.resolve(await this.store(item.records))
        } catch (single) {
          item.reject(single)
        }
      }
    }
  }
}

/**
 * A combined batch's result as it concerns each caller's records: the batch's ids are put in sets
 * once, so splitting a batch of n single-record deliveries costs O(n), not O(n²) (a burst's batches
 * hold up to MAX_ACCEPT_BATCH deliveries). A caller's ids come in its records' order, each once.
 */
function splitResult (result: IngestResult): (records: readonly VerifiedRecord[]) => IngestResult {
  const stored = new Set(result.stored)
  const duplicates = new Set(result.duplicates)
  return (records) => {
    const own: IngestResult = { stored: [], duplicates: [], rescored: result.rescored }
    const seen = new Set<string>()
    for (const { id } of records) {
      if (seen.has(id)) continue
      seen.add(id)
      if (stored.has(id)) own.stored.push(id)
      if (duplicates.has(id)) own.duplicates.push(id)
    }
    return own
  }
}
