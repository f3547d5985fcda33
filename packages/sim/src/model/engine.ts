import { performance } from 'node:perf_hooks'
import { isHonest, verdictOf, type Plan, type PlannedEvent, type PlannedMemory, type PlannedVerdict, type Role, type Scenario } from '../scenario/index.js'
import { Holders, type HolderGroup } from './holders.js'
import { LinkModel } from './links.js'
import { EventQueue, type ScheduledEvent } from './queue.js'
import { createFastRandom } from './fast-random.js'
import { agentsOf, attestationRecord, memoryRecord, witnessRequestRecord, type Agent, type SignedBytes } from './signed-records.js'
import { PrivateChecks } from './private-checks.js'
import { binomial, distinctPositions, drawProbability, DRAW_SAMPLED, memoryRandom, sampleDrawn, type AgentList } from './draw-sampling.js'
import { MODEL_DRAW_DEFAULTS, privateCheckProbability, type DrawDefaults } from './draw-settings.js'
import { WitnessBudget } from './witness-budget.js'
import { holdersEstimate, type MemoryAttestations, type StoredAttestation, type WitnessRequestRecord } from 'isnad/engine'
import { hopsOf, ModelTopology, repairsOf, UNREACHABLE } from './topology.js'
import { ShardLayout } from './shard-layout.js'

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

const EVENT = { memory: 1, answer: 2, topology: 3, check: 4 } as const

/** Arrival rows allocated at once (rowOf). */
const ARRIVAL_ROWS_PER_SLAB = 256

/** What an answer slot is: a witness the author asked, a witness drawn, or a node's private check. */
export const SLOT = { planned: 0, drawn: 1, private: 2 } as const

/** A private check an observer made: its own signed witness request for a memory (what its scoring reads). */
export interface PrivateRequest {
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
  /** Per tracked node: witness requests received (and stored) on its shards. */
  requests: Float64Array
  /** Per tracked node: messages of evidence fetching (records brought and sync requests, evidence-fetch.ts). */
  byEvidence: Float64Array
  /** Per tracked node: records evidence fetching brought (stored beside its shards'). */
  evidenceRecords: Float64Array
}

/** The witness checks the network played (docs/simulation.md, "The witness draw"). */
export interface CheckCounts {
  /** Witness requests made: the authors' own (one per memory that asks) and the private checks. */
  requests: number
  /** Witnesses drawn, over all memories. */
  drawn: number
  /** Drawn witnesses' attestations published. */
  drawnAnswers: number
  /** Private checks made (one request each). */
  privateChecks: number
  /** Nodes lacking a drawn answer when their private-check delay ran out, summed over memories. */
  lacking: number
  /** Private checks that found nobody reputable to ask. */
  privateUnasked: number
  /** Answers a witness skipped because its budget for the author or the minute was spent. */
  budgetSkipped: number
  /** Nodes running the default checks. */
  checkingNodes: number
}

export interface ModelRun {
  scenario: Scenario
  plan: Plan
  agents: Agent[]
  /** The shards and each node's subscriptions (shard-layout.ts). */
  shards: ShardLayout
  /** Tracked nodes, ascending; observers among them. */
  tracked: number[]
  /** Signed records by message index: memories 0..M-1 by serial, then attestations by answer slot; undefined if never published. */
  records: Array<SignedBytes | undefined>
  /** Publication instant (virtual ms) by message index; NaN if never published. */
  publishedAt: number[]
  /** Arrival (virtual ms) of message i at tracked node j: arrivals[i]?.[j]; undefined row or NaN: never. */
  arrivals: Array<Float32Array | undefined>
  /** Memory count M: message indexes below it are memories. */
  memoryCount: number
  /** The witness of each answer slot's attestation (message M + slot). */
  slotWitness: number[]
  /** Memory serial of each answer slot. */
  slotMemory: number[]
  /** SLOT kind of each answer slot. */
  slotKind: number[]
  /** The drawn witnesses of each memory by serial (empty without checks). */
  drawn: number[][]
  /** The observers' private-check requests, in the order they were made. */
  privateRequests: PrivateRequest[]
  /** The memory's `created_at` (virtual ms) when it was dated before its publication (a late publisher). */
  datedAt: Map<number, number>
  checks: CheckCounts
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

/** The arrival of message `index` at tracked column j (NaN: never). */
export function arrivalAt (run: Pick<ModelRun, 'arrivals'>, index: number, j: number): number {
  const row = run.arrivals[index]
  return row === undefined ? Number.NaN : row[j] as number
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
   * Every node runs the daemon's default checks: drawn witnesses answer each memory, and a node
   * lacking a drawn answer after its delay checks privately. false: neither
   * (`isnad sim run --no-checks`), to see what the checks buy. @default true
   */
  checks?: boolean
  /** The draw's settings. @default MODEL_DRAW_DEFAULTS (the daemon's) */
  draw?: DrawDefaults
}

export function playModel (scenario: Scenario, plan: Plan, progress: (text: string) => void, options: ModelOptions = {}): ModelRun {
  const setupStart = performance.now()
  const size = plan.roles.length
  const agents = agentsOf(scenario.seed, size)
  const shards = new ShardLayout(plan, agents.map((a) => a.did), scenario.sharding)
  const topology = new ModelTopology(size, plan.edges, createFastRandom(scenario.seed, 1))
  const links = new LinkModel(scenario, createFastRandom(scenario.seed, 2))
  const tracked = trackedNodes(plan, size, scenario.seed)
  const column = new Int32Array(size).fill(-1)
  tracked.forEach((node, j) => { column[node] = j })
  const T = tracked.length
  const isObserver = new Uint8Array(size)
  for (const o of plan.observers) isObserver[o] = 1
  const M = plan.memories.length
  const checksOn = options.checks ?? true
  const draw = options.draw ?? MODEL_DRAW_DEFAULTS
  const slotStart = new Int32Array(M + 1)
  plan.memories.forEach((m, i) => { slotStart[i + 1] = (slotStart[i] as number) + m.answers.length })
  // Answer slots: the authors' planned requests first, then drawn witnesses and private checks as they happen.
  const slotWitness: number[] = []
  const slotMemory: number[] = []
  const slotKind: number[] = []
  const slotVerdict: Array<PlannedVerdict | null> = []
  const slotDelay: number[] = []
  plan.memories.forEach((m, i) => m.answers.forEach((a) => {
    slotWitness.push(a.witness); slotMemory.push(i); slotKind.push(SLOT.planned); slotVerdict.push(a.verdict); slotDelay.push(a.delayMinutes)
  }))
  const addSlot = (memory: number, witness: number, kind: number, verdict: PlannedVerdict | null, delayMinutes: number): number => {
    slotWitness.push(witness); slotMemory.push(memory); slotKind.push(kind); slotVerdict.push(verdict); slotDelay.push(delayMinutes)
    return slotWitness.length - 1
  }
  const drawnOf: number[][] = Array.from({ length: M }, () => [])
  /** Attestation message indexes of each memory, in publication order. */
  const attestationsOf: number[][] = Array.from({ length: M }, () => [])
  /** (memory, witness) pairs answered: one attestation per witness and memory. */
  const answered = new Set<number>()
  const privateChecks = new PrivateChecks(scenario, plan, agents.map((a) => a.did), createFastRandom(scenario.seed, 4))
  const privateRequests: PrivateRequest[] = []
  const budget = new WitnessBudget(draw, size)
  const checkCounts: CheckCounts = { requests: 0, drawn: 0, drawnAnswers: 0, privateChecks: 0, lacking: 0, privateUnasked: 0, budgetSkipped: 0, checkingNodes: checksOn ? size : 0 }
  const checkRandom = createFastRandom(scenario.seed, 5)
  const datedAt = new Map<number, number>()
  /** Published attestations' message indexes, in publication order (what an observer may hold). */
  const publishedAttestations: number[] = []
  const records: Array<SignedBytes | undefined> = []
  const publishedAt: number[] = []
  const arrivals: Array<Float32Array | undefined> = []
  const requestDistance = new Int32Array(slotWitness.length).fill(UNREACHABLE)
  const requestEpoch = new Int32Array(slotWitness.length)
  const requestDone = new Uint8Array(slotWitness.length)
  const holders = new Holders(size)
  const counters: ModelCounters = { received: new Float64Array(T), byGossip: new Float64Array(T), bySync: new Float64Array(T), requests: new Float64Array(T), byEvidence: new Float64Array(T), evidenceRecords: new Float64Array(T) }
  const run = {
    requestDelays: [] as number[], roundTrips: [] as number[], missedAnswers: 0, problems: new Map<number, string>(), notes: [] as string[]
  }
  const msPerMinute = 60_000
  const realToVirtual = msPerMinute / (scenario.timeScale.realSecondsPerMinute * 1000)
  const inboxWaitMs = INBOX_WAIT_REAL_S * 1000 * realToVirtual
  const checkDelayMs = draw.privateCheckDelayMs * realToVirtual
  const endMs = scenario.durationMinutes * msPerMinute
  const drainEndMs = endMs + DRAIN_REAL_S * 1000 * realToVirtual
  const iso = (ms: number): string => new Date(MODEL_EPOCH_MS + Math.round(ms)).toISOString()
  const setupSeconds = (performance.now() - setupStart) / 1000

  const queue = new EventQueue()
  plan.memories.forEach((m, i) => { queue.push(m.at * msPerMinute, EVENT.memory, i) })
  plan.events.forEach((e, i) => { queue.push(e.at * msPerMinute, EVENT.topology, i) })

  // Rows are cut from slabs of ARRIVAL_ROWS_PER_SLAB: one typed array a row cost an allocation of its
  // own outside the heap, and the collector's work, for every message.
  let slab = new Float32Array(0)
  let slabRows = ARRIVAL_ROWS_PER_SLAB
  const rowOf = (index: number): Float32Array => {
    let row = arrivals[index]
    if (row === undefined) {
      if (slabRows === ARRIVAL_ROWS_PER_SLAB) { slab = new Float32Array(ARRIVAL_ROWS_PER_SLAB * T).fill(Number.NaN); slabRows = 0 }
      row = slab.subarray(slabRows * T, ++slabRows * T)
      arrivals[index] = row
    }
    return row
  }

  /**
   * Publishes message `index` from `source` at `now` on `shard`'s topic: gossip to that shard's
   * subscribers in its component (and the publisher), arrivals at the tracked ones.
   */
  const publish = (index: number, source: number, now: number, shard: number): HolderGroup => {
    publishedAt[index] = now
    const bytes = (records[index] as SignedBytes).bytes.length
    const component = topology.component[source] as number
    const group = holders.groupOf(topology.epoch, component, function * () {
      for (let v = 0; v < size; v++) if (topology.component[v] === component && topology.online[v] === 1 && (v === source || shards.subscribes(v, shard))) yield v
    }, shard, shards.count)
    group.messages.push(index)
    if (index >= M) publishedAttestations.push(index)
    const row = rowOf(index)
    for (let j = 0; j < T; j++) {
      const node = tracked[j] as number
      if (node === source) { row[j] = now; continue }
      if (!shards.subscribes(node, shard)) continue
      const d = topology.publishDistance(source, node)
      if (d === UNREACHABLE) continue
      row[j] = now + links.path(hopsOf(d), repairsOf(d), bytes)
      counters.byGossip[j]! += 1
      counters.received[j]! += Math.max(1, topology.meshDegree[node] as number)
    }
    return group
  }

  /** The memories and attestations tracked column j holds at `now` (j < 0: every one published), for a reputation table. */
  const heldBy = (j: number, now: number): MemoryAttestations[] => {
    const byMemory = new Map<number, StoredAttestation[]>()
    for (const index of publishedAttestations) {
      if (j >= 0 && !(arrivalAt({ arrivals }, index, j) <= now)) continue
      const serial = slotMemory[index - M] as number
      if (j >= 0 && !(arrivalAt({ arrivals }, serial, j) <= now)) continue
      const list = byMemory.get(serial) ?? []
      const record = records[index] as SignedBytes
      if (record.record.kind === 'attestation') list.push({ id: record.id, record: record.record })
      byMemory.set(serial, list)
    }
    return [...byMemory].map(([serial, attestations]) => ({ author: (agents[plan.memories[serial]?.author as number] as Agent).did, attestations }))
  }

  const requestArrived = (slot: number, at: number): void => {
    requestDone[slot] = 1
    const memory = slotMemory[slot] as number
    if (slotVerdict[slot] === null) return
    run.requestDelays.push(at - (publishedAt[memory] as number))
    queue.push(at + (slotDelay[slot] as number) * msPerMinute, EVENT.answer, slot)
  }

  /** Whether `witness`'s budget lets it answer a memory of `author` now; a circle answers its own kind regardless. */
  const withinBudget = (witness: number, author: number, now: number): boolean => {
    const role = plan.roles[witness] as Role
    if (role === plan.roles[author] && !isHonest(role)) return true
    return budget.take(witness, author, now)
  }

  /**
   * The memory's drawn witnesses (draw-sampling.ts): each other agent of the author's shard with
   * probability size / (N / c), a grinding author's circle in that shard at the best of its attempts. Each learns it is drawn when
   * the memory reaches it and answers by its role; a late publisher's circle answers with the memory.
   */
  const playDraw = (serial: number, now: number, late: boolean): void => {
    const planned = plan.memories[serial] as PlannedMemory
    const authorRole = plan.roles[planned.author] as Role
    const random = memoryRandom(scenario.seed, serial)
    // The draw is shard-local: the agents of the author's shard, each witness stating the shard's population N / c.
    const shard = shards.members[shards.shardOfAuthor(planned.author)] as number[]
    const candidates = shard.filter((i) => i !== planned.author)
    const agentsButAuthor: AgentList = { length: candidates.length, at: (i) => candidates[i] as number }
    const grinds = authorRole === 'grinder' || authorRole === 'late-publisher'
    const circle = grinds ? candidates.filter((i) => plan.roles[i] === authorRole) : []
    const drawn = sampleDrawn(random, {
      agents: agentsButAuthor,
      p: drawProbability(draw.size, size / shards.count),
      ...(grinds ? { circle: { members: { length: circle.length, at: (i) => circle[i] as number }, attempts: scenario.behaviour.grindAttempts } } : {})
    })
    drawnOf[serial] = drawn
    checkCounts.drawn += drawn.length
    const distances = topology.distancesFrom(planned.author, drawn)
    drawn.forEach((witness, k) => {
      const role = plan.roles[witness] as Role
      const verdict = verdictOf({ scenario, witnessRole: role, authorRole, truth: planned.truth, at: planned.at, draw: random.next(), drawn: true })
      const delay = (scenario.behaviour.reviewSeconds / 60) * (0.5 + random.next())
      const slot = addSlot(serial, witness, SLOT.drawn, verdict, delay)
      if (verdict === null) return
      if (late && role === authorRole) { answer(slot, now, (datedAt.get(serial) as number) + delay * msPerMinute); return }
      const d = distances[k] as number
      if (d === UNREACHABLE || topology.online[witness] !== 1) return
      queue.push(now + links.path(hopsOf(d), repairsOf(d), (records[serial] as SignedBytes).bytes.length) + delay * msPerMinute, EVENT.answer, slot)
    })
    // The private checks are decided once the memory has reached every tracked node and the delay ran out.
    let reached = now
    const row = arrivals[serial]
    if (row !== undefined) for (const at of row) if (at > reached) reached = at
    queue.push(reached + checkDelayMs, EVENT.check, serial)
  }

  const playMemory = (serial: number, now: number): void => {
    const planned = plan.memories[serial]
    if (planned === undefined) return
    if (topology.online[planned.author] !== 1) { run.problems.set(serial, 'author offline'); return }
    const author = agents[planned.author] as Agent
    const late = planned.datedBackMinutes !== undefined && planned.datedBackMinutes > 0
    const created = late ? now - (planned.datedBackMinutes as number) * msPerMinute : now
    if (late) datedAt.set(serial, created)
    const memory = memoryRecord(author, scenario.name, serial, iso(created))
    records[serial] = memory
    const group = publish(serial, planned.author, now, shards.shardOfAuthor(planned.author))
    if (planned.answers.length > 0) {
      // The request is signed and gossiped with its memory (gossip-v1's witness envelope); no
      // measurement reads its bytes (the observers' own private-check requests are signed, playChecks).
      checkCounts.requests++
      const witnesses = planned.answers.map((a) => a.witness)
      // The request is a gossip message of its own (a record each node verifies) at every node of the
      // author's shard and of each addressed witness's home shard that it reaches.
      const requestShards = shards.requestShards(planned.author, witnesses)
      for (let j = 0; j < T; j++) {
        const node = tracked[j] as number
        if (node === planned.author || !shards.receivesAny(node, requestShards) || topology.publishDistance(planned.author, node) === UNREACHABLE) continue
        counters.byGossip[j]! += 1
        counters.requests[j]! += 1
        counters.received[j]! += Math.max(1, topology.meshDegree[node] as number)
      }
      const distances = topology.distancesFrom(planned.author, witnesses)
      const bytes = memory.bytes.length
      const authorRole = plan.roles[planned.author] as Role
      planned.answers.forEach((a, k) => {
        const slot = (slotStart[serial] as number) + k
        // A late publisher's circle answered before publication: their answers go out with the memory.
        if (late && plan.roles[a.witness] === authorRole) {
          requestDone[slot] = 1
          if (a.verdict !== null) answer(slot, now, created + a.delayMinutes * msPerMinute)
          return
        }
        const d = distances[k] as number
        requestDistance[slot] = d
        requestEpoch[slot] = topology.epoch
        if (d === UNREACHABLE) group.pending.push(slot)
        else requestArrived(slot, now + links.path(hopsOf(d), repairsOf(d), 2 * bytes))
      })
    }
    if (checksOn) playDraw(serial, now, late)
  }

  /** Witness of answer `slot` publishes its attestation at `now`, dated `witnessedAt`; false when it does not. */
  const answer = (slot: number, now: number, witnessedAt = now): boolean => {
    const memory = slotMemory[slot] as number
    const verdict = slotVerdict[slot]
    const witness = slotWitness[slot] as number
    const planned = plan.memories[memory] as PlannedMemory
    if (verdict === null || verdict === undefined) return false
    if (topology.online[witness] !== 1) { if (slotKind[slot] === SLOT.planned) run.missedAnswers++; return false }
    // One attestation per witness and memory: a drawn witness the author also asked answers once.
    const pair = memory * size + witness
    if (answered.has(pair)) return false
    if (!withinBudget(witness, planned.author, now)) return false
    answered.add(pair)
    const index = M + slot
    records[index] = attestationRecord(agents[witness] as Agent, (records[memory] as SignedBytes).id, verdict, iso(witnessedAt))
    publish(index, witness, now, shards.shardOfAuthor(planned.author))
    attestationsOf[memory]?.push(index)
    if (slotKind[slot] === SLOT.drawn) checkCounts.drawnAnswers++
    return true
  }

  const playAnswer = (slot: number, now: number): void => {
    if (!answer(slot, now) || slotKind[slot] !== SLOT.planned) return
    const memory = slotMemory[slot] as number
    const planned = plan.memories[memory] as PlannedMemory
    const witness = slotWitness[slot] as number
    // The author's node storing the answer closes the witness round trip (as driver.ts measures it).
    if (topology.online[planned.author] !== 1) return
    let d = requestEpoch[slot] === topology.epoch ? requestDistance[slot] as number : UNREACHABLE
    if (d === UNREACHABLE) d = topology.distancesFrom(witness, [planned.author])[0] as number
    if (d === UNREACHABLE) return
    const back = now + links.path(hopsOf(d), repairsOf(d), (records[M + slot] as SignedBytes).bytes.length)
    run.roundTrips.push(back - (publishedAt[memory] as number))
  }

  /**
   * The private checks of memory `serial`: the nodes that hold it and, its delay after it reached
   * each, hold no drawn witness's answer (exact at the tracked nodes, the same share of the others);
   * of those a Binomial(lacking, privateCheckProbability(N / shard count)) number ask, chosen at random, each one
   * reputable witness of its own.
   */
  const playChecks = (serial: number, now: number): void => {
    const planned = plan.memories[serial] as PlannedMemory
    const drawn = new Set(drawnOf[serial])
    const drawnAnswers = (attestationsOf[serial] ?? []).filter((index) => drawn.has(slotWitness[index - M] as number))
    const lacking: number[] = []
    let holding = 0
    const memoryRow = arrivals[serial]
    for (let j = 0; j < T; j++) {
      const node = tracked[j] as number
      const at = memoryRow === undefined ? Number.NaN : memoryRow[j] as number
      if (Number.isNaN(at) || topology.online[node] !== 1 || node === planned.author) continue
      holding++
      const deadline = at + checkDelayMs
      if (!drawnAnswers.some((index) => arrivalAt({ arrivals }, index, j) <= deadline)) lacking.push(j)
    }
    let onlineOthers = 0
    const shard = shards.shardOfAuthor(planned.author)
    if (size > T) for (let v = 0; v < size; v++) if (topology.online[v] === 1 && column[v] === -1 && topology.component[v] === topology.component[planned.author] && shards.subscribes(v, shard)) onlineOthers++
    const othersLacking = holding === 0 ? 0 : Math.round(onlineOthers * lacking.length / holding)
    const total = lacking.length + othersLacking
    checkCounts.lacking += total
    const askers = distinctPositions(checkRandom, total, binomial(checkRandom, total, privateCheckProbability(holdersEstimate(size), draw)))
    const excluded = new Set([...planned.answers.map((a) => a.witness), ...(attestationsOf[serial] ?? []).map((index) => slotWitness[index - M] as number)])
    for (const position of askers) {
      let asker: number
      let askedAt: number
      if (position < lacking.length) {
        const j = lacking[position] as number
        asker = tracked[j] as number
        askedAt = (memoryRow?.[j] as number) + checkDelayMs
      } else {
        let guard = 0
        do asker = Math.floor(checkRandom.next() * size)
        while ((column[asker] !== -1 || topology.online[asker] !== 1 || asker === planned.author || !shards.subscribes(asker, shard)) && guard++ < 10_000)
        askedAt = now
      }
      const observer = isObserver[asker] === 1
      const j = column[asker] as number
      const picked = privateChecks.pick(asker, serial, now, observer
        ? { key: asker, roots: [asker, ...plan.trustRoots], held: () => heldBy(j, now) }
        : { key: -1, roots: plan.trustRoots, held: () => heldBy(-1, now) }, excluded)
      if (picked === undefined) { checkCounts.privateUnasked++; continue }
      checkCounts.privateChecks++
      checkCounts.requests++
      const slot = addSlot(serial, picked.witness, SLOT.private, picked.verdict, picked.delayMinutes)
      if (observer) {
        const request = witnessRequestRecord(agents[asker] as Agent, (records[serial] as SignedBytes).id, [(agents[picked.witness] as Agent).did], iso(askedAt))
        privateRequests.push({ observer: asker, memory: serial, request })
      }
      if (picked.verdict === null) continue
      const d = topology.distancesFrom(asker, [picked.witness])[0] as number
      if (d === UNREACHABLE) continue
      const arrived = askedAt + links.path(hopsOf(d), repairsOf(d), 512)
      queue.push(Math.max(now, arrived + picked.delayMinutes * msPerMinute), EVENT.answer, slot)
    }
  }

  /** sync-v1 over `pairs` ([puller, peer]) at `now`: the pullers gain whole groups. */
  const sync = (pairs: ReadonlyArray<readonly [number, number]>, now: number): void => {
    const pendingFor = (group: HolderGroup, node: number): void => {
      if (group.pending.length === 0) return
      group.pending = group.pending.filter((slot) => {
        if (slotWitness[slot] !== node) return true
        const memory = slotMemory[slot] as number
        if (now <= (publishedAt[memory] as number) + inboxWaitMs) requestArrived(slot, now + links.sync(1024))
        return false
      })
    }
    holders.sync(pairs, (group, node) => {
      const j = column[node] as number
      if (j >= 0) {
        for (const index of group.messages) {
          const row = rowOf(index)
          if (!Number.isNaN(row[j] as number)) continue
          row[j] = now + links.sync((records[index] as SignedBytes).bytes.length)
          counters.bySync[j]! += 1
        }
      }
      pendingFor(group, node)
    }, (group, node) => shards.subscribes(node, group.shard), pendingFor)
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
      if (event.kind === EVENT.answer && slotKind[event.a] === SLOT.planned) run.missedAnswers++
      continue
    }
    last = event.time
    if (event.kind === EVENT.memory) playMemory(event.a, event.time)
    else if (event.kind === EVENT.answer) playAnswer(event.a, event.time)
    else if (event.kind === EVENT.check) playChecks(event.a, event.time)
    else applyEvent(plan.events[event.a] as PlannedEvent, event.time)
    if (performance.now() - lastReport > 5000) {
      lastReport = performance.now()
      progress(`model: minute ${(event.time / msPerMinute).toFixed(1)}/${scenario.durationMinutes}, ${queue.processed} events`)
    }
  }
  // Requests that never reached their witness within its wait are answers missed.
  for (let slot = 0; slot < requestDone.length; slot++) {
    const memory = slotMemory[slot] as number
    if (requestDone[slot] !== 1 && slotVerdict[slot] !== null && publishedAt[memory] !== undefined) run.missedAnswers++
  }
  checkCounts.budgetSkipped = budget.skipped
  if (checksOn) run.notes.push(`witness draw: ${DRAW_SAMPLED}`)
  // Settling as topology-actions.ts does: the partition heals, then each observer syncs with its peers.
  const settleAt = Math.max(last, endMs)
  heal(settleAt)
  sync(plan.observers.filter((o) => topology.online[o] === 1).flatMap((o) => [...topology.peersOf(o)].map((p) => [o, p] as const)), settleAt)
  let measuredAt = settleAt
  for (const row of arrivals) if (row !== undefined) for (const value of row) if (value > measuredAt) measuredAt = value
  for (let index = 0; index < records.length; index++) if (publishedAt[index] === undefined) publishedAt[index] = Number.NaN
  return {
    scenario,
    plan,
    agents,
    shards,
    tracked,
    records,
    publishedAt,
    arrivals,
    memoryCount: M,
    slotWitness,
    slotMemory,
    slotKind,
    drawn: drawnOf,
    privateRequests,
    datedAt,
    checks: checkCounts,
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
