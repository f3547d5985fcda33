import type { AttestationRecord } from '../schema/index.js'
import type { KeyIdentities } from '../trust/index.js'
import { MAX_QUERY_LIMIT, type RecordStore, type StoredRecord } from '../store/index.js'
import {
  collectVotes, computeReputation, type MemoryAttestations, type PageRankOptions, type ReputationTable, type StoredAttestation, type TrustRoot
} from '../reputation/index.js'
import { changeTrustRoot, readTrustRoots } from './trust-roots-file.js'

export interface ReputationServiceInit {
  dataDir: string
  store: RecordStore
  clock: () => number
  pageRank?: PageRankOptions
  /**
   * The node's own agents (the DIDs of its keystore): roots without configuration (issue 18 item 3),
   * beside those the operator added. Read once.
   */
  ownAgents?: () => Promise<readonly string[]>
}

/**
 * @default 60_000 — how old a reputation table the scores stored at ingest may use. `show`,
 * `explain` and `--select` always use the current one; see docs/trust.md §Stored scores.
 */
export const INGEST_REPUTATION_MAX_AGE_MS = 60_000

/** One stored memory's author and its attestations by id. */
interface MemoryVotes {
  author: string
  attestations: Map<string, StoredAttestation>
}

/**
 * A node's reputation table, kept current (DESIGN §2). The attestations are loaded from the store
 * once, grouped by memory, then maintained incrementally from the records the node stores
 * (`observe`); the PageRank is recomputed when attestations or roots changed (bench/reputation.ts:
 * 1M attestations in a few seconds, a node's usual graph in milliseconds). Whenever the store holds
 * records this service was not told about (another writer, a reindex), it reloads from the store.
 */
export class ReputationService {
  private memories: Map<string, MemoryVotes> | undefined
  /** Attestations observed before their memory: kept until the memory's author is known. */
  private readonly orphans = new Map<string, StoredRecord<AttestationRecord>>()
  private seenTotal = -1
  private roots: TrustRoot[] | undefined
  private table: ReputationTable | undefined
  /** The last table computed and when (node clock): what ingest may score with (`recent`). */
  private last: { table: ReputationTable, at: number } | undefined

  constructor (private readonly init: ReputationServiceInit) {}

  async trustRoots (): Promise<TrustRoot[]> {
    this.roots ??= await readTrustRoots(this.init.dataDir)
    return this.roots
  }

  private own: readonly string[] | undefined

  /** The node's own agents, which are roots without being in the roots file. */
  async ownAgents (): Promise<readonly string[]> {
    this.own ??= this.init.ownAgents === undefined ? [] : await this.init.ownAgents()
    return this.own
  }

  /** Every root the reputation walks from: the operator's roots and the node's own agents. */
  async rootDids (): Promise<string[]> {
    return [...new Set([...(await this.trustRoots()).map((r) => r.did), ...(await this.ownAgents())])].sort()
  }

  async addTrustRoot (did: string): Promise<TrustRoot[]> {
    this.roots = await changeTrustRoot(this.init.dataDir, 'added', did, this.init.clock())
    this.invalidate()
    return this.roots
  }

  async removeTrustRoot (did: string): Promise<TrustRoot[]> {
    this.roots = await changeTrustRoot(this.init.dataDir, 'removed', did, this.init.clock())
    this.invalidate()
    return this.roots
  }

  /** Told of records newly stored (the journal's listener), so no reload is needed. */
  observe (records: readonly StoredRecord[]): void {
    if (this.memories === undefined) return
    for (const { id, signed } of records) {
      if (signed.record.kind === 'memory') this.memories.set(id, { author: signed.record.author.agent_id, attestations: new Map() })
    }
    for (const { id, signed } of records) {
      if (signed.record.kind === 'attestation') this.orphans.set(id, { id, signed: { record: signed.record, signature: signed.signature } })
    }
    this.adoptOrphans()
    this.seenTotal += records.length
    this.table = undefined
  }

  /** Drops the cached table (a key event changed which identity a key votes as, or when it could sign). */
  invalidate (): void {
    this.table = undefined
    this.last = undefined
  }

  /**
   * The table ingest scores with: the last one computed while it is younger than
   * INGEST_REPUTATION_MAX_AGE_MS and no root or key event changed since, else the current one. New
   * attestations alone do not force a PageRank per ingested batch (1M attestations: seconds).
   */
  async recent (identities?: KeyIdentities): Promise<ReputationTable> {
    if (this.last !== undefined && this.init.clock() - this.last.at < INGEST_REPUTATION_MAX_AGE_MS) return this.last.table
    return await this.current(identities)
  }

  /**
   * The current table: cached until records, roots or key events change. With `identities` the
   * graph's nodes are identities (src/trust KeyIdentities; always the node's keyring's adapter).
   */
  async current (identities?: KeyIdentities): Promise<ReputationTable> {
    const total = Object.values(await this.init.store.count()).reduce((sum, n) => sum + n, 0)
    if (this.memories === undefined || total !== this.seenTotal) await this.reload(total)
    if (this.table === undefined) {
      const roots = await this.rootDids()
      this.table = computeReputation(collectVotes(votingMemories(this.memories), identities), roots, this.init.pageRank)
      this.last = { table: this.table, at: this.init.clock() }
    }
    return this.table
  }

  private async reload (total: number): Promise<void> {
    const memories = new Map<string, MemoryVotes>()
    const { store } = this.init
    let cursor: string | undefined
    do {
      const page = await store.query({ limit: MAX_QUERY_LIMIT, ...(cursor === undefined ? {} : { cursor }) })
      await Promise.all(page.items.map(async ({ id }) => {
        const [memory, attestations] = await Promise.all([store.getMemory(id), store.attestationsFor(id)])
        if (memory === null) return
        memories.set(id, {
          author: memory.signed.record.author.agent_id,
          attestations: new Map(attestations.map((a) => [a.id, { id: a.id, record: a.signed.record }]))
        })
      }))
      cursor = page.next
    } while (cursor !== undefined)
    this.memories = memories
    this.orphans.clear()
    this.seenTotal = total
    this.table = undefined
  }

  private adoptOrphans (): void {
    for (const [id, a] of this.orphans) {
      const memory = this.memories?.get(a.signed.record.memory)
      if (memory === undefined) continue
      memory.attestations.set(id, { id, record: a.signed.record })
      this.orphans.delete(id)
    }
  }
}

/** The service's memories as collectVotes reads them, without copying any list. */
function * votingMemories (memories: ReadonlyMap<string, MemoryVotes> | undefined): Generator<MemoryAttestations> {
  for (const { author, attestations } of memories?.values() ?? []) yield { author, attestations: attestations.values() }
}
