import { acceptsPopulation, isDrawn, WITNESS_DRAW } from '../draw/index.js'
import type { AcceptedAttestation } from './types.js'

/** Which accepted attestations the witness draw selected for this memory at this node, and why the others' draws did not count. */
export interface DrawnWitnesses {
  drawn: Set<string>
  refusals: Map<string, string>
}

/**
 * The accepted attestations **drawn for this memory** (docs/trust.md §5a, protocols/witness-draw-v1.md):
 * each carries a draw whose proof verified under the witness's key for this memory (`drawFraction`
 * present: record-v1 R19), whose fraction u is below WITNESS_DRAW.size / population, and whose claimed
 * population this node accepts (population ≥ N̂ / WITNESS_DRAW.populationSlack, so a witness that
 * understates the network at most doubles its chance). Such a witness is one the author did not
 * choose: the author cannot compute an honest witness's draw, which is a function of the memory's id
 * and that witness's secret key alone.
 *
 * Without an estimate no claimed population can be judged, and no draw counts. Pure; the order of
 * `attestations` does not matter.
 */
export function drawnAttestations (attestations: readonly AcceptedAttestation[], estimate: number | undefined): DrawnWitnesses {
  const drawn = new Set<string>()
  const refusals = new Map<string, string>()
  for (const { id, record, drawFraction } of attestations) {
    const draw = record.draw
    if (draw === undefined) continue
    if (drawFraction === undefined) {
      refusals.set(id, 'its draw proof was not verified for this memory')
    } else if (estimate === undefined) {
      refusals.set(id, 'this node has no population estimate to judge its draw by')
    } else if (!acceptsPopulation(draw.population, estimate)) {
      refusals.set(id, `its draw claims a population of ${draw.population}, below this node's estimate ${estimate} / ${WITNESS_DRAW.populationSlack}`)
    } else if (!isDrawn(drawFraction, draw.population)) {
      refusals.set(id, `its draw fraction ${round(drawFraction)} is not below ${WITNESS_DRAW.size} / ${draw.population}`)
    } else {
      drawn.add(id)
    }
  }
  return { drawn, refusals }
}

function round (value: number): number {
  return Math.round(value * 1e4) / 1e4
}
