import { IsnadError } from '../errors/index.js'
import type { TrustResult, MemoryQuery, RecordStore } from '../schema/index.js'
import { matchesText, reasonOf } from './reason.js'
import type { MemoryStore, MemoryTrace, MemoryVerifier, SelectedMemory, SelectionRequest, VerificationMethod, World, WorldId } from './types.js'

/** A selection on a node (src/node/records/select.ts): a SelectionRequest and the method of its evidence. */
export interface SelectRequest extends SelectionRequest {
  /** The method of the evidence. @default 'isnad-ed25519' */
  method?: Exclude<VerificationMethod, 'none'>
}

export interface SelectionResult {
  selected: SelectedMemory[]
  trace: MemoryTrace
}

/** @default 20 */
export const DEFAULT_SELECT_LIMIT = 20
/** @default 100 */
export const MAX_SELECT_LIMIT = 100
/**
 * @default 2 — candidates taken from the index per result: the index orders by the score stored at
 * ingest, the selection by the score under the node's policy now, so a window twice the limit is
 * rescored and re-ranked.
 */
export const CANDIDATE_FACTOR = 2
/** @default 5000 — memories a text query reads at most looking for matches (bounds its latency). */
export const MAX_SCANNED = 5000
/** @default 200 — index entries a text query reads per page. */
const TEXT_PAGE = 200

export interface SelectorInit {
  /** Where candidates come from: the index, by tags / author / type / stored trust. */
  records: RecordStore
  /** Where worlds come from (the FDR Store). */
  memories: MemoryStore
  verifier: MemoryVerifier
  /** The trust of a world under the node's policy and reputation. */
  score: (world: World) => Promise<TrustResult>
  clock: () => number
  /** The world the selection is made in (M-11: opaque). */
  atWorldId: () => Promise<WorldId>
  /** Appends the trace to the ledger (M-2); the selection fails if this does. */
  appendTrace: (trace: MemoryTrace) => Promise<void>
}

/**
 * The MemorySelector (FDR §3.1 layer 3, M-6): impure, and where every impure step of the memory
 * layer lives (M-9): it reads the store, calls the pure Verifier's prove(), wraps each proof as
 * evidence with its own clock and the selecting actor, and appends a MemoryTrace for every selection
 * (M-2). Selection happens here, before anything is submitted (M-3).
 */
export function createMemorySelector (init: SelectorInit): { select: (request: SelectionRequest) => Promise<SelectionResult> } {
  return {
    async select (request: SelectionRequest): Promise<SelectionResult> {
      const limit = request.limit ?? DEFAULT_SELECT_LIMIT
      if (!Number.isInteger(limit) || limit < 1 || limit > MAX_SELECT_LIMIT) {
        throw new IsnadError('USAGE', `limit must be an integer from 1 to ${MAX_SELECT_LIMIT}`)
      }
      const worlds = await candidates(init, request, limit * CANDIDATE_FACTOR)
      const scored = (await Promise.all(worlds.map(async (world) => ({ world, trust: await init.score(world) }))))
        .filter(({ trust }) => request.minTrust === undefined || trust.score >= request.minTrust)
        .sort((a, b) => b.trust.score - a.trust.score ||
          compare(b.world.memory.record.created_at, a.world.memory.record.created_at) || compare(a.world.id, b.world.id))
        .slice(0, limit)
      const selectedAt = init.clock()
      const selected = scored.map(({ world, trust }): SelectedMemory => {
        const proved = init.verifier.prove({ worldId: world.id }, world)
        const item: SelectedMemory = {
          ref: { worldId: world.id },
          reason: reasonOf(world, trust, request, proved.error),
          confidence: trust.score,
          verified: proved.valid
        }
        if (proved.proof !== undefined) item.evidence = { ...proved.proof, verifiedAt: selectedAt, verifiedBy: request.selector }
        return item
      })
      const trace: MemoryTrace = {
        selector: request.selector,
        query: describeQuery(request),
        selectedAt,
        atWorldId: await init.atWorldId(),
        selected
      }
      await init.appendTrace(trace)
      return { selected, trace }
    }
  }
}

/**
 * Up to `window` worlds matching the request, most trusted first by the index. A superseded memory
 * gives way to its newest successor (docs/trust.md §5): the successor is what
 * its author now stands by, so it is the candidate, once, even when both matched.
 */
async function candidates (init: SelectorInit, request: SelectionRequest, window: number): Promise<World[]> {
  const worlds = new Map<WorldId, World>()
  const query: MemoryQuery = {
    ...(request.tags === undefined || request.tags.length === 0 ? {} : { tags: request.tags }),
    ...(request.author === undefined ? {} : { author: request.author }),
    ...(request.type === undefined ? {} : { type: request.type })
  }
  const words = (request.query ?? '').toLowerCase().split(/\s+/).filter((w) => w.length > 0)
  let scanned = 0
  let cursor: string | undefined
  do {
    const page = await init.records.query({ ...query, limit: words.length === 0 ? window : TEXT_PAGE, ...(cursor === undefined ? {} : { cursor }) })
    scanned += page.items.length
    // The text is matched on the memory alone; only matches are loaded as whole worlds.
    const matching = words.length === 0
      ? page.items.map((hit) => hit.id)
      : (await Promise.all(page.items.map(async ({ id }) => await init.records.getMemory(id))))
          .flatMap((memory) => memory !== null && matchesText(memory.signed.record, words) ? [memory.id] : [])
    const found = await Promise.all(matching.slice(0, window - worlds.size).map(async (id) => await init.memories.get(id)))
    for (const world of found) {
      if (world === null) continue
      const chosen = await newestSuccessor(init.memories, world)
      worlds.set(chosen.id, chosen)
      if (worlds.size >= window) return [...worlds.values()]
    }
    cursor = page.next
  } while (cursor !== undefined && scanned < MAX_SCANNED)
  return [...worlds.values()]
}

/** @default 16 — successors followed at most (a chain longer than this is cut, not looped on). */
export const MAX_SUCCESSOR_HOPS = 16

async function newestSuccessor (memories: MemoryStore, world: World): Promise<World> {
  let current = world
  for (let hop = 0; hop < MAX_SUCCESSOR_HOPS && current.supersededBy !== undefined; hop++) {
    const next = await memories.get(current.supersededBy)
    if (next === null) break
    current = next
  }
  return current
}

function describeQuery (request: SelectionRequest): string {
  return JSON.stringify({
    ...(request.query === undefined ? {} : { text: request.query }),
    ...(request.tags === undefined ? {} : { tags: request.tags }),
    ...(request.author === undefined ? {} : { author: request.author }),
    ...(request.type === undefined ? {} : { type: request.type }),
    ...(request.minTrust === undefined ? {} : { minTrust: request.minTrust }),
    limit: request.limit ?? DEFAULT_SELECT_LIMIT
  })
}

function compare (a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}
