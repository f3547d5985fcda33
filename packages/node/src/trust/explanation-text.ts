import type { AgentEvidence, TrustResult } from '../schema/index.js'

/**
 * A trust explanation in words, one line per statement, for people: what `trust explain`, `show`
 * and `verify` print and what the dashboard shows (docs/trust.md §6). Pure and shared, so every
 * surface says the same thing, and test/unit/trust/explanation-truth.test.ts checks each line
 * against the result's fields.
 *
 * Words: an attestation or anchor the counting rules let through is *accepted* (the result's
 * `counted` lists); a confirm the policy counts for the level is *a witness* (level_basis). A
 * reputation-weighted policy can accept a confirm that does not count as a witness (its witness
 * weighs too little): the line says what it weighed.
 */

export const EXPLANATION_LINE_KINDS = [
  'headline', 'insufficient', 'level', 'witnesses', 'contribution', 'clamped',
  'accepted-attestation', 'accepted-anchor', 'refused-attestation', 'refused-anchor', 'evidence'
] as const
export type ExplanationLineKind = (typeof EXPLANATION_LINE_KINDS)[number]

export interface ExplanationLine {
  kind: ExplanationLineKind
  text: string
}

/**
 * A score for people, at 2 decimals rounded down: the level bounds are whole hundredths, so the
 * printed figure is always in the same band as the score (0.5999, the top of Attested, prints 0.59,
 * never 0.60, which would read Anchored).
 */
export function formatTrustScore (score: number): string {
  // The score has 4 decimals; the nudge keeps 0.29 × 100 = 28.999999999999996 from flooring to 0.28.
  return (Math.floor(score * 100 + 1e-6) / 100).toFixed(2)
}

function signed (points: number): string {
  return `${points >= 0 ? '+' : ''}${points.toFixed(2)}`
}

/** The explanation of one trust result, line by line, in the order the CLI prints them. */
export function explanationLines (trust: TrustResult): ExplanationLine[] {
  const lines: ExplanationLine[] = [
    { kind: 'headline', text: `trust ${formatTrustScore(trust.score)} ${trust.level}  (policy ${trust.policy}, computed ${trust.computed_at})` }
  ]
  // Say plainly when the node has too little to judge, and which rule set the level.
  if (trust.insufficient !== undefined) lines.push({ kind: 'insufficient', text: `too little to judge (${trust.insufficient.code}): ${trust.insufficient.reason}` })
  if (trust.level_basis !== undefined) lines.push({ kind: 'level', text: `level: ${trust.level_basis.reason}` })
  // isnad-draw: who selected the witnesses, and whether this node checked privately.
  if (trust.witness_selection !== undefined) lines.push({ kind: 'witnesses', text: `witnesses: ${trust.witness_selection.reason}` })
  for (const c of trust.contributions) lines.push({ kind: 'contribution', text: `${signed(c.points)}  ${c.reason}` })
  if (trust.clamped === true) lines.push({ kind: 'clamped', text: `points clamped from ${trust.unclamped_score} to [0, 1]` })
  for (const a of trust.counted.attestations) {
    lines.push({ kind: 'accepted-attestation', text: `accepted ${a.verdict.padEnd(8)} ${a.witness}${a.note === undefined ? '' : `  (${a.note})`}` })
  }
  for (const a of trust.counted.anchors) lines.push({ kind: 'accepted-anchor', text: `accepted anchor   ${a.type} ${a.reference}` })
  for (const a of trust.refused.attestations) lines.push({ kind: 'refused-attestation', text: `refused  attestation ${a.id} by ${a.witness}: ${a.code} ${a.reason}` })
  for (const a of trust.refused.anchors) lines.push({ kind: 'refused-anchor', text: `refused  anchor ${a.id}: ${a.code} ${a.reason}` })
  // A node never scores on a thinner graph silently: whose evidence it lacks, and what it did about it.
  for (const e of trust.evidence ?? []) lines.push({ kind: 'evidence', text: evidenceLine(e) })
  return lines
}

function records (n: number): string {
  return `${n} record${n === 1 ? '' : 's'}`
}

/**
 * One agent whose shard the node does not hold (docs/trust.md §3a): "evidence for did:… not held:
 * reputation from 3 records; fetching", or, once fetched, when and how much it brought.
 */
export function evidenceLine (e: AgentEvidence): string {
  const from = `reputation from ${records(e.held)}`
  switch (e.state) {
    case 'missing': return `evidence for ${e.agent} not held: ${from}`
    case 'fetching': return `evidence for ${e.agent} not held: ${from}; fetching`
    case 'fetched': return `evidence for ${e.agent} fetched${e.fetched_at === undefined ? '' : ` at ${e.fetched_at}`}: ${records(e.fetched ?? 0)} brought, ${from}`
  }
}
