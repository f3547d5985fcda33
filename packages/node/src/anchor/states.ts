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
  /** Keeps the state of anchor `id` of memory `memory`. */
  put: (id: string, memory: string, state: StoredState) => Promise<void>
  /** Whether any anchor of `memory` was verified at its last check (what its indexed trust depends on). */
  hasVerified: (memory: string) => Promise<boolean>
  open: () => Promise<void>
  close: () => Promise<void>
}

export function createMemoryStateStore (): AnchorStateStore {
  const states = new Map<string, StoredState>()
  const byMemory = new Map<string, Map<string, CheckedState>>()
  return {
    get: async (id) => states.get(id) ?? null,
    put: async (id, memory, state) => {
      states.set(id, state)
      const anchors = byMemory.get(memory) ?? new Map<string, CheckedState>()
      anchors.set(id, state.state)
      byMemory.set(memory, anchors)
    },
    hasVerified: async (memory) => [...byMemory.get(memory)?.values() ?? []].includes('verified'),
    open: async () => {},
    close: async () => {}
  }
}

/**
 * States in their own LevelDB (e.g. `.memory/index/anchor-states`), JSON values checked on read:
 * `a!<anchor>` → the state, and `m!<memory>!<anchor>` → the state's name, so a memory's states are
 * one range read. The ids of memories with any state are also kept in memory (read at open, at most
 * one entry per anchored memory): hasVerified runs after every stored attestation, and most memories
 * have no anchor, so it answers those without opening an iterator.
 */
export function createLevelStateStore (location: string): AnchorStateStore {
  const db = new Level<string, string>(location, { valueEncoding: 'utf8' })
  const anchored = new Set<string>()
  return {
    get: async (id) => {
      const text = await db.get(`a!${id}`)
      if (text === undefined) return null
      try {
        const parsed = StoredStateSchema.safeParse(JSON.parse(text))
        return parsed.success ? parsed.data as StoredState : null
      } catch {
        return null
      }
    },
    put: async (id, memory, state) => {
      await db.batch([
        { type: 'put', key: `a!${id}`, value: JSON.stringify(state) },
        { type: 'put', key: `m!${memory}!${id}`, value: state.state }
      ])
      anchored.add(memory)
    },
    hasVerified: async (memory) => {
      if (!anchored.has(memory)) return false
      for await (const state of db.values({ gt: `m!${memory}!`, lt: `m!${memory}!~` })) if (state === 'verified') return true
      return false
    },
    open: async () => {
      await db.open()
      anchored.clear()
      // Memory ids are CIDs (no '!'): the key is m!<memory>!<anchor>.
      for await (const key of db.keys({ gt: 'm!', lt: 'm!~' })) anchored.add(key.slice(2, key.indexOf('!', 2)))
    },
    close: async () => { await db.close() }
  }
}
