import { IsnadError } from '../errors/index.js'
import { checkedShardCount } from '../draw/index.js'
import { countAnchors } from './count-anchors.js'
import { countAttestations } from './count-attestations.js'
import { DEFAULT_REPUTATION } from './constants.js'
import { instantOf } from './evidence-order.js'
import { drawnAttestations } from './drawn-witnesses.js'
import { independentAttestations } from './independent-witnesses.js'
import type { CountedEvidence, ReputationLookup, TrustInput } from './types.js'

const noEndorsements = (): boolean => false
const nobody = (): boolean => false
const noRecord = (): number => 1

/** Every agent has DEFAULT_REPUTATION: the reputation a node without trust roots uses. */
export const defaultReputation: ReputationLookup = () => DEFAULT_REPUTATION

/**
 * Applies the counting rules, which are the same under every policy, and looks up the author's
 * reputation. Throws USAGE for a clock or a reputation that is not a number in range: those are
 * bugs of the caller, never properties of the evidence.
 */
export function countEvidence (input: TrustInput): CountedEvidence {
  if (!Number.isFinite(input.now)) throw new IsnadError('USAGE', `now must be a finite number of ms, got ${input.now}`)
  const reputation = input.reputation ?? defaultReputation
  const author = input.memory.record.author.agent_id
  const attestations = countAttestations(input.memory, input.attestations, input.now, input.identities)
  const anchors = countAnchors(input.memory, input.anchors, input.now)
  // docs/trust.md §1a: a memory its author's key signed when its log already refuses it (revoked as
  // compromised since a time before created_at, rotated out) has a signature that proves nothing.
  const keyRefusal = input.identities?.named(author) === true
    ? input.identities.refusalAt(author, instantOf(input.memory.record.created_at, 'memory', input.memory.id))
    : undefined
  const memory = keyRefusal === undefined || !input.memory.signatureValid ? input.memory : { ...input.memory, signatureValid: false }
  // Witnesses the author did not choose: drawn for this memory, or asked by this node (docs/trust.md §5a).
  const estimate = input.populationEstimate === undefined ? undefined : checkedEstimate(input.populationEstimate)
  const shardCount = input.shardCount === undefined ? undefined : checkedShardCount(input.shardCount)
  const { drawn, refusals: drawRefusals } = drawnAttestations(attestations.accepted, estimate, input.memory, input.identities, shardCount)
  const asked = independentAttestations(input.memory, attestations.accepted, input.requests ?? [], input.ownRequesters ?? nobody, input.identities)
  return {
    memory,
    ...(keyRefusal === undefined ? {} : { authorKeyRefusal: keyRefusal }),
    author,
    authorReputation: checkedReputation(reputation, author),
    attestations: attestations.accepted,
    anchors: anchors.accepted,
    refusedAttestations: attestations.refused,
    refusedAnchors: anchors.refused,
    reputation,
    rooted: input.rooted ?? input.reputation !== undefined,
    endorses: input.endorses ?? noEndorsements,
    confirmRecord: input.confirmRecord ?? noRecord,
    isRoot: input.ownRequesters ?? nobody,
    drawn,
    drawRefusals,
    asked,
    independent: drawn.size === 0 ? asked : asked.size === 0 ? drawn : new Set([...drawn, ...asked]),
    ...(estimate === undefined ? {} : { populationEstimate: estimate }),
    ...(input.privateCheck === undefined ? {} : { privateCheck: input.privateCheck }),
    now: input.now
  }
}

/** N̂ is a count of agents: anything else is the caller's bug. */
function checkedEstimate (estimate: number): number {
  if (!Number.isInteger(estimate) || estimate < 0) throw new IsnadError('USAGE', `populationEstimate must be a whole number of agents, got ${estimate}`)
  return estimate
}

/** A reputation in [0, 1]; anything else would push the score past what the schema's weights allow. */
export function checkedReputation (lookup: ReputationLookup, agentId: string): number {
  const value = lookup(agentId)
  if (typeof value !== 'number' || !(value >= 0 && value <= 1)) {
    throw new IsnadError('USAGE', `reputation of ${agentId} is ${String(value)}, not a number in [0, 1]`)
  }
  return value
}
