import { IsnadError } from '../errors/index.js'
import { WITNESS_DRAW } from './constants.js'

/*
 * The draw's arithmetic (protocols/witness-draw-v1.md §5–§6): whether a fraction draws a witness,
 * whether a node believes a witness's population, and how often a node checks privately. Exact
 * where two nodes must agree: the drawn rule compares integers, not a rounded quotient.
 */

const FRACTION_SCALE = 2 ** 53
const FRACTION_SCALE_N = 2n ** 53n

/**
 * witness-draw-v1 §5: drawn iff fraction < size / population, computed exactly as
 * m · population < size · 2^53, where m = fraction · 2^53 is the integer drawFraction took from beta.
 * A population below `size` draws everybody (a small network). A population that is not a safe
 * integer ≥ 1, or a fraction outside [0, 1), draws nobody. Throws USAGE for a size that is not a
 * safe integer ≥ 1 (a node's setting, not a peer's claim).
 */
export function isDrawn (fraction: number, population: number, size: number = WITNESS_DRAW.size): boolean {
  if (!Number.isSafeInteger(size) || size < 1) throw new IsnadError('USAGE', `the draw's size is an integer of at least 1, got ${String(size)}`)
  if (!Number.isSafeInteger(population) || population < 1) return false
  if (!(fraction >= 0 && fraction < 1)) return false
  // A fraction off the 2^-53 grid (not drawFraction's) is rounded down onto it.
  const m = BigInt(Math.floor(fraction * FRACTION_SCALE))
  return m * BigInt(population) < BigInt(size) * FRACTION_SCALE_N
}

/**
 * witness-draw-v1 §6: a node accepts a witness's claimed population iff
 * claimed · slack ≥ estimate (claimed ≥ estimate / slack, without the division), so a witness that
 * understates the network gains at most a factor `slack` in its chance of being drawn. `estimate` is
 * the node's own N̂ (the distinct agents of its reputation graph); a claim that is not a safe integer
 * ≥ 1 is refused. A claim above the estimate is always accepted: it only lowers the witness's chance.
 */
export function acceptsPopulation (claimed: number, estimate: number, slack: number = WITNESS_DRAW.populationSlack): boolean {
  if (!Number.isSafeInteger(claimed) || claimed < 1) return false
  return claimed * slack >= estimate
}

/**
 * witness-draw-v1 §8: the probability that a node with no accepted drawn answer for a memory asks a
 * witness of its own choosing: min(1, privateChecks / estimate), so network-wide a memory draws
 * ~privateChecks private checks whatever the network's size. 1 for an estimate ≤ privateChecks
 * (or not a number: a node that knows nobody checks); 0 when privateChecks is not positive (off).
 */
export function privateCheckProbability (estimate: number, privateChecks: number = WITNESS_DRAW.privateChecks): number {
  if (!(privateChecks > 0)) return 0
  if (!(estimate > privateChecks)) return 1
  return privateChecks / estimate
}
