import type { AnchorChecker, AnchorClaim, CheckOutcome } from './types.js'

/**
 * A verifier of blockchain anchors (anchors-v1 V4), plugged in by whoever runs the node: isnad
 * ships none, because checking a chain needs a node or an indexer of that chain, which an offline
 * node does not have.
 */
export interface BlockchainVerifier {
  /** Shown in reasons, e.g. `bitcoin-core-rpc`. */
  readonly name: string
  /** Whether this verifier understands the reference (e.g. a CAIP-2 chain id prefix). */
  supports: (reference: string) => boolean
  /** Looks the reference up and compares what it commits to with the anchor's hash. */
  check: (anchor: AnchorClaim, signal: AbortSignal) => Promise<CheckOutcome>
}

/** The first configured verifier that supports the reference decides; none: unverifiable, said honestly. */
export function createBlockchainChecker (verifiers: readonly BlockchainVerifier[] = []): AnchorChecker {
  return async (anchor, signal) => {
    const verifier = verifiers.find((v) => v.supports(anchor.reference))
    if (verifier === undefined) {
      return {
        state: 'unverifiable',
        reason: `no blockchain verifier is configured for ${anchor.reference}; a blockchain anchor cannot be checked offline`
      }
    }
    const outcome = await verifier.check(anchor, signal)
    return { ...outcome, reason: `${verifier.name}: ${outcome.reason}` }
  }
}
