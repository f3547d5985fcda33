import { acceptsPopulation, drawShardRefusal, isDrawn, shardEstimate, WITNESS_DRAW } from '../draw/index.js'
import { instantOf } from './evidence-order.js'
import type { AttestationDraw } from '../schema/index.js'
import type { AcceptedAttestation, KeyIdentities, MemoryEvidence } from './types.js'

/** Which accepted attestations the witness draw selected for this memory at this node, and why the others' draws did not count. */
export interface DrawnWitnesses {
  drawn: Set<string>
  refusals: Map<string, string>
}

/**
 * The accepted attestations **drawn for this memory** (docs/trust.md §5a, protocols/witness-draw-v1.md):
 * each carries a draw whose proof verified under the witness's key for this memory (`drawFraction`
 * present: record-v1 R19), made by a key its identity had before the memory was created (W11),
 * whose fraction u is below WITNESS_DRAW.size / population, and whose claimed population this node
 * accepts (population ≥ N̂ / WITNESS_DRAW.populationSlack, so a witness that understates the network
 * at most doubles its chance). Such a witness is one the author did not choose: the author cannot
 * compute an honest witness's draw, which is a function of the memory's id and that witness's secret
 * key alone.
 *
 * A draw's stated shard count is judged against the node's own: `shardCount`, the count its node was
 * set to, else shardCountFor(estimate) (W12).
 *
 * Without an estimate no claimed population can be judged, and no draw counts. Without `identities`
 * no key log names any key: every key is its own identity, fixed before any memory. Pure; the order
 * of `attestations` does not matter.
 */
export function drawnAttestations (
  attestations: readonly AcceptedAttestation[], estimate: number | undefined, memory: MemoryEvidence, identities?: KeyIdentities, shardCount?: number
): DrawnWitnesses {
  const drawn = new Set<string>()
  const refusals = new Map<string, string>()
  for (const { id, record, drawFraction } of attestations) {
    const draw = record.draw
    if (draw === undefined) continue
    const introduced = drawFraction === undefined ? undefined : drawKeyIntroducedAfter(record.witness, memory.record.created_at, memory.id, identities)
    if (drawFraction === undefined) {
      refusals.set(id, 'its draw proof was not verified for this memory')
    } else if (introduced !== undefined) {
      // W11: a key that was not its identity's when the memory was created could have been chosen,
      // among many, for being drawn for it (witness-draw-v1 §12.7).
      refusals.set(id, `its draw is by a key its identity's key log introduced at ${new Date(introduced).toISOString()}, ` +
        `not before the memory was created (${memory.record.created_at}): a key chosen after a memory can be ground to be drawn`)
    } else {
      const refusal = estimateRefusal(draw, drawFraction, estimate, record.witness, memory, shardCount)
      if (refusal === undefined) drawn.add(id)
      else refusals.set(id, refusal)
    }
  }
  return { drawn, refusals }
}

/**
 * Why a verified draw does not count at a node whose estimate is `estimate` and whose set shard count
 * is `shardCount` (W7, W12, W5), or undefined when it does: within shards this node accepts, at a
 * population it accepts for one such shard, below size / population.
 */
function estimateRefusal (
  draw: AttestationDraw, fraction: number, estimate: number | undefined, witness: string, memory: MemoryEvidence, shardCount: number | undefined
): string | undefined {
  if (estimate === undefined) return 'this node has no population estimate to judge its draw by'
  // W12: a draw within a shard counts where that shard is one this node's count accepts.
  const shards = drawShardRefusal(estimate, draw.shards, witness, memory.record.author.agent_id, shardCount)
  if (shards !== undefined) return shards
  const scoped = shardEstimate(estimate, draw.shards)
  if (!acceptsPopulation(draw.population, scoped)) {
    return `its draw claims a population of ${draw.population}${draw.shards === undefined ? '' : ` in one of ${draw.shards} shards`}, below this node's estimate ${scoped} / ${WITNESS_DRAW.populationSlack}`
  }
  if (!isDrawn(fraction, draw.population)) return `its draw fraction ${round(fraction)} is not below ${WITNESS_DRAW.size} / ${draw.population}`
  return undefined
}

/**
 * W11: when the key log introduced `key` (record-v1 K12's *from*: a rotation's or a delegation's own
 * `created_at`), if that is not before the memory's `created_at`; undefined for an inception key
 * (−∞), a key no log names (its own identity) and a key introduced before the memory. A draw by a key
 * this returns a time for does not count, wherever a node judges draws (the score, its private checks).
 */
export function drawKeyIntroducedAfter (key: string, memoryCreatedAt: string, memoryId: string, identities: KeyIdentities | undefined): number | undefined {
  if (identities === undefined || !identities.named(key)) return undefined
  const from = identities.introducedAt(key)
  if (from === undefined || from === -Infinity) return undefined
  return from >= instantOf(memoryCreatedAt, 'memory', memoryId) ? from : undefined
}

function round (value: number): number {
  return Math.round(value * 1e4) / 1e4
}
