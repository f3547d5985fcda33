import { performance } from 'node:perf_hooks'
import { collectVotes, computeReputation, type MemoryAttestations, type StoredAttestation } from '../src/reputation/index.js'
import type { AttestationVerdict } from '../src/schema/index.js'
import type { Figure } from './report.js'
import { createRandom, median } from './stats.js'

/*
 * Figure 10: reputation (docs/trust.md §3) over a synthetic attestation graph of `agents` agents and
 * `attestations` attestations — the whole pure pipeline a node runs when its graph changed: one vote
 * per (witness, memory) from the stored attestations (grouped by memory, as the store hands them
 * out; every DID interned to an integer once, as the node does), the CSR graph, personalised PageRank from 10 roots to convergence (L1 change < 1e-10).
 * Baseline, in the same run: one pass over the same attestations interning both DIDs in a Map, the
 * least any computation over them must do.
 */

const ROOTS = 10
const MEMORIES_PER_AGENT = 3
/** Target: 100k agents and 1M attestations in under 5 s. */
const TARGET_MS = 5000

export interface ReputationBenchOptions {
  agents: number
  attestations: number
  rounds: number
  progress: (message: string) => void
}

/**
 * Memories are attested with a heavy tail (a few agents write much of what is attested), by
 * uniformly drawn witnesses; 85 % confirm, 10 % partial, 5 % dispute; 1 % of attestations repeat a
 * witness's earlier one on the same memory (a changed verdict).
 */
function createWorkload (agents: number, attestations: number): { memories: MemoryAttestations[], dids: string[] } {
  const random = createRandom(10)
  const dids = Array.from({ length: agents }, (_, i) => `did:key:z6Mk${i.toString(36).padStart(8, '0')}`)
  const memoryCount = agents * MEMORIES_PER_AGENT
  const byMemory = Array.from({ length: memoryCount }, () => [] as Array<StoredAttestation>)
  for (let i = 0; i < attestations; i++) {
    const memory = Math.floor(memoryCount * random() ** 2)
    const list = byMemory[memory] as Array<StoredAttestation>
    const x = random()
    const verdict: AttestationVerdict = x < 0.85 ? 'confirm' : x < 0.95 ? 'partial' : 'dispute'
    const repeat = list.length > 0 && random() < 0.01
    list.push({
      id: `a${i}`,
      record: {
        kind: 'attestation',
        version: 1,
        memory: `m${memory}`,
        witness: repeat ? (list[0]?.record.witness as string) : dids[Math.floor(random() * agents)] as string,
        attestation: verdict,
        witnessed_at: repeat ? '2026-02-05T11:00:00Z' : '2026-02-05T10:00:00Z'
      }
    })
  }
  const memories = byMemory.map((list, m) => ({ author: dids[Math.floor(m / MEMORIES_PER_AGENT)] as string, attestations: list }))
  return { memories, dids }
}

export async function benchReputation (options: ReputationBenchOptions): Promise<Figure[]> {
  const { agents, attestations, rounds, progress } = options
  progress(`10. reputation: building ${agents.toLocaleString('en-US')} agents × ${attestations.toLocaleString('en-US')} attestations`)
  const { memories, dids } = createWorkload(agents, attestations)
  const roots = dids.slice(0, ROOTS)
  const totals: number[] = []
  const baselines: number[] = []
  const stages = { votes: [] as number[], rank: [] as number[], iterations: 0, edges: 0 }
  for (let round = 0; round <= rounds; round++) {
    let start = performance.now()
    const interned = new Map<string, number>()
    for (const { author, attestations: list } of memories) {
      for (const a of list) {
        if (!interned.has(a.record.witness)) interned.set(a.record.witness, interned.size)
        if (!interned.has(author)) interned.set(author, interned.size)
      }
    }
    const baseline = performance.now() - start
    start = performance.now()
    const votes = collectVotes(memories)
    const afterVotes = performance.now()
    const table = computeReputation(votes, roots)
    const end = performance.now()
    if (round === 0) continue // warm-up
    baselines.push(baseline)
    totals.push(end - start)
    stages.votes.push(afterVotes - start)
    stages.rank.push(end - afterVotes)
    stages.iterations = table.iterations
    stages.edges = table.graph.targets.length
    progress(`10. round ${round}: ${(end - start).toFixed(0)} ms (${table.iterations} iterations), baseline ${baseline.toFixed(0)} ms`)
  }
  const value = median(totals)
  const base = median(baselines)
  return [{
    section: `10. reputation (personalised PageRank from ${ROOTS} roots)`,
    name: `${agents.toLocaleString('en-US')} agents, ${attestations.toLocaleString('en-US')} attestations: votes + graph + PageRank`,
    value,
    unit: 'ms',
    baseline: { name: 'one pass interning the DIDs', value: base, unit: 'ms' },
    ratio: value / base,
    target: { text: `< ${TARGET_MS} ms`, met: Math.max(...totals) < TARGET_MS },
    detail: {
      worstMs: Math.round(Math.max(...totals)),
      votesMs: Math.round(median(stages.votes)),
      graphAndRankMs: Math.round(median(stages.rank)),
      iterations: stages.iterations,
      edges: stages.edges,
      rounds: totals.length
    }
  }]
}
