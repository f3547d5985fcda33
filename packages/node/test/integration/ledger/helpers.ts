import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { EventInput } from '../../../src/ledger/index.js'
import type { LedgerEvent } from '../../../src/schema/ledger-lines.js'

/** Test fixtures of the ledger suites: a temporary data directory, a stepping clock, inputs. */

export const T0 = Date.parse('2026-02-06T10:00:00.000Z')

export async function createTempDataDir (label: string): Promise<{ dataDir: string, remove: () => Promise<void> }> {
  const root = await mkdtemp(join(tmpdir(), `isnad-ledger-${label}-`))
  return { dataDir: join(root, '.memory'), remove: async () => { await rm(root, { recursive: true, force: true }) } }
}

/** A clock that advances one second per call from `start`. */
export function steppingClock (start = T0, stepMs = 1000): () => number {
  let now = start - stepMs
  return () => (now += stepMs)
}

export function eventInput (n: number | string, over: Partial<EventInput> = {}): EventInput {
  return { type: 'memory.captured', actor: 'node', owner: 'did:key:z6MkOwner', payload: { n }, idempotency_key: `key-${n}`, ...over }
}

export async function collect<T> (iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = []
  for await (const item of iterable) out.push(item)
  return out
}

export async function readJsonLines (path: string): Promise<Array<Record<string, unknown>>> {
  const text = await readFile(path, 'utf8')
  return text.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as Record<string, unknown>)
}

/** Every file below `dir`, relative to it, sorted. */
export async function listFiles (dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true })
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name).slice(dir.length + 1)).sort()
}

export function assertStrictlyIncreasing (events: readonly LedgerEvent[]): void {
  for (let i = 1; i < events.length; i++) {
    const a = events[i - 1] as LedgerEvent
    const b = events[i] as LedgerEvent
    if (!(a.lc < b.lc)) throw new Error(`lc not strictly increasing at ${i}: ${a.lc} then ${b.lc}`)
  }
}
