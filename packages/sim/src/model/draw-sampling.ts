import { createFastRandom, type FastRandom } from './fast-random.js'

/*
 * The witness draw as the model engine plays it (docs/simulation.md, "The witness draw"). On the
 * network every agent evaluates its own ECVRF over the memory's id and is drawn when the fraction is
 * below size / population; those are independent Bernoulli trials the author cannot predict. N real
 * VRFs per memory are out of reach at 10,000 agents, so the model samples the drawn set from the same
 * distribution instead: a binomial count, then that many distinct agents, from a stream seeded by the
 * memory. An author that grinds its memory's bytes can evaluate only its circle's VRFs (it holds their
 * keys): per attempt it sees how many of its circle are drawn and keeps the best variant, while the
 * other agents' draws stay independent of it. Pure and seeded.
 */

/** What the results say the model samples instead of computing. */
export const DRAW_SAMPLED = 'drawn sets sampled, not computed: per memory a Binomial(n − 1, min(1, size / (N / c))) count of distinct non-author agents of the author\'s shard (n its agents, c the shard count: the whole network below 256 agents), seeded by the memory (no ECVRF evaluated or proved; the model marks drawn attestations for scoring); a grinding author keeps the best of its attempts over its circle only'

/** A stream for memory `serial` of a scenario seeded `seed`: the same memory draws the same witnesses. */
export function memoryRandom (seed: number, serial: number): FastRandom {
  return createFastRandom((Math.imul(serial + 1, 0x85ebca6b) ^ seed) >>> 0, 7)
}

/** Probability that one agent is drawn (src/draw isDrawn): size / population, everybody when the population is below size. */
export function drawProbability (size: number, population: number): number {
  return population <= 0 ? 1 : Math.min(1, size / population)
}

/**
 * A Binomial(n, p) count by inversion (the mean is small here: size for the draw, about one for the
 * private checks), summing the probabilities P(k+1) = P(k)·(n−k)/(k+1)·p/(1−p) until the uniform is covered.
 */
export function binomial (random: FastRandom, n: number, p: number): number {
  if (n <= 0 || p <= 0) return 0
  if (p >= 1) return n
  // For a large mean, a normal approximation keeps the loop short (never reached at the draw's sizes).
  if (n * p > 200) return Math.max(0, Math.min(n, Math.round(n * p + Math.sqrt(n * p * (1 - p)) * gaussian(random))))
  const u = random.next()
  let k = 0
  let prob = Math.exp(n * Math.log1p(-p))
  let cumulative = prob
  const ratio = p / (1 - p)
  while (cumulative <= u && k < n) {
    prob *= ((n - k) / (k + 1)) * ratio
    k++
    cumulative += prob
  }
  return k
}

function gaussian (random: FastRandom): number {
  const u = Math.max(random.next(), 1e-12)
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random.next())
}

/** `count` distinct positions of [0, length) uniformly (Floyd's algorithm: O(count)), ascending. */
export function distinctPositions (random: FastRandom, length: number, count: number): number[] {
  const take = Math.min(count, length)
  const chosen = new Set<number>()
  for (let j = length - take; j < length; j++) {
    const t = Math.floor(random.next() * (j + 1))
    chosen.add(chosen.has(t) ? j : t)
  }
  return [...chosen].sort((a, b) => a - b)
}

/** A list by position (the agents, or a role's agents), so a draw never copies 10,000 indexes. */
export interface AgentList { length: number, at: (position: number) => number }

export interface DrawInput {
  /** Agents that could be drawn (the author excluded). */
  agents: AgentList
  /** Probability each is drawn (drawProbability). */
  p: number
  /** The author's circle among `agents` (the agents whose keys it holds), and its grinding attempts (1: none). */
  circle?: { members: AgentList, attempts: number }
}

/**
 * The drawn agents of one memory: each of `agents` independently with probability p. With a circle,
 * the circle's part is the best of `attempts` independent variants and the rest is drawn once: the
 * author sees only its circle's fractions, so grinding moves that part alone.
 */
export function sampleDrawn (random: FastRandom, input: DrawInput): number[] {
  const { agents, p, circle } = input
  if (circle === undefined || circle.members.length === 0) {
    return distinctPositions(random, agents.length, binomial(random, agents.length, p)).map((i) => agents.at(i))
  }
  let best = 0
  for (let attempt = 0; attempt < Math.max(1, circle.attempts); attempt++) {
    best = Math.max(best, binomial(random, circle.members.length, p))
    if (best === circle.members.length) break
  }
  const members = distinctPositions(random, circle.members.length, best).map((i) => circle.members.at(i))
  const inCircle = new Set<number>()
  for (let i = 0; i < circle.members.length; i++) inCircle.add(circle.members.at(i))
  const rest = agents.length - circle.members.length
  const others: number[] = []
  const want = binomial(random, rest, p)
  // The non-circle agents by rejection (the circle is a minority of the agents in every scenario).
  const seen = new Set<number>()
  let guard = 0
  while (others.length < want && guard++ < 100 * (want + 1)) {
    const a = agents.at(Math.floor(random.next() * agents.length))
    if (inCircle.has(a) || seen.has(a)) continue
    seen.add(a)
    others.push(a)
  }
  return [...members, ...others].sort((a, b) => a - b)
}
