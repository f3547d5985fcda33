import { isIsoTimestamp } from '../../schema/index.js'
import { MAX_DECISION_KEY_LENGTH, TAG_PREFIXES } from './constants.js'

/**
 * Structured tags: how an author says, inside its signed memory, what the view's optional fields are
 * (Memory Format Spec V3.1 §6). Tags have no whitespace (record-v1 R3), hence `key:<k>`,
 * `due:YYYY-MM-DD`, `project:<name>`, `assume:<text>`. The first valid tag of a kind wins (tags keep
 * the author's order); an empty value or an impossible date is ignored, never an error.
 */
export interface TagFields {
  decisionKey?: string
  dueAt?: string
  project?: string
  assumptions: string[]
}

const CALENDAR_DATE = /^\d{4}-\d{2}-\d{2}$/

export function readTagFields (tags: readonly string[]): TagFields {
  const fields: TagFields = { assumptions: [] }
  for (const tag of tags) {
    const key = valueOf(tag, TAG_PREFIXES.decisionKey)
    if (key !== undefined && fields.decisionKey === undefined) fields.decisionKey = key
    const due = valueOf(tag, TAG_PREFIXES.due)
    if (due !== undefined && fields.dueAt === undefined && isCalendarDate(due)) fields.dueAt = due
    const project = valueOf(tag, TAG_PREFIXES.project)
    if (project !== undefined && fields.project === undefined) fields.project = project
    const assumption = valueOf(tag, TAG_PREFIXES.assumption)
    if (assumption !== undefined && !fields.assumptions.includes(assumption)) fields.assumptions.push(assumption)
  }
  return fields
}

function valueOf (tag: string, prefix: string): string | undefined {
  if (!tag.startsWith(prefix)) return undefined
  const value = tag.slice(prefix.length)
  return value === '' ? undefined : value
}

/** A real `YYYY-MM-DD` date (spec §7); 2026-02-30 is not one. */
export function isCalendarDate (value: string): boolean {
  return CALENDAR_DATE.test(value) && isIsoTimestamp(`${value}T00:00:00Z`)
}

/**
 * A decision key from a summary: lower case, accents removed, runs of anything but letters and digits
 * (any script) turned into `-`, at most MAX_DECISION_KEY_LENGTH characters. Empty when the summary has
 * no letter or digit; the caller then falls back on the object id.
 */
export function slugOf (summary: string): string {
  const slug = summary.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-').replace(/^-+|-+$/g, '')
  // Cut by code points, not UTF-16 units, so no lone surrogate is left at the end.
  return Array.from(slug).slice(0, MAX_DECISION_KEY_LENGTH).join('').replace(/-+$/, '')
}

/** `YYYY-MM-DD` of `timestamp` + `days` (UTC), or undefined past year 9999 (spec §7 dates have 4 digits). */
export function addDays (timestamp: string, days: number): string | undefined {
  const ms = Date.parse(timestamp) + days * 86_400_000
  if (!Number.isFinite(ms)) return undefined
  const date = new Date(ms).toISOString().slice(0, 10)
  return CALENDAR_DATE.test(date) ? date : undefined
}
