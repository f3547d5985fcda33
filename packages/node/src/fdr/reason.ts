import type { MemoryRecord, TrustResult } from '../schema/index.js'
import type { SelectionRequest, World } from './types.js'

/** Every word occurs in the summary, the body or a tag (case-insensitive). */
export function matchesText (record: MemoryRecord, words: readonly string[]): boolean {
  if (words.length === 0) return true
  const text = `${record.content.summary}\n${record.content.body}\n${record.content.tags.join(' ')}`.toLowerCase()
  return words.every((w) => text.includes(w))
}

/**
 * Why a memory was selected, for people and for the trace: what matched, its trust and what it rests
 * on, and that it is evidence, not instruction (M-1: memory is not truth).
 */
export function reasonOf (world: World, trust: TrustResult, request: SelectionRequest, proveError?: string): string {
  const { content } = world.memory.record
  const matched: string[] = []
  if (request.query !== undefined && request.query.trim() !== '') matched.push(`text "${request.query.trim()}"`)
  if (request.tags !== undefined && request.tags.length > 0) matched.push(`tags ${request.tags.map((t) => `#${t}`).join(' ')}`)
  if (request.author !== undefined) matched.push('author')
  if (request.type !== undefined) matched.push(`type ${content.type}`)
  const f = trust.factors
  const parts = [
    `${matched.length === 0 ? 'most trusted' : `matched ${matched.join(', ')}`}`,
    `trust ${trust.score} ${trust.level} under ${trust.policy} (${f.confirm_count} confirm, ${f.partial_count} partial, ` +
      `${f.dispute_count} dispute, ${f.anchor_count} anchor counted; ${trust.refused.attestations.length + trust.refused.anchors.length} refused)`
  ]
  if (world.memory.record.lineage.supersedes !== undefined) parts.push(`supersedes ${world.memory.record.lineage.supersedes}`)
  if (proveError !== undefined) parts.push(`not verified: ${proveError}`)
  parts.push('a memory is evidence, not truth')
  return parts.join('; ')
}
