import type { ContentType, WitnessRequestRecord } from '../schema/index.js'
import type { RecordStore } from '../store/index.js'

/*
 * The inbox (DESIGN §3, issue 4): witness requests waiting for this node's agents, read from the
 * journal's list of stored requests and the store. Split out of LocalNode (issue 21).
 */

/** A witness request waiting in local agents' inboxes (the API's InboxItem shape). */
export interface InboxEntry {
  request: string
  memory: string
  requester: string
  /** The addressed local agents still to answer; empty for an open request. */
  to: string[]
  created_at: string
  expires_at?: string
  type?: ContentType
  summary?: string
}

/** Every request of `requests` that makes an inbox item for the local agents, oldest first. */
export async function readInbox (
  requests: AsyncIterable<{ id: string, record: WitnessRequestRecord }>, store: RecordStore, now: number, localAgents: readonly string[]
): Promise<InboxEntry[]> {
  const items: InboxEntry[] = []
  for await (const { id, record } of requests) {
    const item = await inboxEntryOf(id, record, store, now, localAgents)
    if (item !== null) items.push(item)
  }
  return items.sort((a, b) => a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : 0)
}

/** The inbox item one stored witness request makes for the local agents, or null when it makes none. */
export async function inboxItemOf (requestId: string, store: RecordStore, now: number, localAgents: readonly string[]): Promise<InboxEntry | null> {
  const request = await store.get(requestId)
  if (request === null || request.signed.record.kind !== 'witness_request') return null
  return await inboxEntryOf(requestId, request.signed.record, store, now, localAgents)
}

/**
 * Addressed to local agents (or open, then to every local agent but the requester and the author),
 * not expired at `now` (ms), and not yet answered by them; else null.
 */
async function inboxEntryOf (id: string, record: WitnessRequestRecord, store: RecordStore, now: number, localAgents: readonly string[]): Promise<InboxEntry | null> {
  if (record.expires_at !== undefined && Date.parse(record.expires_at) <= now) return null
  const memory = await store.getMemory(record.memory)
  const addressed = record.witnesses ?? []
  let targets = addressed.length > 0
    ? addressed.filter((did) => localAgents.includes(did))
    : localAgents.filter((did) => did !== record.requester && did !== memory?.signed.record.author.agent_id)
  if (targets.length === 0) return null
  const answered = new Set((await store.attestationsFor(record.memory)).map((a) => a.signed.record.witness))
  targets = targets.filter((did) => !answered.has(did))
  if (targets.length === 0) return null
  return {
    request: id,
    memory: record.memory,
    requester: record.requester,
    to: addressed.length > 0 ? targets : [],
    created_at: record.created_at,
    ...(record.expires_at === undefined ? {} : { expires_at: record.expires_at }),
    ...(memory === null ? {} : { type: memory.signed.record.content.type, summary: memory.signed.record.content.summary })
  }
}
