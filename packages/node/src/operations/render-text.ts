import type { MemoryView, TrustResult } from '../schema/index.js'
import { TrustResultSchema } from '../schema/index.js'
import { explanationLines, formatTrustScore } from '../trust/index.js'
import { agentLines, rootsHeadline } from '../reputation/index.js'
import type { TrustExplanation } from './response-shapes.js'

const VERDICT_MARK = { confirm: '+', dispute: '-', partial: '~' } as const

/** The trust explanation for people: score, each contribution, what was accepted, what was refused (src/trust explanationLines). */
export function renderTrust (trust: TrustResult): string {
  return explanationLines(trust).map(({ kind, text }, i) => i === 0 && kind === 'headline' ? text : `  ${text}`).join('\n')
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
    lines.push(explain ? renderTrust(trust.data).split('\n').map((l) => `  ${l}`).join('\n') : `  trust ${formatTrustScore(trust.data.score)} ${trust.data.level}`)
  }
  return lines.join('\n')
}

/** `trust explain`: the memory's trust, then the roots and the reputation of everyone it rests on. */
export function renderExplanation ({ reputation: { roots, agents }, ...trust }: TrustExplanation): string {
  const lines = [renderTrust(trust), '', rootsHeadline(roots)]
  for (const rep of Object.values(agents)) lines.push(...agentLines(rep).map((l) => `  ${l}`))
  return lines.join('\n')
}
