import { readFile } from 'node:fs/promises'
import { parse as parseYaml } from 'yaml'
import { z } from 'zod'
import { ShardingSchema } from './sharding.js'
import { IsnadError, type LinkConditions, shapesTraffic } from 'isnad/engine'

/*
 * The scenario file (docs/simulation.md): one YAML or JSON document that says who the nodes are, what
 * is true, who lies, what the network does and for how long. Every runner plays the same scenario.
 * Times are in simulated minutes from the start; `timeScale.realSecondsPerMinute` maps them to the
 * wall clock (the nodes themselves always run on real time: records carry real timestamps).
 */

/** Roles an agent can play; each simulated node hosts one agent. */
export const ROLES = [
  'honest-author', 'honest-witness', 'lazy-witness', 'sybil', 'colluder', 'camouflage', 'contradictor',
  'grinder', 'withholder', 'late-publisher', 'flooder'
] as const
export type Role = typeof ROLES[number]

/** Nodes a scenario may have: the model engine's reach (src/sim/model); real nodes stop at MAX_REAL_NODES. */
export const MAX_SCENARIO_NODES = 1_000_000
/** Nodes the real-node engines run (every node a daemon: two cores carry 50–100 of them). */
export const MAX_REAL_NODES = 1000

const minute = z.number().min(0)
const share = z.number().min(0).max(1)
const count = z.number().int().min(0)

const NodesSchema = z.strictObject({
  'honest-author': count.default(0),
  'honest-witness': count.default(0),
  'lazy-witness': count.default(0),
  sybil: count.default(0),
  colluder: count.default(0),
  camouflage: count.default(0),
  contradictor: count.default(0),
  /** Authors false memories and grinds each one's bytes (behaviour.grindAttempts) to get other grinders drawn as its witnesses. */
  grinder: count.default(0),
  /** Authors false memories asked of its kind; drawn on anyone else's memory, withholds its answer. */
  withholder: count.default(0),
  /** Authors false memories dated back (behaviour.lateMinutes) and published late with its kind's answers, ground offline. */
  'late-publisher': count.default(0),
  /** Authors false memories at behaviour.floodPerMinute, to exhaust the witnesses' budget. */
  flooder: count.default(0)
})

const BehaviourSchema = z.strictObject({
  /** Honest witnesses judge a memory correctly with this probability. */
  honestAccuracy: share.default(0.95),
  /** Share of requests a lazy witness answers (always with confirm: it never checks). */
  lazyAnswerRate: share.default(0.5),
  /** Sybils also dispute the true memories of honest authors they are asked about. */
  sybilsDisputeHonest: z.boolean().default(true),
  /** Simulated minute at which camouflage agents stop behaving and start lying. */
  camouflageDefectAt: minute.default(2),
  /** Share of an honest author's memories that are (unknowingly) false. */
  honestFalseRate: share.default(0.1),
  /** Simulated seconds a witness takes to review a request before answering. */
  reviewSeconds: z.number().min(0).max(3600).default(1),
  /** Variants of each memory a grinder (and a late publisher, offline) tries, keeping the one with most of its kind drawn. */
  grindAttempts: z.number().int().min(1).max(1_000_000).default(1000),
  /** Minutes a late publisher dates its memories back before publishing them. */
  lateMinutes: z.number().min(0).max(24 * 60).default(10),
  /** Memories each flooder publishes per simulated minute. */
  floodPerMinute: z.number().min(0).max(6000).default(60)
})

const RequestsSchema = z.strictObject({
  /** Memories each author-like agent (honest author, sybil, colluder, camouflage, contradictor) publishes per simulated minute. */
  memoriesPerAuthorPerMinute: z.number().min(0).max(600).default(1),
  /** Witnesses asked per memory. */
  witnessesPerMemory: z.number().int().min(0).max(32).default(3),
  /** uniform: evenly spaced; poisson: exponential gaps; burst: all of a minute at its start. */
  pattern: z.enum(['uniform', 'poisson', 'burst']).default('poisson')
})

/** One memory given explicitly, beside the generated ones: its author node and its ground truth. */
const ExplicitMemorySchema = z.strictObject({
  at: minute,
  author: z.number().int().min(0),
  truth: z.boolean(),
  witnesses: z.array(z.number().int().min(0)).max(32).optional()
})

const ChurnEventSchema = z.strictObject({
  at: minute,
  /** How many online honest nodes leave (chosen by the seed). */
  leave: count.optional(),
  /** How many of the nodes that left come back (they catch up with sync-v1). */
  join: count.optional()
}).refine((e) => (e.leave === undefined) !== (e.join === undefined), { message: 'a churn event has exactly one of leave or join' })

const PartitionSchema = z.strictObject({
  at: minute,
  /** Share of the nodes cut off into the second side. */
  split: z.number().gt(0).lt(1).default(0.5),
  /** When the two sides reconnect; absent: never. */
  healAt: minute.optional()
})

const NetworkSchema = z.strictObject({
  /** Connections each node opens at the start (plus those it receives). */
  dialsPerNode: z.number().int().min(1).max(32).default(4),
  /**
   * One-way delay added to everything a node sends to another node (never to the HTTP API): by
   * userland link shaping in every runner (src/net/link/link-shaping.ts), by tc netem in containers where
   * the kernel has it.
   */
  latencyMs: z.number().min(0).max(10_000).default(0),
  /** Each delay is uniform in latency ± jitter. */
  jitterMs: z.number().min(0).max(10_000).default(0),
  /** Segment loss in percent; TCP retransmits, so it shows as delay (src/net/link/link-conditions.ts). */
  lossPercent: z.number().min(0).max(100).default(0)
})

const MetricsSchema = z.strictObject({
  /** Honest nodes whose local view of trust is scored against the ground truth. */
  observers: z.number().int().min(1).max(64).default(3),
  /** Honest agents every observer trusts as reputation roots (src/reputation), besides itself. */
  trustRoots: z.number().int().min(0).max(64).default(5),
  /** Extra runs with these Sybil counts (the rest of the scenario unchanged): the Sybil-influence curve. */
  sybilSweep: z.array(count).max(12).default([]),
  /** Also play every run without the witness checks: the baseline that shows what they buy (`isnad sim run --baseline`). */
  baseline: z.boolean().default(false)
})

export const ScenarioSchema = z.strictObject({
  name: z.string().min(1).max(80).regex(/^[a-z0-9][a-z0-9-]*$/, 'lowercase letters, digits and dashes'),
  description: z.string().max(2000).default(''),
  seed: z.number().int().min(0).max(2 ** 31 - 1),
  nodes: NodesSchema,
  /** Simulated minutes of activity (then the run settles and is measured). */
  durationMinutes: z.number().gt(0).max(24 * 60),
  timeScale: z.strictObject({ realSecondsPerMinute: z.number().gt(0).max(3600).default(60) }).default({ realSecondsPerMinute: 60 }),
  behaviour: BehaviourSchema.default(BehaviourSchema.parse({})),
  requests: RequestsSchema.default(RequestsSchema.parse({})),
  memories: z.array(ExplicitMemorySchema).max(10_000).default([]),
  churn: z.array(ChurnEventSchema).max(1000).default([]),
  partitions: z.array(PartitionSchema).max(100).default([]),
  network: NetworkSchema.default(NetworkSchema.parse({})),
  metrics: MetricsSchema.default(MetricsSchema.parse({})),
  /** What the model engine's nodes follow and subscribe to (sharding.ts). */
  sharding: ShardingSchema.default(ShardingSchema.parse({}))
}).superRefine((s, ctx) => {
  const total = nodeCount(s.nodes)
  if (total < 2) ctx.addIssue({ code: 'custom', path: ['nodes'], message: 'a scenario needs at least 2 nodes' })
  if (total > MAX_SCENARIO_NODES) ctx.addIssue({ code: 'custom', path: ['nodes'], message: `at most ${MAX_SCENARIO_NODES} nodes` })
  s.memories.forEach((m, i) => {
    if (m.author >= total) ctx.addIssue({ code: 'custom', path: ['memories', i, 'author'], message: `no node ${m.author} (${total} nodes)` })
    if (m.at > s.durationMinutes) ctx.addIssue({ code: 'custom', path: ['memories', i, 'at'], message: 'after the end of the scenario' })
    for (const w of m.witnesses ?? []) {
      if (w >= total || w === m.author) ctx.addIssue({ code: 'custom', path: ['memories', i, 'witnesses'], message: `witness ${w} is not another node` })
    }
  })
})

export type Scenario = z.infer<typeof ScenarioSchema>
export type ScenarioInput = z.input<typeof ScenarioSchema>
export type NodeCounts = Scenario['nodes']

export function nodeCount (nodes: NodeCounts): number {
  return ROLES.reduce((sum, role) => sum + nodes[role], 0)
}

/** Validates a scenario object; SCHEMA_INVALID naming the first fields at fault. */
export function parseScenario (input: unknown, source = 'scenario'): Scenario {
  const result = ScenarioSchema.safeParse(input)
  if (result.success) return result.data
  const problems = result.error.issues.slice(0, 5).map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)
  throw new IsnadError('SCHEMA_INVALID', `${source} is not a valid scenario: ${problems.join('; ')}`, { details: { issues: problems } })
}

/** Parses scenario text: JSON when it starts with `{`, else YAML (a superset of JSON anyway). */
export function parseScenarioText (text: string, source = 'scenario'): Scenario {
  let data: unknown
  try {
    data = text.trimStart().startsWith('{') ? JSON.parse(text) : parseYaml(text, { maxAliasCount: 100 })
  } catch (cause) {
    throw new IsnadError('JSON_INVALID', `${source} is neither valid JSON nor valid YAML`, { cause })
  }
  return parseScenario(data, source)
}

export async function readScenarioFile (path: string): Promise<Scenario> {
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (cause) {
    throw new IsnadError('NOT_FOUND', `cannot read scenario ${path}`, { cause })
  }
  return parseScenarioText(text, path)
}

/** The link conditions the scenario asks for (seeded by its seed), or undefined when it asks for none. */
export function linkConditionsOf (scenario: Scenario): LinkConditions | undefined {
  const { latencyMs, jitterMs, lossPercent } = scenario.network
  const conditions = { latencyMs, jitterMs, lossPercent, seed: scenario.seed }
  return shapesTraffic(conditions) ? conditions : undefined
}

/** The same scenario with a different number of Sybils (for the Sybil-influence sweep). */
export function withSybils (scenario: Scenario, sybils: number): Scenario {
  return { ...scenario, nodes: { ...scenario.nodes, sybil: sybils }, metrics: { ...scenario.metrics, sybilSweep: [] } }
}
