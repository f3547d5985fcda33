import { privateCheckProbability as drawPrivateCheckProbability, WITNESS_DRAW, type WitnessDrawConstants } from 'isnad/engine'

/*
 * The witness draw's settings as the model plays them: the daemon's defaults (src/draw WITNESS_DRAW),
 * so the model follows them. `privateCheckProbability` is the chance that a node lacking a drawn
 * answer asks one witness privately: about one private check per memory network-wide whatever N.
 */

export type DrawDefaults = WitnessDrawConstants

export const MODEL_DRAW_DEFAULTS: Readonly<DrawDefaults> = WITNESS_DRAW

/** min(1, privateChecks / estimate) (src/draw): the chance a node lacking a drawn answer checks privately. */
export function privateCheckProbability (estimate: number, defaults: DrawDefaults = MODEL_DRAW_DEFAULTS): number {
  return drawPrivateCheckProbability(estimate, defaults.privateChecks)
}
