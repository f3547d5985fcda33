import type { TrustSetting } from '../../reputation/index.js'
import { resolve } from 'node:path'
import type { CID } from 'multiformats/cid'
import type { PeerId } from '@libp2p/interface'
import {
  AnchorVerifier, MAX_BLOCK_PEERS, MAX_FETCH_BLOCKS, createAnchorCheckers, createLevelBlockStore, createLevelStateStore, parseUrlAllowance, verificationOf,
  type AnchorCheck, type AnchorOrigin, type AnchorStateStore, type AnchorTarget, type BlockchainVerifier, type BlockFetcher, type BlockStore, type FileAnchorAccess, type UrlLimits
} from '../../anchor/index.js'
import { IsnadError } from '../../errors/index.js'
import { createKeystore } from '../../keystore/index.js'
import type { Network } from '../../net/index.js'
import type { AnchorRecord, MemoryRecord } from '../../schema/index.js'
import type { RecordStore, StoredRecord, TrustEntry } from '../../record-index/index.js'
import type { TrustResult } from '../../trust/index.js'
import { gatherEvidence, scoreEvidence, trustEntryOf, type MemoryEvidence } from '../trust/memory-evidence.js'
import type { Journal } from '../journal/journal.js'
import type { IngestPipeline } from '../pipeline/pipeline.js'
import { homePrivatePaths, type NodePaths } from '../../home/index.js'

/** Anchor settings of a node (anchors-v1 §4–§5). */
export interface NodeAnchorOptions {
  /** Local git repositories searched for git_commit anchors. */
  gitRepositories?: readonly string[]
  blockchainVerifiers?: readonly BlockchainVerifier[]
  urlLimits?: UrlLimits
  /**
   * Host names, addresses and CIDR ranges that url anchors from peers may reach although they are
   * not public (anchors-v1 §9; `isnad start --anchor-url-allow`). @default none
   */
  urlAllow?: readonly string[]
  /** @default ANCHOR_STATE_TTL_MS */
  ttlMs?: number
  /**
   * Directories file anchors may be read from (anchors-v1 §2.1; `isnad start --anchor-dir`).
   * Undefined: any file but the home's private ones (the CLI and the library without a daemon);
   * a daemon passes its operator's list, empty by default. @default undefined
   */
  fileDirs?: readonly string[]
  /** How the operator widens `fileDirs`, named in a refusal (FileAnchorAccess.allowedBy). */
  fileDirsAllowedBy?: string
}

/**
 * The blockstore of anchored content: `.memory/evidence/blocks` (docs/architecture.md, "The data directory":
 * anchored content lives in `evidence/`). Not under `index/`: reindex rebuilds `index/` from the ledgers and replaces it whole,
 * and blocks are content, not something the ledgers hold.
 */
export function blockStorePath (paths: NodePaths): string {
  return resolve(paths.data, 'evidence', 'blocks')
}

/** The cache of verification states: `.memory/index/anchor-states` (a cache: reindex may drop it). */
export function anchorStateIndexPath (paths: NodePaths): string {
  return resolve(paths.index, 'anchor-states')
}

interface NodeAnchorsParts {
  store: RecordStore
  clock: () => number
  /** The node's journal in write mode; null in read mode (checks are then neither journaled nor indexed). */
  journal: Journal | null
  /** Whether an anchor was made by one of this node's own agents (its url may reach private addresses). */
  originOf: (record: AnchorRecord) => Promise<AnchorOrigin>
}

/**
 * A node's anchors: its blockstore, the verifier with its state cache, and what follows a check —
 * a memory.anchor_checked event and a re-scored memory when a state changed (docs/trust.md: trust counts
 * only verified anchors, as they are now).
 */
export class NodeAnchors {
  private fetcher: BlockFetcher | undefined
  readonly verifier: AnchorVerifier
  /** Which files `addAnchor` may read for a file anchor (anchors-v1 §2.1). */
  readonly files: FileAnchorAccess
  /** Checks started in the background (anchors received from peers); awaited by close. */
  private readonly background = new Set<Promise<unknown>>()
  private unsubscribe: () => void = () => {}
  /** The node's trust policy and reputation (docs/trust.md §2), so re-scored entries match the node's own. */
  private trustSetting: () => Promise<TrustSetting> = async () => ({})

  private constructor (readonly blocks: BlockStore, private readonly states: AnchorStateStore, private readonly parts: NodeAnchorsParts, options: NodeAnchorOptions, paths: NodePaths) {
    this.files = {
      ...homePrivatePaths(paths),
      allowed: options.fileDirs?.map((dir) => resolve(dir)),
      ...(options.fileDirsAllowedBy === undefined ? {} : { allowedBy: options.fileDirsAllowedBy })
    }
    this.verifier = new AnchorVerifier({
      checkers: createAnchorCheckers({
        blocks,
        fetchBlocks: () => this.fetcher,
        ...(options.gitRepositories === undefined ? {} : { gitRepositories: options.gitRepositories }),
        ...(options.urlLimits === undefined ? {} : { urlLimits: options.urlLimits }),
        ...(options.urlAllow === undefined ? {} : { urlAllow: options.urlAllow }),
        ...(options.blockchainVerifiers === undefined ? {} : { blockchainVerifiers: options.blockchainVerifiers })
      }),
      states,
      clock: parts.clock,
      originOf: parts.originOf,
      ...(options.ttlMs === undefined ? {} : { ttlMs: options.ttlMs }),
      onChecked: async (checks) => { await this.afterChecks(checks) }
    })
  }

  static async open (paths: NodePaths, parts: Omit<NodeAnchorsParts, 'originOf'>, options: NodeAnchorOptions = {}): Promise<NodeAnchors> {
    parseUrlAllowance(options.urlAllow ?? []) // a bad entry is USAGE before any store is opened
    const blocks = createLevelBlockStore(blockStorePath(paths))
    const states = createLevelStateStore(anchorStateIndexPath(paths))
    await blocks.open().catch((cause: unknown) => { throw locked(cause) })
    try {
      await states.open()
    } catch (cause) {
      await blocks.close()
      throw locked(cause)
    }
    return new NodeAnchors(blocks, states, { ...parts, originOf: ownAgentsOrigin(paths) }, options, paths)
  }

  /** Checks the anchors a write mode node stores and rescores what they touch, as the pipeline publishes them. */
  follow (pipeline: Pick<IngestPipeline, 'onStored'>): void {
    this.unsubscribe()
    this.unsubscribe = pipeline.onStored((records, source) => {
      this.checkArrived(records, source)
      this.rescoreTouched(records)
    })
  }

  async close (): Promise<void> {
    this.unsubscribe()
    this.fetcher = undefined
    await Promise.allSettled([...this.background])
    try {
      await this.blocks.close()
    } finally {
      await this.states.close()
    }
  }

  /** How cid checks ask peers for blocks; undefined: this node has no network (local blocks only). */
  setBlockFetcher (fetcher: BlockFetcher | undefined): void {
    this.fetcher = fetcher
  }

  /** Scores with the node's trust setting from now on (LocalNode sets it when it is built). */
  useTrustSetting (setting: () => Promise<TrustSetting>): void {
    this.trustSetting = setting
  }

  /** Asks the network's peers for blocks (a daemon's node); without this, cid checks use local blocks only. */
  useNetwork (network: Pick<Network, 'fetchBlocks' | 'libp2p'>): void {
    this.setBlockFetcher(peerBlockFetcher(network, this.blocks))
  }

  /**
   * Anchors that arrived from peers are checked at once, in the background, so their memories'
   * indexed trust reflects them before anyone reads (anchors-v1 §5). Local ones are checked by addAnchor.
   */
  private checkArrived (records: ReadonlyArray<StoredRecord>, source: string): void {
    if (source !== 'gossip' && source !== 'fetch' && source !== 'sync') return
    const targets = records.flatMap(({ id, signed }) => signed.record.kind === 'anchor' ? [{ id, record: signed.record }] : [])
    if (targets.length === 0) return
    this.track(this.verifier.currentMany(targets))
  }

  /**
   * Ingest scores a batch before any check (its anchors count as unchecked), so a memory with a
   * verified anchor that gets a new attestation would be indexed without that anchor's points.
   * After each stored batch, such memories are re-scored with their current states.
   */
  private rescoreTouched (records: ReadonlyArray<StoredRecord>): void {
    const memories = new Set(records.flatMap(({ signed: { record } }) => record.kind === 'attestation' || record.kind === 'anchor' ? [record.memory] : []))
    if (memories.size === 0) return
    this.track((async () => {
      for (const id of memories) {
        if (!await this.states.hasVerified(id)) continue
        const memory = await this.parts.store.getMemory(id)
        if (memory !== null) await this.refreshTrust(memory, await this.parts.store.getTrust(id))
      }
    })())
  }

  private track (task: Promise<unknown>): void {
    const settled = task.catch(() => {})
    this.background.add(settled)
    void settled.finally(() => { this.background.delete(settled) })
  }

  /** Replaces the evidence's anchor states by the current ones (cached within the TTL, else checked now). */
  async applyStates (evidence: MemoryEvidence, force = false): Promise<AnchorCheck[]> {
    const checks = await this.verifier.currentMany(evidence.anchors.map(({ stored }) => targetOf(stored)), { force })
    evidence.anchors.forEach((anchor, i) => {
      const check = checks[i]
      if (check !== undefined) anchor.verification = verificationOf(check)
    })
    return checks
  }

  /** Re-verifies anchors now, whatever their cached state (`isnad anchor check`). */
  async checkNow (anchors: ReadonlyArray<StoredRecord<AnchorRecord>>): Promise<AnchorCheck[]> {
    const checks = await this.verifier.currentMany(anchors.map(targetOf), { force: true })
    // Explicit checks are journaled even when nothing changed: they are what an operator asked for.
    const unchanged = checks.filter((c) => c.previous === c.state)
    if (unchanged.length > 0) await this.parts.journal?.recordAnchorChecks(unchanged.map(eventPayloadOf))
    return checks
  }

  /** A memory's evidence with current anchor states, and its trust from them. */
  async currentTrust (memory: StoredRecord<MemoryRecord>): Promise<{ evidence: MemoryEvidence, trust: TrustResult }> {
    const evidence = await gatherEvidence(this.parts.store, memory)
    await this.applyStates(evidence)
    return { evidence, trust: scoreEvidence(evidence, this.parts.clock(), await this.trustSetting()) }
  }

  /**
   * The indexed trust of a memory brought up to date with its anchors' current states, for query:
   * null when the memory has no anchors (the indexed entry is then already current).
   */
  async refreshTrust (memory: StoredRecord<MemoryRecord>, indexed: TrustEntry | null): Promise<TrustEntry | null> {
    if ((await this.parts.store.anchorsFor(memory.id)).length === 0) return null
    const entry = trustEntryOf((await this.currentTrust(memory)).trust)
    if (indexed === null || indexed.score !== entry.score || indexed.level !== entry.level) await this.index(memory.id, entry)
    return entry
  }

  /** Journals the changes of state and re-scores the memories whose counted anchors changed. */
  private async afterChecks (checks: readonly AnchorCheck[]): Promise<void> {
    const changed = checks.filter((c) => c.previous !== c.state)
    if (changed.length === 0) return
    await this.parts.journal?.recordAnchorChecks(changed.map(eventPayloadOf))
    const memories = new Set(changed.filter((c) => (c.previous === 'verified') !== (c.state === 'verified')).map((c) => c.memory))
    for (const id of memories) {
      const memory = await this.parts.store.getMemory(id)
      if (memory === null) continue
      const evidence = await gatherEvidence(this.parts.store, memory)
      await this.applyStates(evidence) // the states just cached: no second check
      await this.index(id, trustEntryOf(scoreEvidence(evidence, this.parts.clock(), await this.trustSetting())))
    }
  }

  /** Only a writing node updates the index (the single-writer lock is its). */
  private async index (memoryId: string, entry: TrustEntry): Promise<void> {
    if (this.parts.journal !== null) await this.parts.store.setTrust(memoryId, entry)
  }
}

/**
 * An anchor is this node's own when a key of the home's keystore signed it (record-v1: an anchor's
 * signer is `anchored_by`): nobody else can make one, and `isnad anchor add` signs with these keys.
 * Asked only for url and moltbook_post anchors, the ones the origin matters for (anchors-v1 §9).
 */
function ownAgentsOrigin (paths: NodePaths): (record: AnchorRecord) => Promise<AnchorOrigin> {
  const keystore = createKeystore({ directory: paths.keys })
  return async (record) => {
    if (record.type !== 'url' && record.type !== 'moltbook_post') return 'peer'
    const keys = await keystore.list().catch(() => [])
    return keys.some((key) => key.did === record.anchored_by) ? 'local' : 'peer'
  }
}

/** LevelDB refuses a second opener of a directory: another isnad process holds this home. */
function locked (cause: unknown): IsnadError {
  return new IsnadError('STORE_LOCKED', 'the anchor blockstore or state cache is in use by another isnad process (a running daemon?)', { cause })
}

function targetOf (stored: StoredRecord<AnchorRecord>): AnchorTarget {
  return { id: stored.id, record: stored.signed.record }
}

/** The memory.anchor_checked payload (anchors-v1 §6). */
function eventPayloadOf (check: AnchorCheck): Record<string, unknown> & { anchor: string, checked_at: string } {
  return {
    anchor: check.id,
    memory: check.memory,
    type: check.type,
    reference: check.reference,
    state: check.state,
    reason: check.reason,
    checked_at: check.checked_at,
    ...(check.previous === undefined ? {} : { previous: check.previous }),
    ...(check.drift === true ? { drift: true } : {})
  }
}

/**
 * Missing blocks asked from `peers` (up to MAX_BLOCK_PEERS connected peers unless given: the daemon
 * also asks the providers content routing finds) in batches of MAX_FETCH_BLOCKS; each block received
 * was re-hashed by the fetch client and is hashed again as it is stored.
 */
export function peerBlockFetcher (
  network: Pick<Network, 'fetchBlocks' | 'libp2p'>, blocks: BlockStore, peers: () => readonly PeerId[] = () => network.libp2p.getPeers().slice(0, MAX_BLOCK_PEERS)
): BlockFetcher {
  return async (cids, signal) => {
    let missing: CID[] = [...cids]
    for (const peer of peers()) {
      if (missing.length === 0 || signal.aborted) break
      const still: CID[] = []
      for (let i = 0; i < missing.length; i += MAX_FETCH_BLOCKS) {
        const batch = missing.slice(i, i + MAX_FETCH_BLOCKS)
        try {
          const result = await network.fetchBlocks(peer, batch)
          for (const { cid, bytes } of result.blocks) await blocks.put(cid, bytes)
          still.push(...result.missing)
        } catch {
          // A peer that fails or cheats (penalised by the fetch client) is simply not asked again here.
          still.push(...batch)
        }
      }
      missing = still
    }
  }
}
