import type { AgentReputation } from './reputation.js'
import type { TrustRoot } from './trust-route-shapes.js'
import { UNROOTED_REPUTATION } from './constants.js'

/**
 * The reputation part of a trust explanation in words (`trust explain`, `trust root list`,
 * `trust reputation`): which roots the node walks from and, per agent, its reputation with the
 * factors that make it (docs/trust.md §3). Pure and shared; test/unit/trust/explanation-truth.test.ts
 * checks each line against the fields beside it.
 */

function plural (n: number, one: string, many: string = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`
}

/** The header of the reputation section: how many roots, and of which kind. */
export function rootsHeadline (roots: readonly TrustRoot[]): string {
  if (roots.length === 0) {
    return `reputation: this node has no trust roots (no agent of its own, none added), so every agent has ${UNROOTED_REPUTATION} (\`isnad trust root add <did>\`)`
  }
  const own = roots.filter((r) => r.source === 'own-agent').length
  return `reputation from ${plural(roots.length, 'trust root')}: ${plural(own, 'own agent')} of this node, ${roots.length - own} added by the operator`
}

/** `trust root list`: every root, own agents first, each saying where it comes from. */
export function rootLines (roots: readonly TrustRoot[]): string[] {
  if (roots.length === 0) return [`no trust roots (no agent of its own, none added): every agent has reputation ${UNROOTED_REPUTATION} (docs/trust.md §2)`]
  return roots.map((r) => r.source === 'own-agent'
    ? `${r.did}  own agent of this node${r.added_at === undefined ? '' : ` (also added ${r.added_at})`}`
    : `${r.did}  added ${r.added_at ?? ''}`.trimEnd())
}

/** One agent: its reputation and why, then its path from a root. */
export function agentLines (rep: AgentReputation): string[] {
  const head = `${rep.did}  reputation ${rep.reputation.toFixed(4)}  ${reputationReason(rep)}  rank ${rep.rank.toExponential(3)}`
  return [head, `    ${rep.path === null ? 'no trust path from a root' : `path from a root: ${rep.path.join(' → ')}`}`]
}

function reputationReason (rep: AgentReputation): string {
  if (rep.root) return '(a root: 1 by definition)'
  if (rep.standing === undefined || rep.agreement === undefined || rep.evidence === undefined) {
    return rep.reputation === 0 ? '(no trust path from this node\'s roots reaches it)' : `(the default ${UNROOTED_REPUTATION}: this node has no trust roots)`
  }
  return `(= standing ${rep.standing.toFixed(4)} × agreement factor ${rep.agreement.factor.toFixed(4)} × evidence factor ${rep.evidence.factor.toFixed(4)}${zeroBecause(rep)})`
}

/** Why a reputation is 0 although a path may reach the agent: which factor is 0. */
function zeroBecause (rep: AgentReputation): string {
  if (rep.reputation > 0) return ''
  if (rep.evidence !== undefined && rep.evidence.factor === 0) return ': no reputable evidence backs it yet'
  if (rep.agreement !== undefined && rep.agreement.factor === 0) return ': reputable agents contradicted all it said'
  return ': the walk from the roots does not reach it with any weight'
}
