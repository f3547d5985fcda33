import { mkdir, stat } from 'node:fs/promises'
import { prepareAnchorClaim, type AddAnchorInput, type AnchorCheck } from '../anchor/index.js'
import { IsnadError } from '../errors/index.js'
import { NODE_RECORD_FAST_PATHS, nodeCryptoVerifier } from '../fast-crypto/index.js'
import { Keyring, keyEventsPath } from '../key-events/index.js'
import { signRecordVerified } from '../record/index.js'
import { homeNodeTrust, type NodeTrust } from './trust/node-trust.js'
import { rescoreOnKeyEvents } from './trust/key-event-rescore.js'
import { checkedShardCount, drawScopeOf, proveDraw } from '../draw/index.js'
import type {
  AnchorRecord, AttestationDraw, AttestationRecord, MemoryRecord, MemoryView, SignedRecord, WitnessRequestRecord
} from '../schema/index.js'
import { createLevelRecordStore, type MemoryQuery, type RecordStore, type StoredRecord } from '../record-index/index.js'
import type { TrustResult } from '../trust/index.js'
import { NodeAnchors } from './anchors/anchors.js'
import { scoreEvidence, viewOf } from './trust/memory-evidence.js'
import { IngestPipeline } from './pipeline/pipeline.js'
import type { IngestResult } from './pipeline/steps.js'
import { inboxItemOf, readInbox, type DrawnInbox, type InboxEntry } from './inbox.js'
import { Journal, type JournalBatch } from './journal/journal.js'
import { reindexHome, type ReindexOptions, type ReindexResult } from './reindex/reindex.js'
import { JournalState } from './journal/journal-state.js'
import type { RecordSource } from './journal/record-events.js'
import { loadLogSigner } from './home/log-key.js'
import { DEFAULT_SCOPE, followsPath, journalIndexPath, nodePaths, recordIndexPath, type NodePaths } from '../home/index.js'
import { FollowStore } from './follows.js'
import { queryPage, type QueryResultItem } from './records/query-page.js'
import { DEFAULT_CONFIDENCE, type AnchorResult, type AttestInput, type AttestResult, type OpenLocalNodeOptions, type RememberInput, type Signer } from './local-inputs.js'
import { storedAnchors } from './anchors/anchor-sweep.js'
import { exportRecords } from './records/record-export.js'

// Kept with their readers; still exported from here.
export { DrawnInbox, DRAWN_INBOX_SIZE, type InboxEntry } from './inbox.js'
export type { QueryResultItem } from './records/query-page.js'
export { DEFAULT_CONFIDENCE, type AnchorResult, type AttestInput, type AttestResult, type OpenLocalNodeOptions, type RememberInput, type Signer } from './local-inputs.js'
export type { ReindexOptions } from './reindex/reindex.js'

/**
 * One agent's node without a network: records, signs, stores, scores and exports memories in a
 * node home (`.memory/` + `keys/`). The CLI and, later, the daemon's HTTP API are thin shells over it.
 */
export class LocalNode {
  readonly paths: NodePaths
  readonly store: RecordStore
  private readonly clock: () => number
  /** Present in write mode: the ledger every change goes through first. */
  private readonly openJournal: Journal | null
  /** The journal's derived state (Merkle log, inbox); the journal's own in write mode. */
  private readonly state: JournalState
  /** Blocks of anchored content and the anchors' verification states (anchors-v1). */
  readonly anchors: NodeAnchors
  /** The key logs this node knows (record-v1 §13); ingest refuses records of rotated or revoked keys. */
  keyring!: Keyring
  private nodeTrust: NodeTrust | undefined
  /** The shard count the operator set (OpenLocalNodeOptions.shardCount); undefined: the count follows N̂. */
  private setShardCount: number | undefined
  /** The daemon's witness draw's part of the inbox (useDrawnInbox); none without a daemon. */
  private drawnInbox: DrawnInbox | undefined
  /** The daemon's shard count (`--shard-count`, else its estimate's): an agent's draw is made under it; none without a daemon. */
  private drawShardCount: (() => number) | undefined
  /** Present in write mode: the one way records enter this node (src/node/pipeline). */
  private ingestPipeline: IngestPipeline<JournalBatch> | null = null

  private constructor (paths: NodePaths, store: RecordStore, clock: () => number, journal: Journal | null, state: JournalState, anchors: NodeAnchors) {
    this.paths = paths
    this.store = store
    this.clock = clock
    this.openJournal = journal
    this.state = state
    this.anchors = anchors
    anchors.useTrustSetting(async () => await this.trust.setting())
    journal?.views.useTrustSetting(async () => await this.trust.storedSetting()) // views carry the trust ingest stores
  }

  static async open (options: OpenLocalNodeOptions): Promise<LocalNode> {
    if (options.shardCount !== undefined) checkedShardCount(options.shardCount) // USAGE before anything opens
    const paths = nodePaths(options.home)
    await assertInitialized(paths)
    const store = options.store ?? createLevelRecordStore({ location: recordIndexPath(paths), dataDir: paths.data })
    const clock = options.clock ?? Date.now
    try {
      await store.open()
    } catch (err) {
      if (options.store !== undefined || !(err instanceof IsnadError && err.code === 'INDEX_OUTDATED')) throw err
      // The index is derived from the ledgers (docs/architecture.md, "The data directory"): one written by an older isnad is rebuilt
      // rather than refused, as `isnad ledger reindex` would (recorded as memory.reconciled).
      await reindex(options.home, clock, { scope: options.scope, shardCount: options.shardCount })
      return await LocalNode.open(options)
    }
    if (options.mode === 'read') {
      const state = await JournalState.open(journalIndexPath(paths)).catch(async (err: unknown) => { await store.close(); throw err })
      const anchors = await NodeAnchors.open(paths, { store, clock, journal: null }, options.anchors)
        .catch(async (err: unknown) => { await state.close(); await store.close(); throw err })
      return await new LocalNode(paths, store, clock, null, state, anchors).withKeyring(options)
    }
    try {
      const journal = await Journal.open({
        paths,
        scope: options.scope ?? DEFAULT_SCOPE,
        store,
        verifier: options.verifier ?? nodeCryptoVerifier,
        clock,
        logSigner: await loadLogSigner(paths)
      })
      const anchors = await NodeAnchors.open(paths, { store, clock, journal }, options.anchors)
        .catch(async (err: unknown) => { await journal.close(); throw err })
      return await new LocalNode(paths, store, clock, journal, journal.state, anchors).withKeyring(options)
    } catch (err) {
      await store.close()
      throw err
    }
  }

  /**
   * Opens the node's keyring and, in write mode, builds the ingest pipeline with its collaborators
   * (store, verifier, keyring for record-v1 K12, the node's trust setting, the journal), then lets
   * it apply what the ledger holds beyond the index after a crash, before anything else is written.
   */
  private async withKeyring (options: OpenLocalNodeOptions): Promise<this> {
    this.setShardCount = options.shardCount // before the pipeline below first scores with the trust setting
    try {
      this.keyring = await Keyring.open({
        file: keyEventsPath(this.paths.data), readOnly: options.mode === 'read', verifier: options.verifier ?? nodeCryptoVerifier, clock: this.clock
      })
      if (this.openJournal !== null) {
        const pipeline = new IngestPipeline<JournalBatch>({
          store: this.store,
          verifier: options.verifier ?? nodeCryptoVerifier,
          clock: this.clock,
          keys: this.keyring,
          trustSetting: async (pending) => await this.trust.storedSetting(pending), // the trust `query --min-trust` filters on
          // Votes kept current from what the node stores, without reloading the graph: told in the
          // batch's turn, so the next batch's score step never finds the store ahead of the service.
          votes: { observe: (records) => { this.nodeTrust?.reputation.observe(records) } },
          journal: this.openJournal
        })
        this.ingestPipeline = pipeline
        this.anchors.follow(pipeline)
        const pending = this.openJournal.pendingRecovery()
        if (pending !== null) await this.openJournal.recovered((await pipeline.recover(pending)).stored.length)
        // Every key event the keyring accepts (local or gossiped) rescores stored trust.
        this.keyEvents = rescoreOnKeyEvents({
          keyring: this.keyring, store: this.store, clock: this.clock,
          setting: async () => await this.trust.setting(), invalidate: () => { this.trust.reputation.invalidate() }
        })
      }
    } catch (err) {
      await this.close()
      throw err
    }
    return this
  }

  /** Rescoring stored trust when a key event arrives (docs/trust.md §1a); absent in read mode. */
  private keyEvents: { stop: () => Promise<void>, idle: () => Promise<void> } | undefined

  /** Resolves once stored scores reflect every key event so far. */
  async keyEventsSettled (): Promise<void> {
    await this.keyEvents?.idle()
  }

  /** The authors and tags the node follows (follows.ts), opened on first use and closed with the node. */
  async follows (): Promise<FollowStore> {
    this.followStore ??= FollowStore.open(followsPath(this.paths))
    return await this.followStore
  }

  private followStore: Promise<FollowStore> | undefined

  async close (): Promise<void> {
    try {
      await this.ingestPipeline?.close()
      await this.keyEvents?.stop()
      await this.followStore?.then(async (follows) => { await follows.close() }, () => {})
      await (this.keyring as Keyring | undefined)?.close()
      await this.anchors.close()
      if (this.openJournal === null) await this.state.close()
      else await this.openJournal.close()
    } finally {
      await this.store.close()
    }
  }

  /** The ingest pipeline of a node opened for writing; USAGE in read mode. */
  get pipeline (): IngestPipeline<JournalBatch> {
    if (this.ingestPipeline === null) throw new IsnadError('USAGE', 'this node was opened read-only')
    return this.ingestPipeline
  }

  /** The journal of a node opened for writing; USAGE in read mode. */
  get journal (): Journal {
    if (this.openJournal === null) throw new IsnadError('USAGE', 'this node was opened read-only')
    return this.openJournal
  }

  now (): string {
    return new Date(this.clock()).toISOString()
  }

  /** Creates, signs and stores a memory; returns its view (provenance schema shape). */
  async remember (input: RememberInput, signer: Signer): Promise<MemoryView> {
    if (input.supersedes !== undefined) await this.requireMemory(input.supersedes)
    const record: MemoryRecord = {
      kind: 'memory',
      version: 1,
      content: { type: input.type, summary: input.summary, body: input.body ?? input.summary, tags: [...new Set(input.tags ?? [])] },
      author: {
        agent_id: signer.did,
        ...(input.platform === undefined ? {} : { platform: input.platform }),
        ...(input.handle === undefined ? {} : { handle: input.handle })
      },
      created_at: this.now(),
      context: {
        ...(input.sessionId === undefined ? {} : { session_id: input.sessionId }),
        ...(input.trigger === undefined ? {} : { trigger: input.trigger }),
        confidence: input.confidence ?? DEFAULT_CONFIDENCE
      },
      lineage: {
        ...(input.supersedes === undefined ? {} : { supersedes: input.supersedes }),
        derived_from: [...new Set(input.derivedFrom ?? [])]
      }
    }
    const made = signRecordVerified(record, signer.secretKey, NODE_RECORD_FAST_PATHS)
    await this.pipeline.accept([made], 'local')
    return await this.show(made.id)
  }

  /** A local agent confirms, disputes or partially confirms a stored memory. */
  async attest (input: AttestInput, signer: Signer): Promise<AttestResult> {
    const memory = await this.requireMemory(input.memory)
    if (memory.signed.record.author.agent_id === signer.did) {
      throw new IsnadError('SELF_ATTESTATION', `${signer.did} is the author of ${input.memory}; an author never witnesses its own memory`)
    }
    const record: AttestationRecord = {
      kind: 'attestation',
      version: 1,
      memory: input.memory,
      witness: signer.did,
      attestation: input.verdict,
      witnessed_at: this.now(),
      ...(input.notes === undefined ? {} : { notes: input.notes }),
      ...(input.claims === undefined || input.claims.length === 0 ? {} : { claims: input.claims })
    }
    const draw = await this.drawOf(input.memory, signer, memory.signed.record.author.agent_id)
    if (draw !== undefined) record.draw = draw
    const made = signRecordVerified(record, signer.secretKey, NODE_RECORD_FAST_PATHS)
    await this.pipeline.accept([made], 'local')
    return { attestation: made.id, memory: await this.show(input.memory) }
  }

  /**
   * N̂, the node's estimate of the agents the witness draw chooses from (NodeTrust.populationEstimate:
   * the distinct identities of its reputation graph or the median population its reputable drawn
   * witnesses stated, the larger); at least 1, the smallest population a draw states.
   */
  async populationEstimate (): Promise<number> {
    return Math.max(1, await this.trust.populationEstimate())
  }

  /**
   * The draw an attestation by `signer` carries (record-v1 R19, protocols/witness-draw-v1.md): in the
   * scope the agent was drawn in on this node's daemon (DrawnInbox), else in the scope of the node's
   * estimate now (W12: within the author's shard); none when the agent is outside the author's shard
   * or the draw did not choose it for this memory at that population.
   */
  private async drawOf (memory: string, signer: Signer, author: string): Promise<AttestationDraw | undefined> {
    const scope = this.drawnInbox?.scopeOf(memory, signer.did) ?? drawScopeOf(await this.populationEstimate(), signer.did, author, this.drawShardCount?.())
    if (scope === undefined) return undefined
    const { proof, drawn } = proveDraw(signer.secretKey, memory, scope.population, NODE_RECORD_FAST_PATHS)
    if (!drawn) return undefined
    return { population: scope.population, proof: Buffer.from(proof).toString('base64').replace(/=+$/, ''), ...(scope.shards === 1 ? {} : { shards: scope.shards }) }
  }

  /**
   * Asks witnesses to attest a stored memory (gossip-v1 §4): a signed WitnessRequest, addressed to
   * `to` or open to anyone, journaled and stored; a running network node publishes it.
   */
  async requestWitnesses (input: { memory: string, to?: string[], expiresAt?: string }, signer: Signer): Promise<StoredRecord<WitnessRequestRecord>> {
    await this.requireMemory(input.memory)
    const to = [...new Set(input.to ?? [])]
    const record: WitnessRequestRecord = {
      kind: 'witness_request',
      version: 1,
      memory: input.memory,
      requester: signer.did,
      ...(to.length === 0 ? {} : { witnesses: to }),
      created_at: this.now(),
      ...(input.expiresAt === undefined ? {} : { expires_at: input.expiresAt })
    }
    const made = signRecordVerified(record, signer.secretKey, NODE_RECORD_FAST_PATHS)
    await this.pipeline.accept([made], 'local')
    const { id, signed } = made
    return { id, signed }
  }

  /**
   * Witness requests waiting for the given local agents: addressed to them (or open, then to every
   * local agent but the requester and the author), not expired, and not yet answered by them.
   */
  async inbox (localAgents: readonly string[]): Promise<InboxEntry[]> {
    return await readInbox(this.state.witnessRequests(), this.store, this.clock(), localAgents, this.drawnInbox)
  }

  /**
   * The drawn entries and skipped requests a running daemon's witness draw keeps (src/daemon): the
   * inbox shows them, and `attest` states the population an agent was drawn with, and draws under
   * the daemon's shard count (`shardCount`) when it was not drawn there.
   */
  useDrawnInbox (drawn: DrawnInbox, shardCount?: () => number): void {
    this.drawnInbox = drawn
    this.drawShardCount = shardCount
  }


  /** The inbox item one stored witness request makes for the local agents, or null when it makes none. */
  async inboxItem (requestId: string, localAgents: readonly string[]): Promise<InboxEntry | null> {
    return await inboxItemOf(requestId, this.store, this.clock(), localAgents)
  }

  /** Verifies, journals and stores records, all or nothing; `source` is kept in their events. */
  async ingest (records: readonly unknown[], source: RecordSource = 'import'): Promise<IngestResult> {
    return await this.pipeline.ingest(records, source)
  }

  /** The memory's view, its anchors' states current to within their TTL (anchors-v1 §5). */
  async show (id: string): Promise<MemoryView> {
    const { evidence } = await this.anchors.currentTrust(await this.requireMemory(id))
    return await viewOf(this.store, evidence, scoreEvidence(evidence, this.clock(), await this.trust.explainingSetting()))
  }

  /** Under the node's trust policy, with reputation from its trust roots (docs/trust.md §2). */
  async explainTrust (id: string): Promise<TrustResult> {
    const { evidence } = await this.anchors.currentTrust(await this.requireMemory(id))
    return scoreEvidence(evidence, this.clock(), await this.trust.explainingSetting())
  }

  /** The node's trust setting: its policy and the reputation from its trust roots (docs/trust.md §2). */
  get trust (): NodeTrust {
    if (this.nodeTrust === undefined) {
      // The pipeline's index step keeps its votes current from then on.
      this.nodeTrust = homeNodeTrust(this.paths, this.store, this.clock, () => this.keyring as Keyring | undefined, this.setShardCount)
    }
    return this.nodeTrust
  }

  /** The shard count the node's operator set (OpenLocalNodeOptions.shardCount); undefined when its count follows N̂. */
  get shardCount (): number | undefined {
    return this.setShardCount
  }

  /**
   * Anchors a stored memory (anchors-v1 §2): the evidence is prepared (a file imported as UnixFS, a
   * URL fetched and hashed, a commit resolved), the Anchor signed, stored, and checked at once.
   */
  async addAnchor (input: AddAnchorInput, signer: Signer): Promise<AnchorResult> {
    await this.requireMemory(input.memory)
    const claim = await prepareAnchorClaim(input, { blocks: this.anchors.blocks, files: this.anchors.files })
    const record: AnchorRecord = { kind: 'anchor', version: 1, memory: input.memory, ...claim, created_at: this.now(), anchored_by: signer.did }
    const made = signRecordVerified(record, signer.secretKey, NODE_RECORD_FAST_PATHS)
    await this.pipeline.accept([made], 'local')
    const { id, signed } = made
    await this.anchors.checkNow([{ id, signed }])
    return { anchor: id, memory: await this.show(input.memory) }
  }

  /** Re-verifies the anchors of one memory, or of every memory, now (`isnad anchor check`). */
  async checkAnchors (memory?: string): Promise<AnchorCheck[]> {
    if (memory !== undefined) {
      await this.requireMemory(memory)
      return await this.anchors.checkNow(await this.store.anchorsFor(memory))
    }
    return await this.anchors.checkNow(await storedAnchors(this.state, this.store))
  }

  /** A page of memories, most trusted and newest first, each scored with its anchors as they are now. */
  async query (query: MemoryQuery): Promise<{ items: QueryResultItem[], next?: string }> {
    return await queryPage(this, query)
  }

  /** The signed records of the given memories and all their evidence, for `export`. */
  async exportRecords (ids: readonly string[]): Promise<SignedRecord[]> {
    return await exportRecords(this.store, ids, async (id) => await this.requireMemory(id))
  }

  async requireMemory (id: string): Promise<StoredRecord<MemoryRecord>> {
    const memory = await this.store.getMemory(id)
    if (memory === null) throw new IsnadError('NOT_FOUND', `no memory ${id} in this node`, { details: { id } })
    return memory
  }
}

async function assertInitialized (paths: NodePaths): Promise<void> {
  try {
    if ((await stat(paths.data)).isDirectory()) return
  } catch {}
  throw new IsnadError('NOT_INITIALIZED', `no isnad data directory at ${paths.data}; run \`isnad init\` first (or pass --home)`)
}

/** Creates the node home's directories; idempotent. */
export async function createHomeDirectories (paths: NodePaths): Promise<void> {
  await mkdir(paths.index, { recursive: true })
  await mkdir(paths.keys, { recursive: true, mode: 0o700 })
}

/**
 * `isnad ledger reindex`: rebuilds the index from the ledgers, then records the reconciliation as a
 * `memory.reconciled` event through a normal writing session. Beside LocalNode because opening a node
 * on an index an older isnad wrote does the same.
 */
export async function reindex (home: string, clock: () => number = Date.now, { scope = DEFAULT_SCOPE, shardCount }: ReindexOptions = {}): Promise<ReindexResult> {
  const result = await reindexHome(nodePaths(home), scope, clock, shardCount)
  const node = await LocalNode.open({ home, clock, scope })
  try {
    await node.journal.recordReconciled({ reason: 'reindex', ...result })
  } finally {
    await node.close()
  }
  return result
}
