import type { LedgerEvent } from '../schema/index.js'
import { mergeShards } from './merge.js'
import { listScopeShards } from './event-shards.js'

/**
 * Which idempotency keys a scope has already stored (spec §8: "Events additionally carry
 * deterministic idempotency_key": the same logical event appended twice is stored once,
 * also across restarts). The ledger remembers the keys of its own run in memory; for everything
 * before, it asks this index. The node backs it with LevelDB; the two here are for tests and small
 * homes.
 */
export interface IdempotencyIndex {
  /**
   * The stored events (or just their event ids) of those `keys` that exist; absent keys are new.
   * Keys are those of the ledger's scope.
   */
  lookup: (keys: readonly string[]) => Promise<ReadonlyMap<string, LedgerEvent | string>>
  /** Told about events once they are durable, so a later run's lookup finds them. */
  record?: (events: readonly LedgerEvent[]) => Promise<void> | void
}

/** Keeps every key in a Map: pass the same index to the next `openEventLedger` to survive a reopen. */
export function createMemoryIdempotency (events: Iterable<LedgerEvent> = []): IdempotencyIndex {
  const byKey = new Map<string, LedgerEvent>()
  for (const event of events) byKey.set(event.idempotency_key, event)
  return {
    lookup: async (keys) => {
      const found = new Map<string, LedgerEvent>()
      for (const key of keys) {
        const event = byKey.get(key)
        if (event !== undefined) found.set(key, event)
      }
      return found
    },
    record: (events) => { for (const event of events) byKey.set(event.idempotency_key, event) }
  }
}

export interface LedgerScanInit {
  dataDir: string
  scope: string
}

/**
 * Scans the scope's shards (live and archived) once, at the first lookup, then keeps the keys in
 * memory. Lines that fail their checks are not events and are skipped here; `readEvents` and the
 * auditor report them. Meant for tests and small homes: it holds every event of the scope.
 */
export function createLedgerScanIdempotency (init: LedgerScanInit): IdempotencyIndex {
  let loaded: Promise<IdempotencyIndex> | undefined
  const load = async (): Promise<IdempotencyIndex> => {
    const events: LedgerEvent[] = []
    for await (const entry of mergeShards(await listScopeShards(init.dataDir, init.scope))) {
      if (entry.kind === 'record') events.push(entry.value)
    }
    return createMemoryIdempotency(events)
  }
  return {
    lookup: async (keys) => await (loaded ??= load()).then(async (index) => await index.lookup(keys)),
    record: async (events) => { await (await (loaded ??= load())).record?.(events) }
  }
}
