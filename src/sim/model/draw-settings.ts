/*
 * The witness draw's defaults as the model plays them: the daemon's (src/draw WITNESS_DRAW), in one
 * place so the model follows them. `privateCheckProbability` is the chance that a node lacking a drawn
 * answer asks one witness privately: about one private check per memory network-wide whatever N.
 */

export interface DrawDefaults {
  /** Witnesses drawn per memory in expectation. */
  size: number
  /** A claimed population is accepted down to the node's own estimate / populationSlack. */
  populationSlack: number
  /** Private checks per memory network-wide, in expectation. */
  privateChecks: number
  /** How long after a memory arrives a node waits for a drawn answer before its private check, ms. */
  privateCheckDelayMs: number
  /** Memories of one author a witness answers per hour. */
  perAuthorPerHour: number
  /** Memories a witness answers per minute in all. */
  perMinute: number
}

export const MODEL_DRAW_DEFAULTS: Readonly<DrawDefaults> = Object.freeze({
  size: 5,
  populationSlack: 2,
  privateChecks: 1,
  privateCheckDelayMs: 30_000,
  perAuthorPerHour: 30,
  perMinute: 60
})

/** min(1, privateChecks / estimate): the chance a node lacking a drawn answer checks privately. */
export function privateCheckProbability (estimate: number, defaults: DrawDefaults = MODEL_DRAW_DEFAULTS): number {
  return estimate <= 0 ? 1 : Math.min(1, defaults.privateChecks / estimate)
}
