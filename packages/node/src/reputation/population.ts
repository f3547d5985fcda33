import { drawFractionOfProof, populationEstimate, type DrawPaths, type PopulationClaim } from '../draw/index.js'
import { PORTABLE_FAST_PATHS, decodeSignature } from '../record/index.js'
import type { ReputationTable } from './reputation-table.js'
import type { TrustGraph, VoteGroup } from './vote-graph.js'
import { VoteSet } from './vote-set.js'

/*
 * A reputation table's N̂ (protocols/witness-draw-v1.md §6, W6a): the graph's agents or the median
 * population the reputable drawn witnesses of its votes stated (src/draw populationEstimate), the
 * larger, computed on first use and kept with the table.
 */

/** A table's N̂ and its input: the votes' population claims, the estimate computed on first use. */
export function estimateOf (graph: TrustGraph, votes: VoteSet | Iterable<VoteGroup>, lookup: (did: string) => number): Pick<ReputationTable, 'populationClaims' | 'populationEstimate'> {
  const claims = votes instanceof VoteSet ? votes.populationClaims : []
  let estimate: number | undefined
  return {
    populationClaims: claims,
    populationEstimate: (paths = PORTABLE_FAST_PATHS) => {
      estimate ??= populationEstimate(graph.agents.length, claims, { reputation: lookup, fractionOf: (claim) => storedFraction(claim, paths) })
      return estimate
    }
  }
}

/** The fraction of a stored draw's proof (verified at ingest, record-v1 R19); undefined if it does not decode. */
function storedFraction (claim: PopulationClaim, paths: DrawPaths): number | undefined {
  try {
    return drawFractionOfProof(decodeSignature(claim.proof), paths)
  } catch {
    return undefined
  }
}
