/*
 * What the driver saw during a run, in the driver's clock (performance.now, ms). Metrics are computed
 * from these afterwards (metrics.ts), so the record of a run is plain data.
 */

export interface MemoryObservation {
  serial: number
  author: number
  truth: boolean
  /** Planned simulated minute. */
  at: number
  /** The memory's CID, once its author stored it. */
  id?: string
  /** Why it was not published or not fully witnessed (author offline, an API error). */
  problem?: string
}

export interface AttestationObservation {
  memory: string
  witness: number
  verdict: 'confirm' | 'dispute'
  /** When the driver asked the witness's node to attest. */
  sentAt: number
  /** First arrival of the attestation at each node, by node index. */
  arrivals: Map<number, number>
  /** Nodes found holding it at the end with no arrival seen (held-attestations.ts): delivered, time unknown. */
  held?: Set<number>
}

/** Network-wide witness traffic of a run: what the checks cost and what they found. */
export interface WitnessLoad {
  /** Witness requests made: the authors' own (one per memory that asks) and the private checks. */
  requests: number
  /** Attestations published. */
  attestations: number
  /** Nodes that ran the default checks (the draw and private checks). */
  checkingNodes: number
  /** Witnesses drawn over all memories (the model engine samples them; the real engine counts the draws it saw). */
  drawn: number
  /** Attestations published by drawn witnesses. */
  drawnAnswers: number
  /** Private checks made. */
  privateChecks: number
  /** Answers witnesses skipped for their budget. */
  budgetSkipped: number
}

export function emptyWitnessLoad (): WitnessLoad {
  return { requests: 0, attestations: 0, checkingNodes: 0, drawn: 0, drawnAnswers: 0, privateChecks: 0, budgetSkipped: 0 }
}

export interface Observations {
  memories: MemoryObservation[]
  /** By `${memory}|${witness did}`. */
  attestations: Map<string, AttestationObservation>
  /** Witness request sent → the request in the addressed witness's inbox, ms. */
  requestDelays: number[]
  /** Witness request sent → the witness's attestation stored at the author's node, ms. */
  witnessRoundTrips: number[]
  /** Answers planned but never given (request not received in time, witness offline). */
  missedAnswers: number
  /** The witness checks the network made (docs/simulation.md, "The witness draw"), network-wide. */
  witnessLoad: WitnessLoad
  /** Planned links found down during the run and redialled (topology-actions.ts). */
  relinks: number
  /** Nodes online at the end of the run. */
  onlineAtEnd: number[]
  /** Things the runner could not do (e.g. partitions in docker), as sentences. */
  notes: string[]
  /**
   * The driver process during the activity: event-loop lag and CPU (in-process, the nodes share it,
   * so a lag of hundreds of ms says the runner, not the protocol, sets the latencies).
   */
  driverLoad: { eventLoopLagP50Ms: number, eventLoopLagMaxMs: number, cpuPercent: number }
  /** Real seconds: setup (nodes up and connected), activity, settling. */
  timings: { setupSeconds: number, activitySeconds: number, settleSeconds: number }
}

export function createObservations (): Observations {
  return {
    memories: [],
    attestations: new Map(),
    requestDelays: [],
    witnessRoundTrips: [],
    missedAnswers: 0,
    witnessLoad: emptyWitnessLoad(),
    relinks: 0,
    onlineAtEnd: [],
    notes: [],
    driverLoad: { eventLoopLagP50Ms: 0, eventLoopLagMaxMs: 0, cpuPercent: 0 },
    timings: { setupSeconds: 0, activitySeconds: 0, settleSeconds: 0 }
  }
}

export function attestationKey (memory: string, witnessDid: string): string {
  return `${memory}|${witnessDid}`
}
