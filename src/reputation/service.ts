import type { AttestationRecord } from '../schema/index.js'
import { MAX_QUERY_LIMIT, type RecordStore, type StoredRecord } from '../store/index.js'
import type { PageRankOptions } from './pagerank.js'
import { computeReputation, type ReputationTable } from './reputation.js'
import { changeTrustRoot, readTrustRoots, type TrustRoot } from './roots-file.js'
import { votesOf, type StoredVote } from './votes.js'

export interface ReputationServiceInit {
  dataDir: string
  store: RecordStore
  clock: () => number
  pageRank?: PageRankOptions
}

/**
 * A node's reputation table, kept current (DESIGN §2). The votes are loaded from the store once,
 * then maintained incrementally from the records the node stores (`observe`); the PageRank itself
 * is recomputed when votes or roots changed, which takes well under a second for a node's graph
 * (bench/reputation.ts: 1M attestations in a few seconds). Whenever the store holds records this
 * service was not told about (another writer, a reindex), it reloads from the store.
 */
export class ReputationService {
  private votes: Map<string, StoredVote> | undefined
  /** Attestations observed before their memory: kept until the memory's author is known. */
  private orphans = new Map<string, StoredRecord<AttestationRecord>>()
  private seenTotal = -1
  private roots: TrustRoot[] | undefined
  private table: ReputationTable | undefined

  constructor (private readonly init: ReputationServiceInit) {}

  async trustRoots (): Promise<TrustRoot[]> {
    this.roots ??= await readTrustRoots(this.init.dataDir)
    return this.roots
  }

  async addTrustRoot (did: string): Promise<TrustRoot[]> {
    this.roots = await changeTrustRoot(this.init.dataDir, 'added', did, this.init.clock())
    this.table = undefined
    return this.roots
  }

  async removeTrustRoot (did: string): Promise<TrustRoot[]> {
    this.roots = await changeTrustRoot(this.init.dataDir, 'removed', did, this.init.clock())
    this.table = undefined
    return this.roots
  }

  /** Told of records newly stored (the journal's listener), so no reload is needed. */
  observe (records: readonly StoredRecord[]): void {
    if (this.votes === undefined) return
    const authors = new Map<string, string>()
    for (const { id, signed } of records) {
      if (signed.record.kind === 'memory') authors.set(id, signed.record.author.agent_id)
    }
    for (const { id, signed } of records) {
      if (signed.record.kind !== 'attestation') continue
      this.orphans.set(id, { id, signed: { record: signed.record, signature: signed.signature } })
    }
    for (const [id, author] of authors) this.adopt(id, author)
    this.seenTotal += records.length
    this.table = undefined
  }

  /** The current table: cached until records or roots change. */
  async current (): Promise<ReputationTable> {
    const total = Object.values(await this.init.store.count()).reduce((sum, n) => sum + n, 0)
    if (this.votes === undefined || total !== this.seenTotal) await this.reload(total)
    else if (this.orphans.size > 0) await this.resolveOrphans()
    if (this.table === undefined) {
      const roots = (await this.trustRoots()).map((r) => r.did)
      this.table = computeReputation(votesOf(this.votes?.values() ?? []), roots, this.init.pageRank)
    }
    return this.table
  }

  private async reload (total: number): Promise<void> {
    const votes = new Map<string, StoredVote>()
    const { store } = this.init
    let cursor: string | undefined
    do {
      const page = await store.query({ limit: MAX_QUERY_LIMIT, ...(cursor === undefined ? {} : { cursor }) })
      await Promise.all(page.items.map(async ({ id }) => {
        const [memory, attestations] = await Promise.all([store.getMemory(id), store.attestationsFor(id)])
        if (memory === null) return
        for (const a of attestations) votes.set(a.id, { id: a.id, record: a.signed.record, author: memory.signed.record.author.agent_id })
      }))
      cursor = page.next
    } while (cursor !== undefined)
    this.votes = votes
    this.orphans.clear()
    this.seenTotal = total
    this.table = undefined
  }

  private async resolveOrphans (): Promise<void> {
    const memories = new Set([...this.orphans.values()].map((a) => a.signed.record.memory))
    for (const id of memories) {
      const memory = await this.init.store.getMemory(id)
      if (memory !== null) this.adopt(id, memory.signed.record.author.agent_id)
    }
  }

  private adopt (memoryId: string, author: string): void {
    for (const [id, a] of this.orphans) {
      if (a.signed.record.memory !== memoryId) continue
      this.votes?.set(id, { id, record: a.signed.record, author })
      this.orphans.delete(id)
    }
  }
}
