import { monitorEventLoopDelay, performance } from 'node:perf_hooks'
import { LiveNodes } from './live-nodes.js'
import { Arrivals } from '../scenario/index.js'
import { noteHeldAttestations } from './held-attestations.js'
import { sleep } from '../pools/index.js'
import { attestationKey, createObservations, type Observations } from './observations.js'
import type { Plan, PlannedAnswer, PlannedMemory, Scenario } from '../scenario/index.js'
import type { NodePool } from '../pools/index.js'
import { TopologyActions } from './topology-actions.js'
import { CheckedAnswers } from './checked-answers.js'

/*
 * Plays a plan on a pool of real nodes through their HTTP APIs: authors remember and ask for
 * witnesses, witnesses answer once the request has reached their inbox over the network, churn and
 * partitions happen on schedule. Simulated minute `m` happens at `m × realSecondsPerMinute` real
 * seconds after the start of the activity.
 */

export interface DriveOptions {
  scenario: Scenario
  plan: Plan
  pool: NodePool
  progress: (text: string) => void
  /** How far the activity is, 0–1, at each progress tick. */
  advance?: (share: number) => void
  /**
   * Whether the nodes run the daemon's default witness checks (run.ts): the driver then gives each
   * observer the plan's trust roots, so its private checks pick witnesses by the reputation it is
   * measured with. @default true
   */
  checks?: boolean
}

/** How long a witness waits for a request to reach it before giving up on answering (long: an overloaded runner is slow, not lossy). */
const INBOX_WAIT_MS = 180_000
/** After the last planned action: how long outstanding answers may still take. */
const DRAIN_TIMEOUT_MS = 120_000
/** After activity: gossip and sync settle before anything is measured. */
const SETTLE_MS = 3000

export interface DriveResult {
  observations: Observations
  nodes: LiveNodes
}

export async function drive (options: DriveOptions): Promise<DriveResult> {
  const { scenario, plan, pool, progress } = options
  const observations = createObservations()
  const setupStart = performance.now()
  /** Requests at witnesses' inboxes (`memory|node`) and attestations at authors (`memory|witness did@node`). Closed when the run is measured, so nothing outlives the drive. */
  const arrivals = new Arrivals()
  const byId = new Map<string, Observations['memories'][number]>()
  let checked: CheckedAnswers | undefined
  const nodes = new LiveNodes(pool, (node, event, at) => {
    if (event.type === 'inbox') {
      arrivals.note(`${event.data.memory}|${node}`, at)
      checked?.onInbox(node, event.data)
      return
    }
    const key = attestationKey(event.data.memory, event.data.witness)
    const seen = observations.attestations.get(key)
    if (seen !== undefined && !seen.arrivals.has(node)) seen.arrivals.set(node, at)
    arrivals.note(`${key}@${node}`, at)
  })
  const topology = new TopologyActions(pool, plan, nodes, observations, progress)
  await topology.connect()
  await nodes.open()
  if (options.checks ?? true) {
    // Each observer trusts the plan's roots, as the metrics score it (run.ts measure) and the model engine checks.
    for (const observer of plan.observers) {
      for (const root of plan.trustRoots) {
        if (root !== observer) await nodes.node(observer).ops.call('addTrustRoot', { did: nodes.agent(root) })
      }
    }
    checked = new CheckedAnswers(scenario, plan, nodes, observations, (id) => byId.get(id))
    observations.witnessLoad.checkingNodes = pool.size
  }
  const nodeNotes = new Set(Array.from({ length: pool.size }, (_, i) => pool.info(i).notes ?? []).flat())
  for (const note of nodeNotes) observations.notes.push(`nodes: ${note}`)
  observations.timings.setupSeconds = (performance.now() - setupStart) / 1000

  const msPerMinute = scenario.timeScale.realSecondsPerMinute * 1000
  const lag = monitorEventLoopDelay({ resolution: 10 })
  lag.enable()
  const cpuStart = process.cpuUsage()
  const start = performance.now()
  const until = async (minute: number): Promise<void> => { await sleep(Math.max(0, start + minute * msPerMinute - performance.now())) }

  const answer = async (memoryId: string, author: number, planned: PlannedAnswer, sentAt: number): Promise<void> => {
    const arrived = await arrivals.wait(`${memoryId}|${planned.witness}`, INBOX_WAIT_MS)
    if (arrived === null || planned.verdict === null) {
      if (planned.verdict !== null) observations.missedAnswers++
      return
    }
    observations.requestDelays.push(arrived - sentAt)
    await sleep(planned.delayMinutes * msPerMinute)
    if (!nodes.isOnline(planned.witness)) { observations.missedAnswers++; return }
    const witness = nodes.node(planned.witness)
    const key = attestationKey(memoryId, witness.info.agent)
    const record = { memory: memoryId, witness: planned.witness, verdict: planned.verdict, sentAt: performance.now(), arrivals: new Map<number, number>() }
    observations.attestations.set(key, record)
    await witness.ops.call('attest', { id: memoryId, verdict: planned.verdict, as: witness.info.agent })
    // The author's node storing the answer closes the witness round trip.
    const back = nodes.isOnline(author) ? await arrivals.wait(`${key}@${author}`, INBOX_WAIT_MS) : null
    if (back !== null) observations.witnessRoundTrips.push(back - sentAt)
  }

  const play = async (planned: PlannedMemory): Promise<void> => {
    const seen = { serial: planned.serial, author: planned.author, truth: planned.truth, at: planned.at } as Observations['memories'][number]
    observations.memories.push(seen)
    await until(planned.at)
    if (!nodes.isOnline(planned.author)) { seen.problem = 'author offline'; return }
    const author = nodes.node(planned.author)
    try {
      const view = await author.ops.call('remember', { type: 'observation', summary: `simulated memory ${planned.serial} of ${scenario.name}`, tags: ['sim', scenario.name], as: author.info.agent })
      seen.id = view.id
      byId.set(view.id, seen)
      if (planned.answers.length === 0) return
      const sentAt = performance.now()
      await author.ops.call('requestWitnesses', { id: view.id, to: planned.answers.map((a) => nodes.agent(a.witness)), as: author.info.agent })
      observations.witnessLoad.requests++
      await Promise.all(planned.answers.map(async (a) => { await answer(view.id, planned.author, a, sentAt) }))
    } catch (err) {
      seen.problem = err instanceof Error ? err.message : String(err)
    }
  }

  progress(`playing ${plan.memories.length} memories and ${plan.events.length} network events over ${scenario.durationMinutes} simulated minutes (${(scenario.durationMinutes * msPerMinute / 1000).toFixed(0)} s real)`)
  const ticker = setInterval(() => {
    const minute = Math.min(scenario.durationMinutes, (performance.now() - start) / msPerMinute)
    const published = observations.memories.filter((m) => m.id !== undefined).length
    options.advance?.(minute / scenario.durationMinutes)
    progress(`playing, minute ${minute.toFixed(1)} of ${scenario.durationMinutes}: ${published} of ${plan.memories.length} memories published, ${observations.attestations.size} attestations, ${nodes.online().length} nodes online`)
  }, Math.max(5000, Math.min(msPerMinute, 30_000)))
  ticker.unref()
  try {
    const plays = plan.memories.map(play)
    const events = (async () => {
      for (const event of plan.events) {
        await until(event.at)
        await topology.apply(event).catch((err: unknown) => {
          observations.notes.push(`${event.kind} at minute ${event.at}: ${err instanceof Error ? err.message : String(err)}`)
        })
        // Nodes that left receive nothing more: answers waiting for them stop waiting.
        if (event.kind === 'leave') arrivals.cancel((key) => event.nodes.some((n) => key.endsWith(`@${n}`)))
      }
    })()
    await until(scenario.durationMinutes)
    observations.timings.activitySeconds = (performance.now() - start) / 1000
    options.advance?.(1)
    lag.disable()
    const cpu = process.cpuUsage(cpuStart)
    observations.driverLoad = {
      eventLoopLagP50Ms: Math.round(lag.percentile(50) / 1e5) / 10,
      eventLoopLagMaxMs: Math.round(lag.max / 1e5) / 10,
      cpuPercent: Math.round((cpu.user + cpu.system) / 10 / (performance.now() - start))
    }
    const settleStart = performance.now()
    const drained = Promise.all([events, ...plays]).then(async () => { await checked?.drained() }).then(() => true)
    let timer: NodeJS.Timeout | undefined
    const inTime = await Promise.race([drained, new Promise<boolean>((resolve) => { timer = setTimeout(() => { resolve(false) }, DRAIN_TIMEOUT_MS) })])
    clearTimeout(timer)
    if (!inTime) observations.notes.push(`some actions were still running ${DRAIN_TIMEOUT_MS / 1000} s after the end`)
    await topology.settle()
    await sleep(SETTLE_MS)
    const held = await noteHeldAttestations(observations, nodes)
    if (held > 0) observations.notes.push(`${held} attestation arrivals held at the end with no event seen (an event stream that dropped events under load, or a node that joined again and synced before its stream reopened): counted as delivered, without a latency`)
    observations.timings.settleSeconds = (performance.now() - settleStart) / 1000
  } finally {
    clearInterval(ticker)
    topology.stop()
    arrivals.close()
  }
  // Why memories went unpublished, counted by reason: a shortfall the model engine does not have is read here.
  const reasons = new Map<string, number>()
  for (const m of observations.memories) {
    if (m.id !== undefined) continue
    const reason = m.problem ?? 'its author\'s remember call had not returned when the run was measured'
    reasons.set(reason, (reasons.get(reason) ?? 0) + 1)
  }
  for (const [reason, count] of reasons) observations.notes.push(`${count} memor${count === 1 ? 'y' : 'ies'} not published: ${reason}`)
  observations.witnessLoad.attestations = observations.attestations.size
  observations.relinks = topology.relinks
  observations.onlineAtEnd = nodes.online()
  return { observations, nodes }
}
