import { type AttestationRecord, evidenceAgentsNeeded } from 'isnad/engine'
import { arrivalAt, type ModelRun } from './engine.js'

/*
 * Trust on partial knowledge as the model engine plays it (docs/simulation.md, "Evidence fetching";
 * docs/trust.md §3a). A daemon fetches the evidence of the agents a score it explains read (the
 * author and the witnesses) when their shard is not one it holds: by sync by interest, each such
 * agent an author interest, at most EVIDENCE_FETCH.maxAgentsPerRound (src/node) a round. What a query or an
 * export reads asks for nothing, so on defaults an observer that only exports (as the simulator's
 * observers do on real nodes) fetches nothing. With the scenario's `sharding.evidenceFetch:
 * explained`, each observer explains every memory it is judged on, once, at the end: it then holds,
 * besides its shards, the memories of the agents chosen (src/node evidenceAgentsNeeded, the daemon's
 * own choice) and their attestations, and its traffic counts them as sync brings them — each record
 * once, plus one request per round and peer.
 */

export interface FetchedEvidence {
  /** Message indexes (engine.ts) the fetch brought that the observer did not hold. */
  indexes: number[]
  /** Agents asked for. */
  agents: number
  /** Messages: the records brought, and one sync request per round and peer. */
  messages: number
}

export function fetchEvidence (
  run: ModelRun, observer: number, j: number, judged: ReadonlySet<string>,
  attestations: ReadonlyMap<string, ReadonlyArray<{ id: string, record: AttestationRecord }>>
): FetchedEvidence {
  const { plan, memoryCount: M, records, shards } = run
  const index = new Map(run.agents.map((a, i) => [a.did, i]))
  const held = (did: string): boolean => shards.subscribes(observer, shards.shardOfAuthor(index.get(did) as number))
  const scored: string[] = []
  for (const [memory, list] of attestations) {
    if (!judged.has(memory)) continue
    for (const { record } of list) scored.push(record.witness)
  }
  // Rounds of the daemon's size until nothing is left to ask; each asks its peers once.
  const asked = new Map<string, number>()
  let rounds = 0
  for (;;) {
    const wanted = evidenceAgentsNeeded({ roots: [], scored, neighbours: () => [], held, lastAsked: (did) => asked.get(did), now: 0 })
    if (wanted.length === 0) break
    for (const did of wanted) asked.set(did, 0)
    rounds++
  }
  const authors = new Set([...asked.keys()].map((did) => index.get(did) as number))
  const indexes: number[] = []
  const authorOf = (serial: number): number => plan.memories[serial]?.author as number
  for (let serial = 0; serial < M; serial++) {
    if (records[serial] !== undefined && authors.has(authorOf(serial)) && Number.isNaN(arrivalAt(run, serial, j))) indexes.push(serial)
  }
  for (let slot = 0; slot < run.slotMemory.length; slot++) {
    if (records[M + slot] === undefined || !authors.has(authorOf(run.slotMemory[slot] as number))) continue
    if (Number.isNaN(arrivalAt(run, M + slot, j))) indexes.push(M + slot)
  }
  const peers = plan.edges.filter(([a, b]) => a === observer || b === observer).length
  return { indexes, agents: authors.size, messages: indexes.length + rounds * peers }
}

