import { Level } from 'level'
import { z } from 'zod'
import { isoTimestamp } from '../schema/index.js'
import { MAX_REASON_CHARS } from './constants.js'
import type { CheckedState } from './types.js'

/** The last check of one anchor, as the state cache keeps it. */
export interface StoredState {
  state: CheckedState
  reason: string
  checked_at: string
  drift?: boolean
}

const StoredStateSchema = z.strictObject({
  state: z.enum(['verified', 'mismatch', 'unreachable', 'unverifiable']),
  reason: z.string().min(1).max(MAX_REASON_CHARS),
  checked_at: isoTimestamp,
  drift: z.boolean().optional()
})

/**
 * The cache of verification states by anchor id (anchors-v1 §5). A cache only: the ledger keeps
 * every change of state, and a lost or unreadable entry means the anchor is checked again.
 */
export interface AnchorStateStore {
  get: (id: string) => Promise<StoredState | null>
  put: (id: string, state: StoredState) => Promise<void>
  open: () => Promise<void>
  close: () => Promise<void>
}

export function createMemoryStateStore (): AnchorStateStore {
  const states = new Map<string, StoredState>()
  return {
    get: async (id) => states.get(id) ?? null,
    put: async (id, state) => { states.set(id, state) },
    open: async () => {},
    close: async () => {}
  }
}

/** States in their own LevelDB (e.g. `.memory/index/anchor-states`), JSON values checked on read. */
export function createLevelStateStore (location: string): AnchorStateStore {
  const db = new Level<string, string>(location, { valueEncoding: 'utf8' })
  return {
    get: async (id) => {
      const text = await db.get(id)
      if (text === undefined) return null
      try {
        const parsed = StoredStateSchema.safeParse(JSON.parse(text))
        return parsed.success ? parsed.data as StoredState : null
      } catch {
        return null
      }
    },
    put: async (id, state) => { await db.put(id, JSON.stringify(state)) },
    open: async () => { await db.open() },
    close: async () => { await db.close() }
  }
}
