import type { AddAnchorInput, AnchorCheck } from '../../anchor/index.js'
import type { SelectedMemory, SelectRequest } from '../../fdr/index.js'
import type { SignatureVerifier } from '../../identity/index.js'
import { nodeCryptoVerifier } from '../../fast-crypto/index.js'
import { IsnadError } from '../../errors/index.js'
import {
  delegateKey, revokeKey, rotateKey, type DelegateKeyInput, type KeyEventResult, type LifecycleContext, type RevokeKeyInput, type RotateKeyInput
} from '../../key-events/index.js'
import type { KeyInfo, Keystore } from '../../keystore/index.js'
import type { AgentReputation, TrustRoot } from '../../reputation/index.js'
import type { FollowInput, Follows } from '../follow-shapes.js'
import { proveRecordInclusion, verifyCheckpoint, type RecordInclusion, type SignedCheckpoint } from '../../merkle/index.js'
import {
  LocalNode, exportBundle, reindex, selectOnNode, type AttestInput, type IngestResult, type QueryResultItem, type RememberInput, type Signer
} from '../../node/index.js'
import type { AttestationRecord, Bundle, MemoryView, TrustResult } from '../../schema/index.js'
import type { MemoryQuery } from '../../record-index/index.js'
import type { DocumentReport } from '../../memory-view/index.js'
import type { FdrReport } from '../../fdr/index.js'
import { verifyAnyDocument } from '../verify-document.js'
import type { ApiEventHub } from '../node-events.js'
import { keyOf } from './create-key.js'
import { ReadWriteGate } from './gate.js'
import type { AnchorResult, AttestResult, CreateKeyInput, NodeOperations, ReindexInput, WitnessRequestInput } from '../node-operations.js'
import type { InboxItem, PeerInfo, WitnessRequestResult } from '../network-shapes.js'
import type { NodeStatus, ObserveOutcome, ReindexResult } from '../response-shapes.js'

export interface LocalOperationsInit {
  /** An open, writing LocalNode; the operations own it from now on (`close` closes it). */
  node: LocalNode
  home: string
  keystore: Keystore
  /** Where attestations stored through these operations (attest, import) are announced. */
  events?: ApiEventHub
  /** Opens the node again after `reindex` closed it. @default () => LocalNode.open({ home, shardCount: node.shardCount }) */
  reopen?: () => Promise<LocalNode>
  /** @default nodeCryptoVerifier — checks documents for `verify` and checkpoints for `observe`. */
  verifier?: SignatureVerifier
}

/**
 * NodeOperations over a LocalNode without a network: every CLI operation, for the API in tests and
 * for the daemon to build on. The network operations (witness requests, inbox, peers) need the
 * libp2p node and throw USAGE here: the daemon supplies them.
 */
export class LocalOperations implements NodeOperations {
  private node: LocalNode
  private readonly gate = new ReadWriteGate()
  private readonly reopen: () => Promise<LocalNode>
  private readonly verifier: SignatureVerifier
  private closing: Promise<void> | undefined

  constructor (private readonly init: LocalOperationsInit) {
    this.node = init.node
    const { shardCount } = init.node // the reopened node keeps the count it was set to
    this.reopen = init.reopen ?? (async () => await LocalNode.open({ home: init.home, ...(shardCount === undefined ? {} : { shardCount }) }))
    this.verifier = init.verifier ?? nodeCryptoVerifier
  }

  /** Closes the node once the requests in flight are done. Idempotent. */
  async close (): Promise<void> {
    this.closing ??= this.gate.exclusive(async () => { await this.node.close() })
    await this.closing
  }

  async status (): Promise<NodeStatus> {
    const records = await this.withNode(async (node) => await node.store.count())
    const keys = await this.init.keystore.list()
    const agents = keys.map((k) => ({ did: k.did, ...(k.label === undefined ? {} : { label: k.label }), default: k.default }))
    return { home: this.init.home, agents, records }
  }

  async listKeys (): Promise<KeyInfo[]> { return await this.init.keystore.list() }

  async keyInfo (did: string): Promise<KeyInfo> { return await this.init.keystore.info(did) }

  async createKey (input: CreateKeyInput): Promise<KeyInfo> {
    return await keyOf(this.init.keystore, input)
  }

  async resolveSigner (as?: string, passphrase?: string): Promise<Signer> {
    const did = as ?? await this.init.keystore.defaultDid()
    if (did === null) throw new IsnadError('UNKNOWN_KEY', 'this node has no default key; name one with `as`')
    const key = await this.init.keystore.load(did, passphrase)
    return { did: key.did, secretKey: key.secretKey }
  }

  async rotateKey (input: RotateKeyInput, signer: Signer): Promise<KeyEventResult> {
    return await this.withNode(async (node) => await rotateKey(this.lifecycleOf(node), signer, input))
  }

  async revokeKey (input: RevokeKeyInput, signer: Signer): Promise<KeyEventResult> {
    return await this.withNode(async (node) => await revokeKey(this.lifecycleOf(node), signer, input))
  }

  async delegateKey (input: DelegateKeyInput, signer: Signer): Promise<KeyEventResult> {
    return await this.withNode(async (node) => await delegateKey(this.lifecycleOf(node), signer, input))
  }

  private lifecycleOf (node: LocalNode): LifecycleContext {
    return { keyring: node.keyring, keystore: this.init.keystore, now: () => node.now() }
  }

  async remember (input: RememberInput, signer: Signer): Promise<MemoryView> {
    return await this.withNode(async (node) => await node.remember(input, signer))
  }

  async show (id: string): Promise<MemoryView> { return await this.withNode(async (node) => await node.show(id)) }

  async explainTrust (id: string): Promise<TrustResult> { return await this.withNode(async (node) => await node.explainTrust(id)) }

  async query (query: MemoryQuery): Promise<{ items: QueryResultItem[], next?: string }> {
    return await this.withNode(async (node) => await node.query(query))
  }

  async attest (input: AttestInput, signer: Signer): Promise<AttestResult> {
    const result = await this.withNode(async (node) => await node.attest(input, signer))
    await this.announceAttestations([result.attestation])
    return result
  }

  async addAnchor (input: AddAnchorInput, signer: Signer): Promise<AnchorResult> {
    return await this.withNode(async (node) => await node.addAnchor(input, signer))
  }

  async checkAnchors (memory?: string): Promise<AnchorCheck[]> {
    return await this.withNode(async (node) => await node.checkAnchors(memory))
  }

  async select (request: SelectRequest): Promise<SelectedMemory[]> {
    return (await this.withNode(async (node) => await selectOnNode(node, request, this.verifier))).selected
  }

  async listTrustRoots (): Promise<TrustRoot[]> {
    return await this.withNode(async (node) => await node.trust.reputation.trustRoots())
  }

  async addTrustRoot (did: string): Promise<TrustRoot[]> {
    return await this.withNode(async (node) => await node.trust.reputation.addTrustRoot(did))
  }

  async removeTrustRoot (did: string): Promise<TrustRoot[]> {
    return await this.withNode(async (node) => await node.trust.reputation.removeTrustRoot(did))
  }

  async follow (input: FollowInput): Promise<Follows> {
    return await this.withNode(async (node) => {
      const follows = await node.follows()
      if (input.action === 'add') await follows.add('did' in input ? { did: input.did } : { tag: input.tag }, node.now())
      if (input.action === 'remove') await follows.remove('did' in input ? { did: input.did } : { tag: input.tag })
      return { follows: await follows.list() }
    })
  }

  async reputation (did: string): Promise<AgentReputation> {
    return await this.withNode(async (node) => await node.trust.describe(did))
  }

  async verify (document: unknown): Promise<DocumentReport | FdrReport> {
    const now = await this.withNode(async (node) => Date.parse(node.now()))
    return verifyAnyDocument(document, this.verifier, now)
  }

  async exportBundle (ids: readonly string[]): Promise<Bundle> {
    return await this.withNode(async (node) => await exportBundle(node, ids))
  }

  async importBundle (bundle: Bundle): Promise<IngestResult> {
    const result = await this.withNode(async (node) => await node.ingest(bundle.records, 'import'))
    await this.announceAttestations(result.stored)
    return result
  }

  /**
   * Closes the node (the rebuild needs the writer lock and the index to itself), rebuilds, reopens.
   * Scored with the node's own shard count (the daemon's `--shard-count`, else N̂'s), the one it
   * goes on scoring with: a count in `input` must be that one (USAGE otherwise), or the scores
   * stored would disagree with every score the reopened node computes next.
   */
  async reindex (input: ReindexInput = {}): Promise<ReindexResult> {
    return await this.gate.exclusive(async () => {
      const shardCount = this.node.shardCount
      if (input.shardCount !== undefined && input.shardCount !== shardCount) {
        throw new IsnadError('USAGE', `this node scores with ${shardCount === undefined ? 'the shard count its network size gives' : `shard count ${shardCount}`}: start it with --shard-count ${input.shardCount} to reindex with that count`, { details: { shardCount: input.shardCount, nodeShardCount: shardCount ?? null } })
      }
      await this.node.close()
      try {
        return await reindex(this.init.home, Date.now, shardCount === undefined ? {} : { shardCount })
      } finally {
        this.node = await this.reopen()
      }
    })
  }

  /** Against a checkpoint that covers the record: the newest, or one signed now if the log grew. */
  async proveRecord (id: string): Promise<RecordInclusion> {
    return await this.withNode(async (node) => {
      const checkpoint = await node.journal.checkpoint()
      const inclusion = checkpoint === null ? undefined : await proveRecordInclusion(node.journal.merkle, id, checkpoint)
      if (inclusion === undefined) throw new IsnadError('NOT_FOUND', `record ${id} is not in this node's signed log`, { details: { id } })
      return inclusion
    })
  }

  /** The newest checkpoint, signed now if the log grew since the last one, so it covers every stored record. */
  async latestCheckpoint (): Promise<SignedCheckpoint> {
    const checkpoint = await this.withNode(async (node) => await node.journal.checkpoint())
    if (checkpoint === null) throw new IsnadError('NOT_FOUND', 'this node has not signed a checkpoint yet: its log is empty')
    return checkpoint
  }

  async observeCheckpoint (checkpoint: SignedCheckpoint): Promise<ObserveOutcome> {
    return await this.withNode(async (node) => {
      const { signed } = verifyCheckpoint(checkpoint, this.verifier, { now: Date.parse(node.now()) })
      return await node.journal.observeCheckpoint(signed)
    })
  }

  /** Journals and stores the request; a daemon's network publishes it (without one, only local agents see it). */
  async requestWitnesses (input: WitnessRequestInput, signer: Signer): Promise<WitnessRequestResult> {
    const { id, signed } = await this.withNode(async (node) => await node.requestWitnesses({
      memory: input.memory,
      ...(input.to === undefined ? {} : { to: input.to }),
      ...(input.expiresAt === undefined ? {} : { expiresAt: input.expiresAt })
    }, signer))
    return { id, record: signed.record, signature: signed.signature }
  }

  async inbox (): Promise<InboxItem[]> {
    const agents = (await this.init.keystore.list()).map((k) => k.did)
    return await this.withNode(async (node) => await node.inbox(agents))
  }

  async peers (): Promise<PeerInfo[]> { throw needsNetwork('peers') }

  private async withNode<T> (fn: (node: LocalNode) => Promise<T>): Promise<T> {
    return await this.gate.shared(async () => await fn(this.node))
  }

  /** Tells event subscribers about the attestations among `ids` (newly stored records). */
  private async announceAttestations (ids: readonly string[]): Promise<void> {
    const hub = this.init.events
    if (hub === undefined || ids.length === 0) return
    const records = await this.withNode(async (node) => await Promise.all(ids.map(async (id) => await node.store.get(id))))
    for (const stored of records) {
      if (stored?.signed.record.kind !== 'attestation') continue
      const record = stored.signed.record as AttestationRecord
      hub.emit({
        type: 'attestation',
        data: { id: stored.id, memory: record.memory, witness: record.witness, verdict: record.attestation, witnessed_at: record.witnessed_at }
      })
    }
  }
}

function needsNetwork (what: string): IsnadError {
  return new IsnadError('USAGE', `${what} needs a running network node (\`isnad start\`)`)
}

export function createLocalOperations (init: LocalOperationsInit): LocalOperations {
  return new LocalOperations(init)
}
