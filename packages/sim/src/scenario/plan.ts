import { createSimRandom, type SimRandom } from './seeded-random.js'
import { ROLES, nodeCount, type Role, type Scenario } from './scenario.js'
import { isCircleRole, verdictOf, type PlannedVerdict } from './behaviour.js'

/*
 * A scenario played out on paper before any node starts: every memory (author, time, ground truth,
 * the witnesses asked and what each will answer), every churn and partition event, the observers and
 * the initial connections. Pure and seeded: the same scenario gives the same plan, so two runs differ
 * only by what the network itself does.
 */

export interface PlannedAnswer {
  witness: number
  /** null: the witness never answers (a lazy witness skipping a request). */
  verdict: PlannedVerdict | null
  /** Simulated minutes after the request. */
  delayMinutes: number
}

export interface PlannedMemory {
  serial: number
  at: number
  author: number
  truth: boolean
  answers: PlannedAnswer[]
  /**
   * Minutes the memory is dated before it is published (a late publisher): its `created_at` is
   * `at − datedBackMinutes`, and its author's witnesses' answers are published with it. Absent: 0.
   */
  datedBackMinutes?: number
}

export type PlannedEvent =
  | { at: number, kind: 'leave', nodes: number[] }
  | { at: number, kind: 'join', nodes: number[] }
  | { at: number, kind: 'partition', side: number[] }
  | { at: number, kind: 'heal' }

export interface Plan {
  roles: Role[]
  memories: PlannedMemory[]
  events: PlannedEvent[]
  /** Honest nodes that never leave, whose trust view is measured. */
  observers: number[]
  /** Honest nodes whose agents every observer takes as trust roots (each observer adds itself). */
  trustRoots: number[]
  /** Initial connections as [dialler, target]: a random spanning tree plus random extra links. */
  edges: Array<[number, number]>
}

const AUTHOR_ROLES: ReadonlySet<Role> = new Set(['honest-author', 'sybil', 'colluder', 'camouflage', 'contradictor', 'grinder', 'withholder', 'late-publisher', 'flooder'])
const HONEST_ROLES: ReadonlySet<Role> = new Set(['honest-author', 'honest-witness'])

export function rolesOf (scenario: Scenario): Role[] {
  return ROLES.flatMap((role) => Array.from({ length: scenario.nodes[role] }, () => role))
}

export function isHonest (role: Role): boolean {
  return HONEST_ROLES.has(role)
}

export function createPlan (scenario: Scenario): Plan {
  const random = createSimRandom(scenario.seed)
  const roles = rolesOf(scenario)
  const total = nodeCount(scenario.nodes)
  const edges = randomTopology(total, scenario.network.dialsPerNode, random.next)
  const honest = roles.flatMap((role, i) => isHonest(role) ? [i] : [])
  // Observers: honest witnesses first (they author nothing, so they judge only what they receive).
  const byPreference = [...honest].sort((a, b) => Number(roles[a] === 'honest-author') - Number(roles[b] === 'honest-author') || a - b)
  const observers = byPreference.slice(0, Math.min(scenario.metrics.observers, byPreference.length))
  const memories = planMemories(scenario, roles, random)
  const events = planEvents(scenario, honest.filter((i) => !observers.includes(i)), total, random)
  const trustRoots = random.sample(honest, scenario.metrics.trustRoots).sort((a, b) => a - b)
  return { roles, memories, events, observers, trustRoots, edges }
}

function planMemories (scenario: Scenario, roles: readonly Role[], random: SimRandom): PlannedMemory[] {
  const drafts: Array<{ at: number, author: number, truth: boolean, witnesses?: number[] }> = []
  const rate = scenario.requests.memoriesPerAuthorPerMinute
  roles.forEach((role, author) => {
    const own = role === 'flooder' ? scenario.behaviour.floodPerMinute : rate
    if (!AUTHOR_ROLES.has(role) || own === 0) return
    const times = memoryTimes(scenario, own, random)
    times.forEach((at, k) => { drafts.push({ at, author, truth: truthOf(scenario, role, at, k, random) }) })
  })
  for (const m of scenario.memories) drafts.push({ ...m })
  drafts.sort((a, b) => a.at - b.at || a.author - b.author)
  const byRole = new Map<Role, number[]>()
  roles.forEach((role, i) => { const list = byRole.get(role); if (list === undefined) byRole.set(role, [i]); else list.push(i) })
  return drafts.map((draft, serial) => {
    const witnesses = draft.witnesses ?? chooseWitnesses(scenario, roles, byRole, draft.author, draft.at, random)
    const answers = witnesses.map((witness) => ({
      witness,
      verdict: verdictOf({ scenario, witnessRole: roles[witness] as Role, authorRole: roles[draft.author] as Role, truth: draft.truth, at: draft.at, draw: random.next() }),
      delayMinutes: (scenario.behaviour.reviewSeconds / 60) * (0.5 + random.next())
    }))
    const late = roles[draft.author] === 'late-publisher' ? scenario.behaviour.lateMinutes : 0
    return { serial, at: draft.at, author: draft.author, truth: draft.truth, answers, ...(late > 0 ? { datedBackMinutes: late } : {}) }
  })
}

/** Publication times of one author within the scenario, by the request pattern. */
function memoryTimes (scenario: Scenario, rate: number, random: SimRandom): number[] {
  const end = scenario.durationMinutes
  const times: number[] = []
  if (scenario.requests.pattern === 'poisson') {
    for (let t = random.exponential(rate); t < end; t += random.exponential(rate)) times.push(t)
    return times
  }
  const perMinute = Math.max(1, Math.round(rate))
  const gap = 1 / rate
  const offset = random.next() * Math.min(1, gap)
  for (let t = offset; t < end; t += scenario.requests.pattern === 'uniform' ? gap : 1) {
    if (scenario.requests.pattern === 'uniform') times.push(t)
    else for (let k = 0; k < perMinute; k++) times.push(Math.floor(t) + k * 0.001)
  }
  return times
}

function truthOf (scenario: Scenario, role: Role, at: number, k: number, random: SimRandom): boolean {
  switch (role) {
    case 'sybil':
    case 'colluder':
    case 'grinder':
    case 'withholder':
    case 'late-publisher':
    case 'flooder': return false
    case 'camouflage': return at < scenario.behaviour.camouflageDefectAt
    // Every second claim contradicts the one before it: one of each pair is false.
    case 'contradictor': return k % 2 === 0
    default: return random.next() >= scenario.behaviour.honestFalseRate
  }
}

/** Whom an author asks: adversaries ask their accomplices first, everyone else asks anyone. */
function chooseWitnesses (scenario: Scenario, roles: readonly Role[], byRole: ReadonlyMap<Role, readonly number[]>, author: number, at: number, random: SimRandom): number[] {
  const k = scenario.requests.witnessesPerMemory
  const role = roles[author] as Role
  const defected = role === 'camouflage' && at >= scenario.behaviour.camouflageDefectAt
  // Accomplices: the author's own role, the author left out (its list is ascending, as a filter of all nodes would give).
  const accomplices = role === 'sybil' || isCircleRole(role) || defected ? without(byRole.get(role) ?? [], [author]) : null
  const chosen = accomplices === null ? [] : sampleOf(random, accomplices.length, accomplices.at, k)
  // Everyone but the author and those chosen, in ascending order.
  const rest = without({ length: roles.length, at: (i) => i }, [author, ...chosen])
  return [...chosen, ...sampleOf(random, rest.length, rest.at, k - chosen.length)]
}

/** A list by position: the nodes ascending, or such a list with some removed. */
interface IndexList { length: number, at: (position: number) => number }

/** `list` without the values of `removed` (each in it at most once), as a list by position, ascending. */
function without (list: IndexList | readonly number[], removed: readonly number[]): IndexList {
  const base: IndexList = Array.isArray(list) ? { length: list.length, at: (i) => (list as readonly number[])[i] as number } : list as IndexList
  // Positions in `base` of the removed values, ascending (base is ascending: binary search).
  const gaps: number[] = []
  for (const value of removed) {
    let lo = 0
    let hi = base.length
    while (lo < hi) { const mid = (lo + hi) >> 1; if (base.at(mid) < value) lo = mid + 1; else hi = mid }
    if (lo < base.length && base.at(lo) === value && !gaps.includes(lo)) gaps.push(lo)
  }
  gaps.sort((a, b) => a - b)
  return {
    length: base.length - gaps.length,
    at: (position) => {
      let p = position
      for (const gap of gaps) if (gap <= p) p++
      return base.at(p)
    }
  }
}

/**
 * `random.sample` of a list given by position, without copying it: the same Fisher–Yates draws on a
 * sparse copy (only swapped positions are stored), so the result equals sample([...list], count)
 * while costing O(count) rather than O(list) — 10,000 memories of a 10,000-node network.
 */
function sampleOf (random: SimRandom, length: number, at: (position: number) => number, count: number): number[] {
  const take = Math.min(count, length)
  const swapped = new Map<number, number>()
  const get = (i: number): number => swapped.get(i) ?? at(i)
  for (let i = 0; i < take; i++) {
    const j = i + random.int(length - i)
    const tmp = get(i)
    swapped.set(i, get(j))
    swapped.set(j, tmp)
  }
  return Array.from({ length: take }, (_, i) => get(i))
}

function planEvents (scenario: Scenario, churnable: readonly number[], total: number, random: SimRandom): PlannedEvent[] {
  const events: PlannedEvent[] = []
  const away: number[] = []
  const online = new Set(churnable)
  for (const churn of [...scenario.churn].sort((a, b) => a.at - b.at)) {
    if (churn.leave !== undefined) {
      const nodes = random.sample([...online].sort((a, b) => a - b), churn.leave)
      for (const n of nodes) { online.delete(n); away.push(n) }
      if (nodes.length > 0) events.push({ at: churn.at, kind: 'leave', nodes })
    } else {
      const nodes = away.splice(0, churn.join ?? 0)
      for (const n of nodes) online.add(n)
      if (nodes.length > 0) events.push({ at: churn.at, kind: 'join', nodes })
    }
  }
  for (const partition of scenario.partitions) {
    const all = Array.from({ length: total }, (_, i) => i)
    const side = random.sample(all, Math.max(1, Math.min(total - 1, Math.round(partition.split * total)))).sort((a, b) => a - b)
    events.push({ at: partition.at, kind: 'partition', side })
    if (partition.healAt !== undefined) events.push({ at: partition.healAt, kind: 'heal' })
  }
  return events.sort((a, b) => a.at - b.at)
}

/**
 * Edges of a random connected graph on `count` nodes, as [dialler, target]: node i > 0 first dials a
 * random earlier node (a random spanning tree), then random others until it has dialled
 * `dialsPerNode` (each pair at most once, in either direction).
 */
export function randomTopology (count: number, dialsPerNode: number, random: () => number): Array<[number, number]> {
  const edges: Array<[number, number]> = []
  const linked = new Set<string>()
  const key = (a: number, b: number): string => a < b ? `${a}-${b}` : `${b}-${a}`
  const add = (a: number, b: number): void => { edges.push([a, b]); linked.add(key(a, b)) }
  for (let i = 1; i < count; i++) add(i, Math.floor(random() * i))
  const wanted = Math.min(dialsPerNode, count - 1)
  for (let i = 0; i < count; i++) {
    let dialled = i === 0 ? 0 : 1
    let attempts = 0
    while (dialled < wanted && attempts++ < 20 * count) {
      const j = Math.floor(random() * count)
      if (j === i || linked.has(key(i, j))) continue
      add(i, j)
      dialled++
    }
  }
  return edges
}
