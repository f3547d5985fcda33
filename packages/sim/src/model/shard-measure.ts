import type { NodeSpread, ShardingSummary } from '../driver/index.js'
import type { Scenario } from '../scenario/index.js'
import { arrivalAt, type ModelRun } from './engine.js'

/*
 * What sharding changes in the model's measurements (docs/simulation.md, "Scale: shards and
 * interests"): an observer is judged on the memories of its home shards, the only ones a sharded node
 * holds; memory delivery is measured against what each node subscribes to; and each node's traffic
 * and storage are summed up for the scale curve.
 */

/** The published memories of `observer`'s home shards, by id: what its trust is judged on. */
export function judgedMemories (run: ModelRun, observer: number): Set<string> {
  const ids = new Set<string>()
  run.plan.memories.forEach((m, serial) => {
    const id = run.records[serial]?.id
    if (id !== undefined && run.shards.subscribes(observer, run.shards.shardOfAuthor(m.author))) ids.add(id)
  })
  return ids
}

/** Memories held / memories published on their shards, over the measured nodes (null: nothing expected). */
export function shardedMemoryDelivery (run: ModelRun, measured: ReadonlyArray<{ node: number, j: number }>): number | null {
  let expected = 0
  let held = 0
  for (let serial = 0; serial < run.memoryCount; serial++) {
    if (Number.isNaN(run.publishedAt[serial] as number)) continue
    const shard = run.shards.shardOfAuthor(run.plan.memories[serial]?.author as number)
    for (const { node, j } of measured) {
      if (!run.shards.subscribes(node, shard)) continue
      expected++
      if (!Number.isNaN(arrivalAt(run, serial, j))) held++
    }
  }
  return expected === 0 ? null : Math.round(held / expected * 1e4) / 1e4
}

function spreadOf (values: readonly number[], digits = 1): NodeSpread {
  if (values.length === 0) return { mean: 0, min: 0, max: 0 }
  const scale = 10 ** digits
  const round = (x: number): number => Math.round(x * scale) / scale
  return { mean: round(values.reduce((a, b) => a + b, 0) / values.length), min: round(Math.min(...values)), max: round(Math.max(...values)) }
}

/** Records tracked column j stores at the end: the memories and attestations that reached it, and its shards' witness requests. */
export function storedRecordsAt (run: ModelRun, j: number): number {
  return storedRecordsByColumn(run)[j] as number
}

/** storedRecordsAt of every tracked column, in one pass over the arrivals (row by row, as they lie in memory). */
export function storedRecordsByColumn (run: ModelRun): Float64Array {
  const stored = Float64Array.from(run.counters.requests, (requests, j) => requests + (run.counters.evidenceRecords[j] as number))
  for (const row of run.arrivals) {
    if (row === undefined) continue
    for (let j = 0; j < row.length; j++) if (row[j] === row[j]) stored[j]!++ // NaN: never arrived
  }
  return stored
}

export function shardingSummary (
  run: ModelRun, scenario: Scenario, measured: ReadonlyArray<{ node: number, j: number }>, judgedSizes: readonly number[]
): ShardingSummary {
  const { shards } = run
  const stored = storedRecordsByColumn(run)
  return {
    count: shards.count,
    acceptedCounts: [...shards.acceptedCounts],
    followsPerAgent: scenario.sharding.followsPerAgent,
    maxShards: scenario.sharding.maxShards,
    observersFollowRoots: scenario.sharding.observersFollowRoots,
    evidenceFetch: scenario.sharding.evidenceFetch,
    evidenceMessagesPerMinute: spreadOf(measured.map(({ j }) => (run.counters.byEvidence[j] as number) / scenario.durationMinutes)),
    agentsPerShard: spreadOf(shards.members.map((m) => m.length)),
    shardsPerNode: spreadOf(shards.homeShards.map((h) => h.length), 2),
    unsubscribedFollows: shards.unsubscribedFollows,
    measuredNodes: measured.length,
    // Gossip and evidence fetching (evidence-fetch.ts): both are messages a node receives.
    messagesPerMinute: spreadOf(measured.map(({ j }) => ((run.counters.byGossip[j] as number) + (run.counters.byEvidence[j] as number)) / scenario.durationMinutes)),
    storedRecords: spreadOf(measured.map(({ j }) => stored[j] as number), 0),
    judgedMemoriesPerObserver: spreadOf(judgedSizes, 0)
  }
}

/** What the model plays differently from a sharded daemon, for the run's notes (none with one shard: today's network). */
export function shardingNotes (run: ModelRun): string[] {
  const { shards } = run
  if (shards.count === 1) return []
  const size = run.plan.roles.length
  return [
    `shards: ${shards.count} from ${size} agents (src/shard shardCountFor); every node's estimate is the exact size, so every record travels under count ${shards.count} and the other accepted counts (${shards.acceptedCounts.filter((c) => c !== shards.count).join(', ')}) carry nothing`,
    'shards: a shard topic\'s own mesh is not modelled; a record reaches exactly its shard\'s subscribers, after the delay of its path over the network\'s mesh',
    'shards: a reconnecting node syncs its shards from its own peers only (a daemon asks peers that hold them)',
    'shards: only the observers\' reputation views are sharded; the other nodes choose a private check\'s witness by the trust roots\' reputation over every record',
    'shards: each observer\'s trust is judged on the memories of its home shards',
    run.scenario.sharding.evidenceFetch === 'explained'
      ? 'evidence: each observer explains every memory it is judged on once, at the end, and fetches at once the evidence of the witnesses outside its shards (a daemon fetches as it explains, 32 agents a round); every fetched author\'s records are taken to be held by a peer it syncs with'
      : 'evidence: the observers read their scores as an export does, which fetches no evidence (a daemon fetches for what `show` and `trust explain` read; `sharding.evidenceFetch: explained` plays that)'
  ]
}
