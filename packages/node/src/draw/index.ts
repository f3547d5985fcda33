/*
 * The witness draw (protocols/witness-draw-v1.md): each agent learns privately, by an ECVRF of the
 * memory's id under its own key, whether it is one of the ~size witnesses drawn for a memory, and
 * anyone can check the claim from the attestation alone. Pure: no clock, no randomness, no I/O.
 */
export { DRAW_INPUT_TAG, WITNESS_DRAW, type WitnessDrawConstants } from './constants.js'
export { drawFraction, drawFractionOfProof, drawInput, proveDraw, verifyDraw, type DrawPaths, type DrawProof } from './draw.js'
export { acceptsPopulation, isDrawn, privateCheckProbability } from './rule.js'
export { POPULATION_CLAIM_WINDOW, populationEstimate, statedPopulation, type PopulationClaim, type StatedPopulationInput } from './population.js'
export { checkedShardCount, drawScopeOf, drawShardRefusal, holdersEstimate, shardEstimate, type DrawScope } from './draw-scope.js'
