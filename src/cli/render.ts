import type { MemoryView, TrustResult } from '../schema/index.js'
import { TrustResultSchema } from '../schema/index.js'

const VERDICT_MARK = { confirm: '+', dispute: '-', partial: '~' } as const

function signed (points: number): string {
  return `${points >= 0 ? '+' : ''}${points.toFixed(2)}`
}

/** The trust explanation for people: score, each contribution, what counted, what was refused. */
export function renderTrust (trust: TrustResult): string {
  const lines = [`trust ${trust.score.toFixed(2)} ${trust.level}  (policy ${trust.policy}, computed ${trust.computed_at})`]
  // Say plainly when the node has too little to judge, and which rule set the level.
  if (trust.insufficient !== undefined) lines.push(`  too little to judge (${trust.insufficient.code}): ${trust.insufficient.reason}`)
  if (trust.level_basis !== undefined) lines.push(`  level: ${trust.level_basis.reason}`)
  // isnad-draw: who selected the witnesses, and whether this node checked privately.
  if (trust.witness_selection !== undefined) lines.push(`  witnesses: ${trust.witness_selection.reason}`)
  for (const c of trust.contributions) lines.push(`  ${signed(c.points)}  ${c.reason}`)
  if (trust.clamped === true) lines.push(`  clamped from ${trust.unclamped_score} to [0, 1]`)
  for (const a of trust.counted.attestations) {
    lines.push(`  counted  ${a.verdict.padEnd(8)} ${a.witness}${a.note === undefined ? '' : `  (${a.note})`}`)
  }
  for (const a of trust.counted.anchors) lines.push(`  counted  anchor   ${a.type} ${a.reference}`)
  for (const a of trust.refused.attestations) lines.push(`  refused  attestation ${a.id} by ${a.witness}: ${a.code} ${a.reason}`)
  for (const a of trust.refused.anchors) lines.push(`  refused  anchor ${a.id}: ${a.code} ${a.reason}`)
  return lines.join('\n')
}

/** A memory view for people; `--json` prints the view itself (provenance schema shape). */
export function renderView (view: MemoryView, { explain = false } = {}): string {
  const trust = TrustResultSchema.safeParse(view.trust)
  const lines = [
    `memory ${view.id}`,
    `  [${view.content.type}] ${view.content.summary}`,
    `  author  ${view.provenance.author.agent_id}${view.provenance.author.platform === undefined ? '' : ` on ${view.provenance.author.platform}`}`,
    `  created ${view.provenance.created_at}   confidence ${view.provenance.context.confidence}`
  ]
  if (view.content.tags.length > 0) lines.push(`  tags    ${view.content.tags.map((t) => `#${t}`).join(' ')}`)
  if (view.content.body !== view.content.summary) lines.push('', ...view.content.body.split('\n').map((l) => `  | ${l}`), '')
  if (view.lineage.supersedes !== null) lines.push(`  supersedes    ${view.lineage.supersedes}`)
  if (view.lineage.superseded_by !== null) lines.push(`  superseded by ${view.lineage.superseded_by}  (read that one instead)`)
  for (const source of view.lineage.derived_from) lines.push(`  derived from  ${source}`)
  lines.push(`  witnesses ${view.witnesses.length === 0 ? 'none' : ''}`)
  for (const w of view.witnesses) {
    lines.push(`    ${VERDICT_MARK[w.attestation]} ${w.attestation.padEnd(8)} ${w.agent_id}  ${w.witnessed_at}${w.notes === undefined ? '' : `  "${w.notes}"`}`)
  }
  lines.push(`  anchors ${view.anchors.length === 0 ? 'none' : ''}`)
  for (const a of view.anchors) lines.push(`    ${a.type} ${a.reference}  (${a.verification.state})`)
  // content-routing-v1 C7: a memory fetched by CID from outside the node's interests says so.
  if (view.origin !== undefined) lines.push(`  origin  ${view.origin.reason}`)
  if (trust.success) {
    lines.push(explain ? renderTrust(trust.data).split('\n').map((l) => `  ${l}`).join('\n') : `  trust ${trust.data.score.toFixed(2)} ${trust.data.level}`)
  }
  return lines.join('\n')
}
