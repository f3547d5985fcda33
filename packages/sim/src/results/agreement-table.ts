import { AGREEMENT_TOLERANCE, compareRuns, deliveryGaps, type Agreement } from './agreement.js'
import type { RunResult } from '../driver/index.js'

/*
 * The engines-agree table of docs/simulation.md as markdown, paste-ready: two rows per run of a
 * scenario (real nodes, then the model engine), each policy's AUC and level shares, the largest
 * difference and the wall time. Pure: bench/sim-agree.ts supplies the runs.
 */

/** One real-node attempt that did not deliver everything, before a slower one. */
export interface SlowerAttempt {
  secondsPerMinute: number
  gaps: string[]
  wallSeconds: number
}

export interface AgreementRow {
  scenario: string
  /** Real seconds per simulated minute both engines played at (the scenario's, or slower after retries). */
  secondsPerMinute: number
  /** The scenario's own time scale. */
  scenarioSecondsPerMinute: number
  real: RunResult
  model: RunResult
  /** Memories whose author is online at their minute (agreement.ts publishableMemories): all of them but for churn. */
  publishable: number
  /** Real-node attempts at faster time scales that fell short of full delivery. */
  retries: SlowerAttempt[]
}

export interface RowVerdict {
  agreement: Agreement
  /** False when the real run's delivery is incomplete: the observers saw different records, so the tolerance does not apply. */
  comparable: boolean
  realGaps: string[]
  modelGaps: string[]
}

export function agreementVerdict (row: AgreementRow, tolerance = AGREEMENT_TOLERANCE): RowVerdict {
  const realGaps = deliveryGaps(row.real, row.publishable)
  const modelGaps = deliveryGaps(row.model, row.publishable)
  return { agreement: compareRuns(row.real, row.model, tolerance), comparable: realGaps.length === 0, realGaps, modelGaps }
}

function fixed (value: number | null, digits = 3): string {
  return value === null ? '—' : value.toFixed(digits)
}

function delivery (run: RunResult): string {
  const d = run.metrics.delivery
  const ratio = (v: number | null): string => v === null ? '—' : v === 1 ? '1' : String(v)
  return `${ratio(d.memoryRatio)} / ${ratio(d.attestationRatio)}`
}

function policyCell (run: RunResult, policy: string): string {
  const t = run.metrics.trust.find((p) => p.policy === policy)
  if (t === undefined) return '—'
  return [t.auc, t.falseAnchoredShare, t.falseAttestedShare, t.trueUnverifiedShare].map((v) => fixed(v)).join(' · ')
}

/** Gossip messages each node received per published memory (duplicates included): the witness draw's per-node cost. */
export function messagesPerMemory (run: RunResult): number | null {
  const published = run.metrics.memories.published
  return run.metrics.perNode === null || published === 0 ? null : run.metrics.perNode.messagesMean / published
}

/** A run's per-node messages per memory, and on the model's row its difference from the real run's in %. */
function messagesCell (run: RunResult, against?: RunResult): string {
  const own = messagesPerMemory(run)
  if (own === null) return '—'
  const other = against === undefined ? null : messagesPerMemory(against)
  return other === null || other === 0 ? own.toFixed(1) : `${own.toFixed(1)} (${own >= other ? '+' : ''}${((own / other - 1) * 100).toFixed(0)} %)`
}

function differenceCell (verdict: RowVerdict): string {
  const a = verdict.agreement
  const mark = !verdict.comparable ? `not held to the tolerance: real delivery incomplete (${verdict.realGaps.join(', ')})` : a.agree ? '✓' : '✗'
  const worst = a.worst === null ? '' : ` (${a.worst.policy} ${a.worst.metric})`
  const extra = [
    ...(a.memoriesDiffer ? ['different memories published'] : []),
    ...(a.missingPolicies.length > 0 ? [`policies in one engine only: ${a.missingPolicies.join(', ')}`] : []),
    ...(a.histogramsDiffer.length > 0 ? [`histograms differ: ${a.histogramsDiffer.join(', ')}`] : []),
    ...(verdict.modelGaps.length > 0 ? [`model: ${verdict.modelGaps.join(', ')}`] : [])
  ]
  const value = Number.isFinite(a.maxDifference) ? a.maxDifference.toFixed(4) : 'null vs number'
  return `${value}${a.maxDifference > 0 ? worst : ''} ${mark}${extra.length > 0 ? `; ${extra.join('; ')}` : ''}`
}

function slowCell (row: AgreementRow): string {
  if (row.retries.length === 0) return String(row.secondsPerMinute)
  const tried = row.retries.map((r) => `${r.secondsPerMinute} (${r.gaps.join(', ')})`).join('; ')
  return `${row.secondsPerMinute}, after ${tried}`
}

/** The markdown table: one header, two rows per run (real nodes, model), columns per policy. */
export function agreementTable (rows: readonly AgreementRow[], tolerance = AGREEMENT_TOLERANCE): string {
  const policies = [...new Set(rows.flatMap((r) => [...r.real.metrics.trust, ...r.model.metrics.trust].map((t) => t.policy)))]
  const header = ['scenario', 'Sybils', 'nodes', 'engine', 's / sim. min', 'delivery mem. / att.', ...policies.map((p) => `${p}: AUC · F≥Anc · F≥Att · T Unv`), 'max \\|Δ\\|', 'messages / node / memory', 'wall s']
  const lines = [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`]
  for (const row of rows) {
    const verdict = agreementVerdict(row, tolerance)
    const cells = (run: RunResult, engine: string, diff: string, speed: string, messages: string): string[] => [
      row.scenario, String(run.sybils), String(run.nodes), engine, speed, delivery(run), ...policies.map((p) => policyCell(run, p)), diff, messages, run.timings.totalSeconds.toFixed(1)
    ]
    lines.push(`| ${cells(row.real, 'nodes', '', slowCell(row), messagesCell(row.real)).join(' | ')} |`)
    lines.push(`| ${cells(row.model, 'model', differenceCell(verdict), String(row.secondsPerMinute), messagesCell(row.model, row.real)).join(' | ')} |`)
  }
  return lines.join('\n')
}

/** One line of totals under the table: how many runs agree, were compared, and the largest difference. */
export function agreementSummary (rows: readonly AgreementRow[], tolerance = AGREEMENT_TOLERANCE): string {
  const verdicts = rows.map((r) => agreementVerdict(r, tolerance))
  const compared = verdicts.filter((v) => v.comparable)
  const agreeing = compared.filter((v) => v.agreement.agree)
  const max = Math.max(0, ...compared.map((v) => v.agreement.maxDifference))
  const realWall = rows.reduce((s, r) => s + r.real.timings.totalSeconds + r.retries.reduce((t, a) => t + a.wallSeconds, 0), 0)
  const modelWall = rows.reduce((s, r) => s + r.model.timings.totalSeconds, 0)
  return `${agreeing.length} of ${rows.length} runs agree within ${tolerance} (${compared.length} compared with full delivery); largest difference ${Number.isFinite(max) ? max.toFixed(4) : 'null vs number'}; wall time ${realWall.toFixed(0)} s on real nodes (retries included), ${modelWall.toFixed(1)} s on the model.`
}
