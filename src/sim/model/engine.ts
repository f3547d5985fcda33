import { performance } from 'node:perf_hooks'
import type { Plan, PlannedEvent, Scenario } from '../scenario/index.js'
import { Holders, type HolderGroup } from './holders.js'
import { LinkModel } from './links.js'
import { EventQueue, type ScheduledEvent } from './queue.js'
import { createFastRandom } from './fast-random.js'
import { agentsOf, attestationRecord, memoryRecord, witnessRequestRecord, type Agent, type SignedBytes } from './signed-records.js'
import { SPOT_CHECKS_PER_MEMORY, SPOT_ESCALATION, SpotChecks } from './spot-checks.js'
import type { MemoryAttestations, StoredAttestation } from '../../reputation/index.js'
import type { WitnessRequestRecord } from '../../schema/index.js'
import { hopsOf, ModelTopology, repairsOf, UNREACHABLE } from './topology.js'

/*
 * The model engine's run in virtual time: the plan's memories, witness requests, answers, churn and
 * partitions as events on one binary heap (no closures: a kind code and two integers each), over
 * the modelled network of topology.ts and links.ts. Records are real (records.ts). What it keeps is
 * what the metrics need: when each memory and attestation reached each tracked node (every node of a
 * small network, else the observers and a seeded sample), who holds what (holders.ts), and the
 * witnesses' request delays and round trips. Pure and seeded: the same scenario gives the same run.
 */

/** Virtual time 0: records are dated from here, so the same seed signs the same bytes. */
export const MODEL_EPOCH_MS = Date.UTC(2026, 0, 1)
/** Networks up to this size are tracked whole; larger ones at the observers plus a sample up to this many. */
export const TRACKED_NODES = 256
/**
 * How long a witness waits for a request to reach it, in real seconds of the real engines
 * (src/sim/driver/driver.ts INBOX_WAIT_MS), and how long they wait for answers after the last planned
 * action (DRAIN_TIMEOUT_MS): the model converts both to simulated time with the scenario's time scale.
 */
const INBOX_WAIT_REAL_S = 180
const DRAIN_REAL_S = 120

const EVENT = { memory: 1, answer: 2, topology: 3, spot: 4 } as const

/** A spot check an observer asked (spot-checks.ts): its own signed witness request for a memory. */
export interface SpotRequest {
  observer: number
  memory: number
  request: SignedBytes<WitnessRequestRecord>
}

export interface ModelCounters {
  /** Per tracked node: messages received by gossip including duplicates (one per mesh peer that forwards it). */
  received: Float64Array
  /** Per tracked node: distinct records received by gossip. */
  byGossip: Float64Array
  /** Per tracked node: records received by sync-v1 catch-up. */
  bySync: Float64Array
}

export interface ModelRun {
  plan: Plan
  agents: Agent[]
  /** Tracked nodes, ascending; observers among them. */
  tracked: number[]
  /** Signed records by message index: memories 0..M-1 by serial, then attestations by answer slot; undefined if never published. */
  records: Array<SignedBytes | undefined>
  /** Publication instant (virtual ms) by message index; NaN if never published. */
  publishedAt: Float64Array
  /** Arrival (virtual ms) of message i at tracked node j at [i × tracked.length + j]; NaN if it never arrived. */
  arrivals: Float32Array
  /** Memory count M: message indexes below it are memories. */
  memoryCount: number
  /** The witness of each answer slot's attestation (message M + slot). */
  slotWitness: Int32Array
  /** Memory serial of each answer slot. */
  slotMemory: Int32Array
  /** Answer slots from here on are the observers' spot checks (options.spotChecks + spotEscalation per memory and observer). */
  spotSlotStart: number
  /** The observers' spot-check requests, in the order they were made. */
  spotRequests: SpotRequest[]
  requestDelays: number[]
  roundTrips: number[]
  missedAnswers: number
  problems: Map<number, string>
  onlineAtEnd: Uint8Array
  /** Virtual ms at which the observers' trust is measured. */
  measuredAt: number
  counters: ModelCounters
  timings: { setupSeconds: number, activitySeconds: number }
  events: number
  notes: string[]
}

function trackedNodes (plan: Plan, size: number, seed: number): number[] {
  if (size <= TRACKED_NODES) return Array.from({ length: size }, (_, i) => i)
  const chosen = new Set(plan.observers)
  const random = createFastRandom(seed, 3)
  while (chosen.size < TRACKED_NODES) chosen.add(Math.floor(random.next() * size))
  return [...chosen].sort((a, b) => a - b)
}

export interface ModelOptions {
  /**
   * Witnesses each observer asks about each memory it receives (spot-checks.ts), as a daemon does by
   * default (src/daemon/spot-checks.ts, the same src/trust SPOT_CHECK_DRAW); 0: none
   * (`isnad sim run --no-spot-checks`). @default SPOT_CHECKS_PER_MEMORY (3)
   */
  spotChecks?: number
  /** Witnesses an observer asks more, once, when one of its spot checks comes back a dispute. @default SPOT_ESCALATION (2; 0 when spotChecks is 0) */
  spotEscalation?: number
}

export function playModel (scenario: Scenario, plan: Plan, progress: (text: string) => void, options: ModelOptions = {}): ModelRun {
  const setupStart = performance.now()
  const size = plan.roles.length
  const agents = agentsOf(scenario.seed, size)
  const topology = new ModelTopology(size, plan.edges, createFastRandom(scenario.seed, 1))
  const links = new LinkModel(scenario, createFastRandom(scenario.seed, 2))
  const tracked = trackedNodes(plan, size, scenario.seed)
  const column = new Int32Array(size).fill(-1)
  tracked.forEach((node, j) => { column[node] = j })
  const T = tracked.length
  const observerOfColumn = new Int32Array(T).fill(-1)
  plan.observers.forEach((o, oi) => { observerOfColumn[column[o] as number] = oi })
  const M = plan.memories.length
  const slotStart = new Int32Array(M + 1)
  plan.memories.forEach((m, i) => { slotStart[i + 1] = (slotStart[i] as number) + m.answers.length })
  // Answer slots: the authors' planned requests, then K spot checks per memory and observer.
  const O = plan.observers.length
  const K = options.spotChecks ?? SPOT_CHECKS_PER_MEMORY
  const E = K > 0 ? options.spotEscalation ?? SPOT_ESCALATION : 0
  // Each (memory, observer) has a block of K + E spot slots: the first round, then the escalation.
  const B = K + E
  const spotSlotStart = slotStart[M] as number
  const A = spotSlotStart + M * O * B
  const slotWitness = new Int32Array(A).fill(-1)
  const slotMemory = new Int32Array(A)
  plan.memories.forEach((m, i) => m.answers.forEach((a, k) => { slotWitness[(slotStart[i] as number) + k] = a.witness; slotMemory[(slotStart[i] as number) + k] = i }))
  for (let i = 0; i < M; i++) slotMemory.fill(i, spotSlotStart + i * O * B, spotSlotStart + (i + 1) * O * B)
  const spotVerdict: Array<'confirm' | 'dispute' | null> = new Array(M * O * B).fill(null)
  /** When each spot-check request reached its witness (virtual ms; NaN: never). */
  const spotArrived = new Float64Array(M * O * B).fill(Number.NaN)
  const escalated = new Uint8Array(M * O)
  const spotChecks = new SpotChecks(scenario, plan, agents.map((a) => a.did), createFastRandom(scenario.seed, 4), K)
  const spotRequests: SpotRequest[] = []
  /** Published attestations' message indexes, in publication order (what an observer may hold). */
  const publishedAttestations: number[] = []
  const records: Array<SignedBytes | undefined> = new Array(M + A)
  const publishedAt = new Float64Array(M + A).fill(Number.NaN)
  const arrivals = new Float32Array((M + A) * T).fill(Number.NaN)
  const requestDistance = new Int32Array(A).fill(UNREACHABLE)
  const requestEpoch = new Int32Array(A)
  const requestDone = new Uint8Array(A)
  const holders = new Holders(size)
  const counters: ModelCounters = { received: new Float64Array(T), byGossip: new Float64Array(T), bySync: new Float64Array(T) }
  const run = {
    requestDelays: [] as number[], roundTrips: [] as number[], missedAnswers: 0, problems: new Map<number, string>(), notes: [] as string[]
  }
  const msPerMinute = 60_000
  const inboxWaitMs = INBOX_WAIT_REAL_S / scenario.timeScale.realSecondsPerMinute * msPerMinute
  const endMs = scenario.durationMinutes * msPerMinute
  const drainEndMs = endMs + DRAIN_REAL_S / scenario.timeScale.realSecondsPerMinute * msPerMinute
  const iso = (ms: number): string => new Date(MODEL_EPOCH_MS + Math.round(ms)).toISOString()
  const setupSeconds = (performance.now() - setupStart) / 1000

  const queue = new EventQueue()
  plan.memories.forEach((m, i) => { queue.push(m.at * msPerMinute, EVENT.memory, i) })
  plan.events.forEach((e, i) => { queue.push(e.at * msPerMinute, EVENT.topology, i) })

  /** Publishes message `index` from `source` at `now`: gossip to its component, arrivals at the tracked nodes. */
  const publish = (index: number, source: number, now: number): HolderGroup => {
    publishedAt[index] = now
    const bytes = (records[index] as SignedBytes).bytes.length
    const component = topology.component[source] as number
    const group = holders.groupOf(topology.epoch, component, function * () {
      for (let v = 0; v < size; v++) if (topology.component[v] === component && topology.online[v] === 1) yield v
    })
    group.messages.push(index)
    if (index >= M) publishedAttestations.push(index)
    for (let j = 0; j < T; j++) {
      const node = tracked[j] as number
      if (node === source) { arrivals[index * T + j] = now; continue }
      const d = topology.publishDistance(source, node)
      if (d === UNREACHABLE) continue
      arrivals[index * T + j] = now + links.path(hopsOf(d), repairsOf(d), bytes)
      counters.byGossip[j]! += 1
      counters.received[j]! += Math.max(1, topology.meshDegree[node] as number)
      if (index < M) memoryReached(index, j)
    }
    return group
  }

  /** A memory reached tracked column j: an observer spot-checks it then (spot-checks.ts). */
  const memoryReached = (serial: number, j: number): void => {
    const oi = observerOfColumn[j] as number
    if (oi >= 0 && K > 0) queue.push(arrivals[serial * T + j] as number, EVENT.spot, serial * O + oi)
  }

  /** The memories and attestations observer column j holds at `now`, for its reputation table. */
  const heldBy = (j: number, now: number): MemoryAttestations[] => {
    const byMemory = new Map<number, StoredAttestation[]>()
    for (const index of publishedAttestations) {
      if (!((arrivals[index * T + j] as number) <= now)) continue
      const serial = slotMemory[index - M] as number
      if (!((arrivals[serial * T + j] as number) <= now)) continue
      const list = byMemory.get(serial) ?? []
      const record = records[index] as SignedBytes
      if (record.record.kind === 'attestation') list.push({ id: record.id, record: record.record })
      byMemory.set(serial, list)
    }
    return [...byMemory].map(([serial, attestations]) => ({ author: (agents[plan.memories[serial]?.author as number] as Agent).did, attestations }))
  }

  /** The answer slots of memory `serial`: the author's planned requests, then every observer's spot block. */
  const slotsOf = function * (serial: number): Generator<number> {
    for (let slot = slotStart[serial] as number; slot < (slotStart[serial + 1] as number); slot++) yield slot
    const spotBlock = spotSlotStart + serial * O * B
    for (let slot = spotBlock; slot < spotBlock + O * B; slot++) yield slot
  }

  /** Witnesses whose attestation of memory `serial` has reached tracked column j by `now` (the daemon leaves them out of its draw). */
  const answeredAt = (serial: number, j: number, now: number): number[] => {
    const out: number[] = []
    for (const slot of slotsOf(serial)) {
      if ((arrivals[(M + slot) * T + j] as number) <= now) out.push(slotWitness[slot] as number)
    }
    return out
  }

  /** Whether `witness` published an attestation of memory `serial` before `when` (a request arriving then is no inbox item, src/node inbox.ts). */
  const attestedBefore = (serial: number, witness: number, when: number): boolean => {
    for (const slot of slotsOf(serial)) {
      if (slotWitness[slot] === witness && (publishedAt[M + slot] as number) < when) return true
    }
    return false
  }

  /**
   * Observer `oi` asks its spot-check witnesses about memory `serial`: K on receiving it (round 0),
   * E more, once, when one of those answers is a dispute (round 1: its sample disagrees, so it asks more).
   */
  const playSpot = (serial: number, oi: number, round: number, now: number): void => {
    const observer = plan.observers[oi] as number
    if (topology.online[observer] !== 1 || records[serial] === undefined) return
    const j = column[observer] as number
    const block = spotSlotStart + (serial * O + oi) * B
    const first = round === 0 ? 0 : K
    const drawnBefore = Array.from(slotWitness.subarray(block, block + first)).filter((w) => w >= 0)
    const answers = spotChecks.draw(observer, serial, now, () => heldBy(j, now), round === 0 ? K : E, [...drawnBefore, ...answeredAt(serial, j, now)])
    if (answers.length === 0) return
    const memoryId = (records[serial] as SignedBytes).id
    const request = witnessRequestRecord(agents[observer] as Agent, memoryId, answers.map((a) => (agents[a.witness] as Agent).did), iso(now))
    spotRequests.push({ observer, memory: serial, request })
    const distances = topology.distancesFrom(observer, answers.map((a) => a.witness))
    answers.forEach((answer, k) => {
      const slot = block + first + k
      slotWitness[slot] = answer.witness
      spotVerdict[slot - spotSlotStart] = answer.verdict
      const d = distances[k] as number
      if (answer.verdict === null || d === UNREACHABLE) return
      const arrived = now + links.path(hopsOf(d), repairsOf(d), request.bytes.length)
      spotArrived[slot - spotSlotStart] = arrived
      queue.push(arrived + answer.delayMinutes * msPerMinute, EVENT.answer, slot)
    })
  }

  const requestArrived = (slot: number, at: number): void => {
    requestDone[slot] = 1
    const memory = slotMemory[slot] as number
    const planned = plan.memories[memory]?.answers[slot - (slotStart[memory] as number)]
    if (planned === undefined || planned.verdict === null) return
    run.requestDelays.push(at - (publishedAt[memory] as number))
    queue.push(at + planned.delayMinutes * msPerMinute, EVENT.answer, slot)
  }

  const playMemory = (serial: number, now: number): void => {
    const planned = plan.memories[serial]
    if (planned === undefined) return
    if (topology.online[planned.author] !== 1) { run.problems.set(serial, 'author offline'); return }
    const author = agents[planned.author] as Agent
    const memory = memoryRecord(author, scenario.name, serial, iso(now))
    records[serial] = memory
    const group = publish(serial, planned.author, now)
    if (planned.answers.length === 0) return
    // The request is signed and gossiped with its memory (gossip-v1's witness envelope).
    witnessRequestRecord(author, memory.id, planned.answers.map((a) => (agents[a.witness] as Agent).did), iso(now))
    const witnesses = planned.answers.map((a) => a.witness)
    const distances = topology.distancesFrom(planned.author, witnesses)
    const bytes = memory.bytes.length
    planned.answers.forEach((_, k) => {
      const slot = (slotStart[serial] as number) + k
      const d = distances[k] as number
      requestDistance[slot] = d
      requestEpoch[slot] = topology.epoch
      if (d === UNREACHABLE) group.pending.push(slot)
      else requestArrived(slot, now + links.path(hopsOf(d), repairsOf(d), 2 * bytes))
    })
  }

  const playSpotAnswer = (slot: number, now: number): void => {
    const verdict = spotVerdict[slot - spotSlotStart]
    const witness = slotWitness[slot] as number
    if (verdict === null || verdict === undefined || witness < 0) return
    if (topology.online[witness] !== 1) return
    // A request reaching a witness that had already answered the memory is no inbox item: no answer.
    if (attestedBefore(slotMemory[slot] as number, witness, spotArrived[slot - spotSlotStart] as number)) return
    const index = M + slot
    records[index] = attestationRecord(agents[witness] as Agent, (records[slotMemory[slot] as number] as SignedBytes).id, verdict, iso(now))
    publish(index, witness, now)
    // A dispute in the first round: the observer asks E more once it has the dispute.
    const pair = Math.floor((slot - spotSlotStart) / B)
    if (verdict !== 'dispute' || E === 0 || (slot - spotSlotStart) % B >= K || escalated[pair] === 1) return
    const oi = pair % O
    const seen = arrivals[index * T + (column[plan.observers[oi] as number] as number)] as number
    if (Number.isNaN(seen)) return
    escalated[pair] = 1
    queue.push(seen, EVENT.spot, pair, 1)
  }

  const playAnswer = (slot: number, now: number): void => {
    if (slot >= spotSlotStart) { playSpotAnswer(slot, now); return }
    const memory = slotMemory[slot] as number
    const planned = plan.memories[memory]
    const answer = planned?.answers[slot - (slotStart[memory] as number)]
    if (planned === undefined || answer === undefined || answer.verdict === null) return
    const witness = answer.witness
    if (topology.online[witness] !== 1) { run.missedAnswers++; return }
    const memoryId = (records[memory] as SignedBytes).id
    const index = M + slot
    records[index] = attestationRecord(agents[witness] as Agent, memoryId, answer.verdict, iso(now))
    publish(index, witness, now)
    // The author's node storing the answer closes the witness round trip (as driver.ts measures it).
    if (topology.online[planned.author] !== 1) return
    let d = requestEpoch[slot] === topology.epoch ? requestDistance[slot] as number : UNREACHABLE
    if (d === UNREACHABLE) d = topology.distancesFrom(witness, [planned.author])[0] as number
    if (d === UNREACHABLE) return
    const back = now + links.path(hopsOf(d), repairsOf(d), (records[index] as SignedBytes).bytes.length)
    run.roundTrips.push(back - (publishedAt[memory] as number))
  }

  /** sync-v1 over `pairs` ([puller, peer]) at `now`: the pullers gain whole groups. */
  const sync = (pairs: ReadonlyArray<readonly [number, number]>, now: number): void => {
    holders.sync(pairs, (group, node) => {
      const j = column[node] as number
      if (j >= 0) {
        for (const index of group.messages) {
          if (!Number.isNaN(arrivals[index * T + j] as number)) continue
          arrivals[index * T + j] = now + links.sync((records[index] as SignedBytes).bytes.length)
          counters.bySync[j]! += 1
          if (index < M) memoryReached(index, j)
        }
      }
      if (group.pending.length === 0) return
      group.pending = group.pending.filter((slot) => {
        if (slotWitness[slot] !== node) return true
        const memory = slotMemory[slot] as number
        if (now <= (publishedAt[memory] as number) + inboxWaitMs) requestArrived(slot, now + links.sync(1024))
        return false
      })
    })
  }

  const bothWays = (pairs: Array<readonly [number, number]>): Array<readonly [number, number]> => pairs.flatMap(([a, b]) => [[a, b], [b, a]] as const)

  const applyEvent = (event: PlannedEvent, now: number): void => {
    switch (event.kind) {
      case 'leave':
        for (const n of event.nodes) topology.online[n] = 0
        topology.rebuild()
        return
      case 'join': {
        for (const n of event.nodes) topology.online[n] = 1
        for (const n of event.nodes) topology.rejoin(n)
        topology.rebuild()
        sync(bothWays(event.nodes.flatMap((n) => [...topology.peersOf(n)].map((p) => [n, p] as const))), now)
        return
      }
      case 'partition':
        topology.side = new Uint8Array(size)
        for (const n of event.side) topology.side[n] = 1
        topology.rebuild()
        return
      case 'heal': heal(now)
    }
  }

  const heal = (now: number): void => {
    const cut = topology.side
    if (cut === null) return
    topology.side = null
    topology.rebuild()
    const across: Array<readonly [number, number]> = []
    for (let u = 0; u < size; u++) for (const v of topology.peersOf(u)) if (u < v && cut[u] !== cut[v]) across.push([u, v])
    sync(bothWays(across), now)
  }

  progress(`model: playing ${M} memories and ${plan.events.length} network events over ${scenario.durationMinutes} simulated minutes (${size} nodes, ${T} tracked)`)
  const activityStart = performance.now()
  const event: ScheduledEvent = { time: 0, kind: 0, a: 0, b: 0 }
  let lastReport = activityStart
  let last = 0
  while (queue.pop(event) !== undefined) {
    if (event.time > drainEndMs) {
      if (event.kind === EVENT.answer && event.a < spotSlotStart) run.missedAnswers++
      continue
    }
    last = event.time
    if (event.kind === EVENT.memory) playMemory(event.a, event.time)
    else if (event.kind === EVENT.answer) playAnswer(event.a, event.time)
    else if (event.kind === EVENT.spot) playSpot(Math.floor(event.a / O), event.a % O, event.b, event.time)
    else applyEvent(plan.events[event.a] as PlannedEvent, event.time)
    if (performance.now() - lastReport > 5000) {
      lastReport = performance.now()
      progress(`model: minute ${(event.time / msPerMinute).toFixed(1)}/${scenario.durationMinutes}, ${queue.processed} events`)
    }
  }
  // Requests that never reached their witness within its wait are answers missed.
  for (let slot = 0; slot < spotSlotStart; slot++) {
    const memory = slotMemory[slot] as number
    const answer = plan.memories[memory]?.answers[slot - (slotStart[memory] as number)]
    if (requestDone[slot] !== 1 && answer?.verdict !== null && answer?.verdict !== undefined && !Number.isNaN(publishedAt[memory] as number)) run.missedAnswers++
  }
  // Settling as topology-actions.ts does: the partition heals, then each observer syncs with its peers.
  const settleAt = Math.max(last, endMs)
  heal(settleAt)
  sync(plan.observers.filter((o) => topology.online[o] === 1).flatMap((o) => [...topology.peersOf(o)].map((p) => [o, p] as const)), settleAt)
  let measuredAt = settleAt
  for (const value of arrivals) if (value > measuredAt) measuredAt = value
  return {
    plan,
    agents,
    tracked,
    records,
    publishedAt,
    arrivals,
    memoryCount: M,
    slotWitness,
    slotMemory,
    spotSlotStart,
    spotRequests,
    requestDelays: run.requestDelays,
    roundTrips: run.roundTrips,
    missedAnswers: run.missedAnswers,
    problems: run.problems,
    onlineAtEnd: topology.online.slice(),
    measuredAt: Math.ceil(measuredAt) + 1,
    counters,
    timings: { setupSeconds, activitySeconds: (performance.now() - activityStart) / 1000 },
    events: queue.processed,
    notes: run.notes
  }
}
