import { BoundedMap } from '../../collections/index.js'
import type { AgentEvidence } from '../../schema/index.js'
import { EVIDENCE_FETCH } from './evidence-needs.js'

/*
 * What a node asked of its peers for the evidence its reputation needs, and what came back
 * (docs/trust.md §3a): per agent, when it was asked, whether the fetch is running, and when the
 * last one ended with how many records. Kept in memory for at most EVIDENCE_FETCH.maxTracked agents
 * (a restarted node asks again: its sync cursors per interest resume where they were).
 */

interface AgentFetch {
  askedAt: number
  running: boolean
  fetchedAt?: number
  fetched?: number
}

export class EvidenceLedger {
  /** Per agent, its last fetch; the agent asked for longest ago is forgotten first. */
  private readonly agents: BoundedMap<string, AgentFetch>
  /** Agents a score read lately, newest last: what the next round asks for first. */
  private readonly scored: BoundedMap<string, true>

  constructor (max: number = EVIDENCE_FETCH.maxTracked) {
    this.agents = new BoundedMap(max)
    this.scored = new BoundedMap(max)
  }

  /** Notes agents a score read (its author and witnesses) whose shard the node does not hold. */
  noteScored (dids: Iterable<string>): void {
    for (const did of dids) this.scored.set(did, true)
  }

  /** The agents scores read lately, newest first. */
  recentlyScored (): string[] {
    return [...this.scored.keys()].reverse()
  }

  lastAsked (did: string): number | undefined {
    return this.agents.get(did)?.askedAt
  }

  /** A fetch for `dids` starts at `at`. */
  asked (dids: readonly string[], at: number): void {
    for (const did of dids) {
      this.agents.set(did, { ...this.agents.get(did), askedAt: at, running: true })
      this.scored.delete(did)
    }
  }

  /** The fetch for `did` ended at `at`, having brought `fetched` records about it. */
  done (did: string, at: number, fetched: number): void {
    const entry = this.agents.get(did)
    if (entry === undefined) return
    entry.running = false
    entry.fetchedAt = at
    entry.fetched = fetched
  }

  /** The agents asked for within `refreshMs` of `now`: the author interests a sync run names (sync-v1 §9). */
  authors (now: number, refreshMs: number = EVIDENCE_FETCH.refreshMs): string[] {
    const out: string[] = []
    for (const [did, entry] of this.agents) if (now - entry.askedAt < refreshMs) out.push(did)
    return out
  }

  /** What the explanation says of an agent whose shard is not held, with `held` records about it. */
  evidenceOf (did: string, held: number, iso: (ms: number) => string): AgentEvidence {
    const entry = this.agents.get(did)
    if (entry === undefined) return { agent: did, held, state: 'missing' }
    if (entry.running || entry.fetchedAt === undefined) return { agent: did, held, state: 'fetching' }
    return { agent: did, held, state: 'fetched', fetched_at: iso(entry.fetchedAt), fetched: entry.fetched ?? 0 }
  }
}
