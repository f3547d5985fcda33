import type { AcceptedAttestation, KeyIdentities, MemoryEvidence, WitnessRequestEvidence } from './types.js'
import { instantOf } from './evidence-order.js'

/** Without a keyring every key is its own identity. */
const keyItself = (did: string): string => did

/**
 * The accepted attestations whose witness **the node asked itself** (a private check: docs/trust.md
 * §5a, protocols/witness-draw-v1.md W8): a witness request for this memory, with a valid signature,
 * by one of the node's own requesters (its agents, its trust roots) that is not the author's
 * identity, addressed to the witness's identity (an open request names nobody, so anyone the author
 * recruits can answer it), and made no later than the verdict (`created_at` ≤ `witnessed_at`: a verdict given before
 * anyone independent asked was the author's recruit's). Such a witness is one the author did not
 * choose: the node drew it, so a circle the author assembles meets it only as often as the node's
 * draw lands in the circle.
 *
 * Pure; requests for other memories, forged ones and the author's own are ignored, whatever order
 * they come in.
 */
export function independentAttestations (
  memory: MemoryEvidence,
  attestations: readonly AcceptedAttestation[],
  requests: readonly WitnessRequestEvidence[],
  ownRequesters: (did: string) => boolean,
  identities?: KeyIdentities
): Set<string> {
  const independent = new Set<string>()
  if (requests.length === 0 || attestations.length === 0) return independent
  const identityOf = identities?.identityOf ?? keyItself
  const author = identityOf(memory.record.author.agent_id)
  // The earliest own request that addressed each witness identity.
  const askedAt = new Map<string, number>()
  for (const { id, record, signatureValid } of requests) {
    if (!signatureValid || record.kind !== 'witness_request' || record.memory !== memory.id) continue
    if (identityOf(record.requester) === author || !ownRequesters(record.requester)) continue
    const at = instantOf(record.created_at, 'witness_request', id)
    for (const witness of record.witnesses ?? []) {
      const who = identityOf(witness)
      const before = askedAt.get(who)
      if (before === undefined || at < before) askedAt.set(who, at)
    }
  }
  for (const a of attestations) {
    const asked = askedAt.get(identityOf(a.record.witness))
    if (asked !== undefined && asked <= a.at) independent.add(a.id)
  }
  return independent
}
