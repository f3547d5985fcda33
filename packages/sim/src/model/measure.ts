import { performance } from 'node:perf_hooks'
import { type AttestationRecord, type MemoryRecord, nodeCryptoVerifier, type VerifiedRecord, verifyRecordBytes, type WitnessRequestRecord } from 'isnad/engine'
import {
  cdfOfSorted, computeMetrics, percentilesOfSorted, selectRanks, summaryRanks, type RunMetrics, createObservations, type Observations, scoreTrustView, trustPolicies, type TrustView
} from '../driver/index.js'
import type { NodeCounters } from '../pools/index.js'
import type { ShardingSummary } from '../driver/index.js'
import { arrivalAt, MODEL_EPOCH_MS, type ModelRun } from './engine.js'
import { judgedMemories, shardedMemoryDelivery, shardingSummary } from './shard-measure.js'
import { fetchEvidence } from './evidence-fetch.js'

/*
 * The model engine's measurements, with the real engines' own code: each observer's records are the
 * signed bytes that reached it, verified by the node's verifier (node:crypto with libsodium in front)
 * once per distinct record as a node's record gate does (verdicts cached by CID), scored by
 * scoreTrustView (trust-views.ts: reputation from the observer's roots, every registered policy),
 * and turned into the same RunMetrics by computeMetrics. Delivery is measured at the tracked nodes.
 */

export interface ModelMeasurement {
  metrics: RunMetrics
  /** The shards played and what they cost each measured node. */
  sharding: ShardingSummary
  /** Signature checks made, and their total wall time (ms): the figure of the verifier's cost. */
  verifications: { count: number, ms: number }
  settleSeconds: number
}

export function measureModel (run: ModelRun): ModelMeasurement {
  const start = performance.now()
  const { plan, tracked, memoryCount: M, records, publishedAt } = run
  const now = MODEL_EPOCH_MS + run.measuredAt
  const verdicts = new Map<number, VerifiedRecord | null>()
  let verifyMs = 0
  const verified = (index: number): VerifiedRecord | null => {
    let verdict = verdicts.get(index)
    if (verdict === undefined) {
      const record = records[index]
      const t0 = performance.now()
      try {
        verdict = record === undefined ? null : verifyRecordBytes(record.bytes, { verifier: nodeCryptoVerifier, now })
      } catch {
        verdict = null // a record that does not verify is no evidence
      }
      verifyMs += performance.now() - t0
      verdicts.set(index, verdict)
    }
    return verdict
  }

  // Verified signer by signer: the verifier caches one decoded key per signer (node-verifier.ts, 4096
  // keys), as a node meeting its peers' records again and again would keep them warm.
  const observed = plan.observers.filter((o) => run.onlineAtEnd[o] === 1).map((o) => tracked.indexOf(o))
  const signerOf = (index: number): number => index < M ? plan.memories[index]?.author as number : run.slotWitness[index - M] as number
  const held: number[] = []
  for (let index = 0; index < records.length; index++) {
    if (observed.some((j) => !Number.isNaN(arrivalAt(run, index, j)))) held.push(index)
  }
  held.sort((a, b) => signerOf(a) - signerOf(b) || a - b)
  for (const index of held) verified(index)

  // The drawn witnesses of each memory, by DID: what the draw proofs would show every node (the
  // model samples the draw, so the set is handed to the scoring rather than proved, draw-sampling.ts).
  const drawnWitnesses = new Map<string, ReadonlySet<string>>()
  run.drawn.forEach((witnesses, serial) => {
    const id = records[serial]?.id
    if (id !== undefined && witnesses.length > 0) drawnWitnesses.set(id, new Set(witnesses.map((w) => run.agents[w]?.did as string)))
  })
  const views: TrustView[] = []
  // Each observer is judged on its home shards' memories: a sharded node holds no other.
  const judged: Array<Set<string>> = []
  let bytes = 0
  let counted = 0
  for (const observer of plan.observers) {
    if (run.onlineAtEnd[observer] !== 1) continue
    const j = tracked.indexOf(observer)
    judged.push(judgedMemories(run, observer))
    const memories = new Map<string, MemoryRecord>()
    const attestations = new Map<string, Array<{ id: string, record: AttestationRecord }>>()
    /** Adds a verified record to what the observer holds; false when it does not verify. */
    const hold = (index: number): VerifiedRecord | null => {
      const v = verified(index)
      if (v === null) return null
      const { record } = v.signed
      if (record.kind === 'memory') memories.set(v.id, record)
      else if (record.kind === 'attestation') {
        const list = attestations.get(record.memory) ?? []
        list.push({ id: v.id, record })
        attestations.set(record.memory, list)
      }
      return v
    }
    for (let index = 0; index < records.length; index++) {
      if (Number.isNaN(arrivalAt(run, index, j))) continue
      const v = hold(index)
      if (v === null) continue
      bytes += v.bytes.length
      counted++
    }
    if (run.scenario.sharding.evidenceFetch === 'explained') {
      const fetched = fetchEvidence(run, observer, j, judged[judged.length - 1] as Set<string>, attestations)
      run.counters.byEvidence[j] = fetched.messages
      run.counters.evidenceRecords[j] = fetched.indexes.length
      for (const index of fetched.indexes) hold(index)
    }
    // The observer's own private-check requests (engine.ts playChecks): it holds what it signed.
    const requests = new Map<string, Array<{ id: string, record: WitnessRequestRecord }>>()
    for (const { observer: asker, memory, request } of run.privateRequests) {
      if (asker !== observer) continue
      const id = records[memory]?.id as string
      const list = requests.get(id) ?? []
      list.push({ id: request.id, record: request.record })
      requests.set(id, list)
    }
    const roots = [observer, ...plan.trustRoots].map((i) => run.agents[i]?.did as string)
    views.push(scoreTrustView(memories, attestations, roots, now, requests, { witnesses: drawnWitnesses, population: plan.roles.length, shards: run.shards.count }))
  }

  const online = tracked.map((node, j) => ({ node, j })).filter(({ node }) => run.onlineAtEnd[node] === 1)
  const observations: Observations = createObservations()
  observations.memories = plan.memories.map((m) => {
    const id = records[m.serial]?.id
    const problem = run.problems.get(m.serial)
    return { serial: m.serial, author: m.author, truth: m.truth, at: m.at, ...(id === undefined ? {} : { id }), ...(problem === undefined ? {} : { problem }) }
  })
  observations.requestDelays = run.requestDelays
  observations.witnessRoundTrips = run.roundTrips
  observations.missedAnswers = run.missedAnswers
  // The network's witness traffic: the authors' requests and private checks, every attestation, the draw.
  let attestationCount = 0
  for (let index = M; index < records.length; index++) if (records[index] !== undefined) attestationCount++
  const checks = run.checks
  observations.witnessLoad = {
    requests: checks.requests,
    attestations: attestationCount,
    checkingNodes: checks.checkingNodes,
    drawn: checks.drawn,
    drawnAnswers: checks.drawnAnswers,
    privateChecks: checks.privateChecks,
    budgetSkipped: checks.budgetSkipped
  }
  observations.onlineAtEnd = online.map(({ node }) => node)
  const memoryCounts = online.map(({ j }) => {
    let held = 0
    for (let i = 0; i < M; i++) if (!Number.isNaN(arrivalAt(run, i, j))) held++
    return held
  })
  const verifyCost = verdicts.size === 0 ? 0 : verifyMs / verdicts.size
  const counters: NodeCounters[] = online.map(({ j }) => ({
    gossipAccepted: run.counters.byGossip[j] as number,
    // Copies from further mesh peers (run.counters.received) never reach the node's counters: gossipsub's
    // seen-cache drops them before validation, so a real node counts each gossiped record once.
    gossipIgnored: 0,
    gossipRejected: 0,
    verifications: (run.counters.byGossip[j] as number) + (run.counters.bySync[j] as number),
    recordsByGossip: run.counters.byGossip[j] as number,
    recordsByFetch: 0,
    recordsBySync: (run.counters.bySync[j] as number) + (run.counters.evidenceRecords[j] as number),
    cpuMs: verifyCost * ((run.counters.byGossip[j] as number) + (run.counters.bySync[j] as number))
  }))
  const metrics = computeMetrics({
    plan, observations, views, judged, memoryCounts, counters, meanRecordBytes: counted === 0 ? 0 : bytes / counted, policies: trustPolicies().map((p) => p.name)
  })
  // Attestation delivery and gossip latency at the tracked nodes online at the end (the witness
  // excluded): millions of samples at 10,000 agents, gathered in one typed array.
  let latencies = new Float64Array(1 << 16)
  let arrived = 0
  let expected = 0
  const onlineColumns = Int32Array.from(online.map(({ j }) => j))
  const onlineNodes = Int32Array.from(online.map(({ node }) => node))
  for (let slot = 0; slot < run.slotWitness.length; slot++) {
    const index = M + slot
    const sent = publishedAt[index] as number
    const row = run.arrivals[index]
    if (Number.isNaN(sent) || sent === undefined || row === undefined) continue
    const witness = run.slotWitness[slot] as number
    const shard = run.shards.shardOfAuthor(plan.memories[run.slotMemory[slot] as number]?.author as number)
    if (arrived + onlineColumns.length > latencies.length) {
      const grown = new Float64Array(latencies.length * 2 + onlineColumns.length)
      grown.set(latencies.subarray(0, arrived))
      latencies = grown
    }
    for (let k = 0; k < onlineColumns.length; k++) {
      // Expected at the subscribers of the memory's shard (the witness's own copy aside).
      if (onlineNodes[k] === witness || !run.shards.subscribes(onlineNodes[k] as number, shard)) continue
      expected++
      const at = row[onlineColumns[k] as number] as number
      if (at === at) latencies[arrived++] = at - sent
    }
  }
  // The percentiles and the CDF read about a hundred ranks: those are selected, not the whole sorted.
  const ranked = selectRanks(latencies.subarray(0, arrived), summaryRanks(arrived))
  metrics.delivery.attestationRatio = expected === 0 ? null : Math.round(arrived / expected * 1e4) / 1e4
  metrics.delivery.latencyMs = percentilesOfSorted(ranked)
  metrics.delivery.latencyCdf = cdfOfSorted(ranked)
  // A node holds its shards' memories, not the network's: delivery is of those.
  metrics.delivery.memoryRatio = shardedMemoryDelivery(run, online)
  const sharding = shardingSummary(run, run.scenario, online, judged.map((ids) => ids.size))
  return { metrics, sharding, verifications: { count: verdicts.size, ms: verifyMs }, settleSeconds: (performance.now() - start) / 1000 }
}
