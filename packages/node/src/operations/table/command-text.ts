import type { z } from 'zod'
import type { SelectedMemorySchema } from '../../fdr/index.js'
import type { KeyEventResult } from '../../key-events/index.js'
import { formatTrustScore } from '../../trust/index.js'
import type { Follows } from '../follow-shapes.js'
import type { WitnessRequestResult } from '../network-shapes.js'
import { renderTrust } from '../render-text.js'
import type { DocumentReportSchema, FdrReportSchema, IngestResultSchema, KeyInfoSchema, QueryPageSchema } from '../response-shapes.js'

/* The words the CLI prints for an operation's output (its spec's `cli.render`); --json prints the output itself. */

/** One agent key on one line: did, label, and whether it is the default and encrypted. */
export function keyLine (key: z.output<typeof KeyInfoSchema>): string {
  const flags = [key.default ? 'default' : '', key.encrypted ? 'encrypted' : ''].filter((f) => f !== '').join(', ')
  return `${key.did}  ${key.label ?? ''}${flags === '' ? '' : `  (${flags})`}`
}

export function keyLines (key: z.output<typeof KeyInfoSchema>): string {
  return [
    `did:       ${key.did}`,
    `label:     ${key.label ?? '-'}`,
    `created:   ${key.created_at}`,
    `default:   ${key.default ? 'yes' : 'no'}`,
    `encrypted: ${key.encrypted ? 'yes' : 'no'}`,
    `file:      ${key.file}`
  ].join('\n')
}

export function keyEventLines (result: KeyEventResult): string {
  return [
    ...(result.incepted ? [`identity ${result.identity}: key log started (the next rotation will reveal its committed key)`] : []),
    `${result.type} ${result.event} of ${result.identity}`,
    `key:         ${result.key}`,
    `current key: ${result.current_key ?? '(none: the log is closed)'}`,
    `events:      ${result.events}`
  ].join('\n')
}

export function followLines (result: Follows): string {
  const lines = result.follows.length === 0
    ? ['following nothing besides this node\'s own agents']
    : result.follows.map((f) => 'did' in f ? `author ${f.did}  since ${f.since}` : `tag    ${f.tag}  since ${f.since}`)
  const { gossip } = result
  if (gossip !== undefined) {
    lines.push(`gossip: shard count ${gossip.count}, home shards ${gossip.shards.join(', ') || 'none'}`)
    for (const did of gossip.by_sync) lines.push(`  ${did} is beyond max-shards: its records come by sync, not gossip`)
  }
  return lines.join('\n')
}

export function witnessRequestLines (result: WitnessRequestResult): string {
  const { record } = result
  const lines = [
    `witness request ${result.id}`,
    `  memory    ${record.memory}`,
    `  requester ${record.requester}`,
    `  to        ${record.witnesses === undefined ? 'anyone (open request)' : record.witnesses.join('\n            ')}`
  ]
  if (record.expires_at !== undefined) lines.push(`  expires   ${record.expires_at}`)
  return lines.join('\n')
}

export function queryPageLines (page: z.output<typeof QueryPageSchema>): string {
  if (page.items.length === 0) return 'no memories match'
  const lines = page.items.map((m) =>
    `${formatTrustScore(m.trust)} ${m.level.padEnd(10)} ${m.id}  [${m.type}] ${m.summary}${m.tags.length === 0 ? '' : `  #${m.tags.join(' #')}`}`)
  if (page.next !== undefined) lines.push(`more: --cursor ${page.next}`)
  return lines.join('\n')
}

export function selectionLines (selected: ReadonlyArray<z.output<typeof SelectedMemorySchema>>): string {
  if (selected.length === 0) return 'no memories selected'
  return selected.map((s) => [
    `${formatTrustScore(s.confidence)} ${s.verified ? 'verified' : 'UNVERIFIED'} ${s.ref.worldId}` +
      (s.evidence === undefined ? '' : `  (${s.evidence.method} by ${s.evidence.verifiedBy} at ${new Date(s.evidence.verifiedAt).toISOString()})`),
    `    ${s.reason}`
  ].join('\n')).join('\n')
}

export function ingestLine (result: z.output<typeof IngestResultSchema>): string {
  return `imported ${result.stored.length} new records (${result.duplicates.length} already present), rescored ${result.rescored.length} memories`
}

/** `valid …` or `INVALID …`, with a line per record (per selected memory) and its reason when it failed. */
export function reportLines (report: z.output<typeof DocumentReportSchema> | z.output<typeof FdrReportSchema>): string {
  if (!('records' in report)) return fdrReportLines(report)
  const lines = [`${report.valid ? 'valid' : 'INVALID'} ${report.document} (${report.records.length} records)`]
  for (const r of report.records) {
    lines.push(`  ${r.valid ? 'ok  ' : 'FAIL'} ${r.kind.padEnd(15)} ${r.id ?? '(no id)'}${r.valid ? '' : `\n       ${r.code}: ${r.reason}`}`)
  }
  if (report.trust !== undefined) lines.push('', renderTrust(report.trust))
  return lines.join('\n')
}

function fdrReportLines (report: z.output<typeof FdrReportSchema>): string {
  if (report.proof !== undefined) {
    return `${report.valid ? 'valid' : 'INVALID'} fdr-proof${report.valid ? '' : `\n  ${report.proof.code ?? ''}: ${report.proof.reason ?? ''}`}`
  }
  const verdicts = report.verdicts ?? []
  const lines = [`${report.valid ? 'valid' : 'INVALID'} fdr-selection (${verdicts.length} selected)`]
  for (const v of verdicts) {
    lines.push(`  ${v.accepted ? 'ok  ' : 'FAIL'} ${v.worldId ?? '(unreadable)'}${v.accepted ? '' : `\n       ${v.code ?? ''}: ${v.reason ?? ''}`}`)
  }
  return lines.join('\n')
}
