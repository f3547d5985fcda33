import type { AttestationRecord } from '../../schema/index.js'
import { SCHEMA_TRUST_POLICY, type KeyIdentities } from '../../trust/index.js'
import { MAX_QUERY_LIMIT, type RecordStore, type StoredRecord } from '../../record-index/index.js'
import {
  computeReputation, reputationFor, type MemoryAttestations, type PageRankOptions, type ReputationTable, type StoredAttestation, type TrustRoot
} from '../../reputation/index.js'
import { IsnadError } from '../../errors/index.js'
import { storedDrawFraction } from './memory-evidence.js'
import { changeTrustRoot, readTrustRoots } from './trust-roots-file.js'

export interface ReputationServiceInit {
  dataDir: string
  store: RecordStore
  clock: () => number
  pageRank?: PageRankOptions
  /**
   * The node's own agents (the DIDs of its keystore): roots without configuration (docs/trust.md §2),
   * beside those the operator added. Read once.
   */
  ownAgents?: () => Promise<readonly string[]>
  /**
   * The shard count the node's operator set (OpenLocalNodeOptions.shardCount): the graph judges drawn
   * witnesses' stated counts by it (witness-draw-v1 W12). @default from the graph's estimate (shardCountFor)
   */
  shardCount?: number
}

/**
 * @default 60_000 — how old a reputation table the scores stored at ingest may use on a large graph.
 * `show`, `explain` and `--select` always use the current one; see docs/trust.md §Stored scores.
 */
export const INGEST_REPUTATION_MAX_AGE_MS = 60_000

/**
 * @default 5_000 — attestations up to which ingest scores with the current table, the batch's own
 * votes counted: a node's stored scores are then the ones `explain` gives and a reindex rebuilds.
 * The table is computed per ingested batch that carries attestations; at figure 10's ≈ 2.6 s per 1M
 * attestations (quiet, by ratio) 5,000 cost ≈ 15 ms a batch, so a gossiping node stays responsive.
 */
export const INGEST_FRESH_REPUTATION_MAX_VOTES = 5_000

/** One stored memory's author and its attestations by id. */
interface MemoryVotes {
  author: string
  attestations: Map<string, StoredAttestation>
}

/**
 * A node's reputation table, kept current (docs/trust.md §3). The attestations are loaded from the store
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

  /**
   * Every root the reputation walks from, as `trust root list` shows them (docs/trust.md §2): the
   * node's own agents first (roots without configuration), then the roots the operator added, oldest
   * first. An own agent the operator also added is listed once, as an own agent.
   */
  async trustRoots (): Promise<TrustRoot[]> {
    const own = await this.ownAgents()
    const ownSet = new Set(own)
    const added = await this.addedRoots()
    const addedAt = new Map(added.map((r) => [r.did, r.added_at]))
    return [
      ...own.map((did): TrustRoot => {
        const at = addedAt.get(did)
        return at === undefined ? { did, source: 'own-agent' } : { did, source: 'own-agent', added_at: at }
      }),
      ...added.filter((r) => !ownSet.has(r.did))
    ]
  }

  /** The roots the operator added (the roots file). */
  private async addedRoots (): Promise<TrustRoot[]> {
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
    return [...new Set([...(await this.addedRoots()).map((r) => r.did), ...(await this.ownAgents())])].sort()
  }

  /** Adds an operator root; returns every root after the change (trustRoots). */
  async addTrustRoot (did: string): Promise<TrustRoot[]> {
    if ((await this.ownAgents()).includes(did)) throw new IsnadError('ALREADY_EXISTS', `${did} is already a trust root: it is one of this node's own agents`, { details: { did } })
    this.roots = await changeTrustRoot(this.init.dataDir, 'added', did, this.init.clock())
    this.invalidate()
    return await this.trustRoots()
  }

  /** Removes an operator root (an own agent stays a root while its key is in the keystore); returns every root after. */
  async removeTrustRoot (did: string): Promise<TrustRoot[]> {
    if ((await this.ownAgents()).includes(did) && !(await this.addedRoots()).some((r) => r.did === did)) {
      throw new IsnadError('USAGE', `${did} is one of this node's own agents: a trust root while its key is in the keystore, not one the operator can remove`, { details: { did } })
    }
    this.roots = await changeTrustRoot(this.init.dataDir, 'removed', did, this.init.clock())
    this.invalidate()
    return await this.trustRoots()
  }

  /**
   * Told of records newly stored (the journal's listener), so no reload is needed. A reload that ran
   * after the records were stored and before this (a view round or the next batch read the table
   * meanwhile) already holds their memories and attestations: those are not counted again, else the
   * count would pass the store's and the next read would reload everything once more.
   */
  observe (records: readonly StoredRecord[]): void {
    const memories = this.memories
    if (memories === undefined) return
    let seen = 0
    for (const { id, signed } of records) {
      if (signed.record.kind !== 'memory') continue
      if (memories.has(id)) seen++
      else memories.set(id, { author: signed.record.author.agent_id, attestations: new Map() })
    }
    for (const { id, signed } of records) {
      if (signed.record.kind !== 'attestation') continue
      if (memories.get(signed.record.memory)?.attestations.has(id) === true || this.orphans.has(id)) seen++
      else this.orphans.set(id, { id, signed: { record: signed.record, signature: signed.signature } })
    }
    this.adoptOrphans()
    this.seenTotal += records.length - seen
    this.table = undefined
    this.about = undefined
  }

  private about: Map<string, number> | undefined

  /**
   * How many attestations the service holds that touch `did`: given by it, or about one of its
   * memories. What its reputation here is computed from (docs/trust.md §3a); 0 before the first load.
   */
  recordsAbout (did: string): number {
    if (this.about === undefined) {
      const about = new Map<string, number>()
      for (const { author, attestations } of this.memories?.values() ?? []) {
        if (attestations.size > 0) about.set(author, (about.get(author) ?? 0) + attestations.size)
        for (const { record } of attestations.values()) about.set(record.witness, (about.get(record.witness) ?? 0) + 1)
      }
      this.about = about
    }
    return this.about.get(did) ?? 0
  }

  /** The last table computed, however old (NodeTrust.populationEstimate reads its graph); undefined before the first. */
  lastTable (): ReputationTable | undefined {
    return this.last?.table
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
  async recent (identities?: KeyIdentities, pending: readonly StoredRecord[] = []): Promise<ReputationTable> {
    const table = await this.current(identities, false)
    if (this.attestationCount() + pending.length <= INGEST_FRESH_REPUTATION_MAX_VOTES) {
      const votes = pendingVotes(this.memories, pending)
      if (votes === undefined) return await this.current(identities)
      return this.tableOf(votingMemories(this.memories, votes), await this.rootDids(), identities)
    }
    if (this.last !== undefined && this.init.clock() - this.last.at < INGEST_REPUTATION_MAX_AGE_MS) return this.last.table
    return table ?? await this.current(identities)
  }

  /** The table of the one scoring entry point (src/reputation reputationFor); the service has roots. */
  private tableOf (memories: Iterable<MemoryAttestations>, roots: readonly string[], identities?: KeyIdentities): ReputationTable {
    const spec = {
      policy: SCHEMA_TRUST_POLICY,
      roots,
      ...(identities === undefined ? {} : { identities }),
      ...(this.init.pageRank === undefined ? {} : { pageRank: this.init.pageRank }),
      ...(this.init.shardCount === undefined ? {} : { shardCount: this.init.shardCount })
    }
    return reputationFor(memories, spec) ?? computeReputation([], [], this.init.pageRank)
  }

  /** Attestations the service holds, over every memory. */
  private attestationCount (): number {
    let n = 0
    for (const memory of this.memories?.values() ?? []) n += memory.attestations.size
    return n
  }

  /**
   * The current table: cached until records, roots or key events change. With `identities` the
   * graph's nodes are identities (src/trust KeyIdentities; always the node's keyring's adapter).
   */
  async current (identities?: KeyIdentities): Promise<ReputationTable>
  async current (identities: KeyIdentities | undefined, compute: false): Promise<ReputationTable | undefined>
  async current (identities?: KeyIdentities, compute = true): Promise<ReputationTable | undefined> {
    const total = Object.values(await this.init.store.count()).reduce((sum, n) => sum + n, 0)
    if (this.memories === undefined || total !== this.seenTotal) await this.reload(total)
    if (this.table === undefined && compute) {
      const roots = await this.rootDids()
      this.table = this.tableOf(votingMemories(this.memories), roots, identities)
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
          attestations: new Map(attestations.map((a) => [a.id, storedVote(a.id, a.signed.record)]))
        })
      }))
      cursor = page.next
    } while (cursor !== undefined)
    this.memories = memories
    this.about = undefined
    this.orphans.clear()
    this.seenTotal = total
    this.table = undefined
  }

  private adoptOrphans (): void {
    for (const [id, a] of this.orphans) {
      const memory = this.memories?.get(a.signed.record.memory)
      if (memory === undefined) continue
      memory.attestations.set(id, storedVote(id, a.signed.record))
      this.orphans.delete(id)
    }
  }
}

/** The service's memories as collectVotes reads them, without copying any list. */
function * votingMemories (memories: ReadonlyMap<string, MemoryVotes> | undefined, pending?: PendingVotes): Generator<MemoryAttestations> {
  for (const [id, memory] of memories ?? []) {
    const { author, attestations } = pending?.changed.get(id) ?? memory
    yield { author, attestations: attestations.values() }
  }
  for (const { author, attestations } of pending?.added.values() ?? []) yield { author, attestations: attestations.values() }
}

/**
 * A batch's records not stored yet laid over the service's memories: the stored memories they add
 * attestations to (copied, the copies holding them) and the memories they add, in the batch's order.
 * votingMemories reads the stored ones in their order with the copies in their places, then the new
 * ones: the order a merged copy of the whole map would give, without copying it at every batch.
 */
interface PendingVotes {
  changed: Map<string, MemoryVotes>
  added: Map<string, MemoryVotes>
}

/** The votes a batch adds (see PendingVotes); undefined when it adds none. */
function pendingVotes (memories: ReadonlyMap<string, MemoryVotes> | undefined, pending: readonly StoredRecord[]): PendingVotes | undefined {
  if (!pending.some(({ signed }) => signed.record.kind === 'attestation')) return undefined
  const votes: PendingVotes = { changed: new Map(), added: new Map() }
  for (const { id, signed } of pending) {
    if (signed.record.kind === 'memory' && memories?.has(id) !== true && !votes.added.has(id)) votes.added.set(id, { author: signed.record.author.agent_id, attestations: new Map() })
  }
  for (const { id, signed } of pending) {
    const { record } = signed
    if (record.kind !== 'attestation') continue
    const stored = memories?.get(record.memory)
    const memory = stored === undefined ? votes.added.get(record.memory) : votes.changed.get(record.memory) ?? stored
    if (memory === undefined || memory.attestations.has(id)) continue
    const copy = memory === stored ? { author: memory.author, attestations: new Map(memory.attestations) } : memory
    copy.attestations.set(id, storedVote(id, record))
    if (stored !== undefined) votes.changed.set(record.memory, copy)
  }
  return votes
}

/**
 * An attestation as the reputation graph reads it, its draw's fraction read once here (its proof was
 * verified before it was stored, record-v1 R19): the graph is rebuilt over every stored attestation,
 * and would otherwise hash each proof again at every rebuild.
 */
function storedVote (id: string, record: AttestationRecord): StoredAttestation {
  let fraction: number | undefined
  try {
    fraction = storedDrawFraction(id, record)
  } catch {
    // A proof that does not decode: collectVotes counts it as no draw.
  }
  return fraction === undefined ? { id, record } : { id, record, drawFraction: fraction }
}
