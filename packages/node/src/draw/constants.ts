/*
 * The witness draw's constants (protocols/witness-draw-v1.md §7). The draw is the same at every node,
 * so `size` and `populationSlack` are protocol values: a node that changed them would judge other
 * witnesses' draws differently from its peers. The budgets are each node's own.
 */

/**
 * The UTF-8 tag the draw input starts with, before the memory's CID bytes (witness-draw-v1 §3):
 * `isnad/draw/v1\0`. Declared once, where record-v1 R19 checks a draw's proof (src/record), below
 * this folder.
 */
export { RECORD_DRAW_INPUT_TAG as DRAW_INPUT_TAG } from '../record/index.js'

export interface WitnessDrawConstants {
  /**
   * Witnesses drawn per memory, in expectation: a witness is drawn iff its fraction is below
   * size / population. Network-wide, a memory costs ~size drawn answers whatever the network's size.
   * @default 5
   */
  readonly size: number
  /**
   * A node accepts a witness's claimed population iff population × populationSlack ≥ its own estimate,
   * so a witness that understates the network at most doubles its chance of being drawn.
   * @default 2
   */
  readonly populationSlack: number
  /**
   * Private checks per memory network-wide, in expectation: a node with no accepted drawn answer asks
   * one witness of its own choosing with probability min(1, privateChecks / its estimate).
   * @default 1
   */
  readonly privateChecks: number
  /**
   * How long after a memory arrives a node waits for drawn answers before it considers a private
   * check (ms): a drawn witness answers when the memory reaches it, and its attestation travels the
   * same gossip mesh back, a few hops of well under a second each, plus the witness's own checks.
   * @default 10000
   */
  readonly privateCheckDelayMs: number
  /**
   * Memories of one author a witness answers (drawn, or asked by a stranger) per hour at most; beyond,
   * it skips them (logged, counted), so a flooding author spends only its own share.
   * @default 30
   */
  readonly perAuthorPerHour: number
  /** Memories a witness answers per minute in all, at most. @default 60 */
  readonly perMinute: number
}

/** The witness draw's defaults (protocols/witness-draw-v1.md §7). */
export const WITNESS_DRAW: WitnessDrawConstants = Object.freeze({
  size: 5,
  populationSlack: 2,
  privateChecks: 1,
  privateCheckDelayMs: 10_000,
  perAuthorPerHour: 30,
  perMinute: 60
})
