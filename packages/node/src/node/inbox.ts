import type { DrawScope } from '../draw/index.js'
import type { ContentType, WitnessRequestRecord } from '../schema/index.js'
import type { RecordStore } from '../record-index/index.js'

/*
 * The inbox (gossip-v1 §4, §10): witness requests waiting for this node's agents, read from the journal's
 * list of stored requests and the store, and the memories the witness draw chose them for
 * (DrawnInbox, kept by a running daemon).
 */

/** A witness request, or a witness draw, waiting in local agents' inboxes (the API's InboxItem shape). */
export interface InboxEntry {
  /** The witness request's id; absent on a drawn entry (nobody asked: the draw chose the agents). */
  request?: string
  memory: string
  /** Who asked; on a drawn entry, the memory's author. */
  requester: string
  /** The addressed (or drawn) local agents still to answer; empty for an open request. */
  to: string[]
  /** Present and true when the witness draw chose `to` for this memory (protocols/witness-draw-v1.md). */
  drawn?: true
  created_at: string
  expires_at?: string
  type?: ContentType
  summary?: string
}

/**
 * Every request of `requests` that makes an inbox item for the local agents, and every drawn entry
 * of `drawn` still to answer, oldest first; requests the witness budget skipped are left out.
 */
export async function readInbox (
  requests: AsyncIterable<{ id: string, record: WitnessRequestRecord }>, store: RecordStore, now: number, localAgents: readonly string[], drawn?: DrawnInbox
): Promise<InboxEntry[]> {
  const items: InboxEntry[] = []
  for await (const { id, record } of requests) {
    if (drawn?.isSkipped(id) === true) continue
    const item = await inboxEntryOf(id, record, store, now, localAgents)
    if (item !== null) items.push(item)
  }
  if (drawn !== undefined) {
    // An agent both asked and drawn about a memory answers once: the request's item stands for both
    // (its attestation carries the draw all the same, LocalNode.attest).
    const asked = new Set(items.flatMap((i) => (i.to.length > 0 ? i.to : localAgents).map((did) => `${i.memory} ${did}`)))
    for (const entry of await drawn.entries(store, localAgents)) {
      const to = entry.to.filter((did) => !asked.has(`${entry.memory} ${did}`))
      if (to.length > 0) items.push({ ...entry, to })
    }
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

/** Drawn entries the inbox keeps, and requests skipped it remembers; the oldest are forgotten. @default 4096 */
export const DRAWN_INBOX_SIZE = 4096

interface Drawn {
  memory: string
  author: string
  /** The drawn local agents and the scope (shards, population) each was drawn in. */
  agents: Map<string, DrawScope>
  created_at: string
}

/**
 * What the daemon's witness draw adds to the journal's inbox (protocols/witness-draw-v1.md): the
 * memories its agents were drawn for, with the population each was drawn with (the attestation
 * states it), and the strangers' requests the witness budget skipped (left out of the inbox). Held
 * in memory, bounded: a restarted daemon starts empty (a drawn agent can still answer: the attest
 * path draws again).
 */
export class DrawnInbox {
  private readonly drawn = new Map<string, Drawn>()
  private readonly skipped = new Set<string>()

  constructor (private readonly size = DRAWN_INBOX_SIZE) {}

  /** Agent `did` was drawn for `memory` in `scope` at `createdAt` (ISO). */
  add (memory: string, author: string, did: string, scope: DrawScope, createdAt: string): void {
    const entry = this.drawn.get(memory) ?? { memory, author, agents: new Map<string, DrawScope>(), created_at: createdAt }
    entry.agents.set(did, scope)
    this.drawn.set(memory, entry)
    while (this.drawn.size > this.size) this.drawn.delete(this.drawn.keys().next().value as string)
  }

  /** The scope `did` was drawn in for `memory`, when it was drawn here. */
  scopeOf (memory: string, did: string): DrawScope | undefined {
    return this.drawn.get(memory)?.agents.get(did)
  }

  /** A witness request the budget skipped: no inbox item. */
  skip (requestId: string): void {
    this.skipped.add(requestId)
    while (this.skipped.size > this.size) this.skipped.delete(this.skipped.values().next().value as string)
  }

  isSkipped (requestId: string): boolean { return this.skipped.has(requestId) }

  /** The drawn entry of `memory` for the local agents, without the agents that answered; null when none is left. */
  async entry (memory: string, store: RecordStore, localAgents: readonly string[]): Promise<InboxEntry | null> {
    const drawn = this.drawn.get(memory)
    if (drawn === undefined) return null
    const answered = new Set((await store.attestationsFor(memory)).map((a) => a.signed.record.witness))
    const open = [...drawn.agents.keys()].filter((did) => !answered.has(did))
    if (open.length === 0) { this.drawn.delete(memory); return null } // every drawn agent answered: done
    const to = open.filter((did) => localAgents.includes(did))
    if (to.length === 0) return null
    const stored = await store.getMemory(memory)
    return {
      memory,
      requester: drawn.author,
      to,
      drawn: true,
      created_at: drawn.created_at,
      ...(stored === null ? {} : { type: stored.signed.record.content.type, summary: stored.signed.record.content.summary })
    }
  }

  /** Every drawn entry still to answer by the local agents. */
  async entries (store: RecordStore, localAgents: readonly string[]): Promise<InboxEntry[]> {
    const items: InboxEntry[] = []
    for (const memory of this.drawn.keys()) {
      const item = await this.entry(memory, store, localAgents)
      if (item !== null) items.push(item)
    }
    return items
  }
}
