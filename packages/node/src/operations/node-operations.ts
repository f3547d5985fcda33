import type { AddAnchorInput, AnchorCheck } from '../anchor/index.js'
import type { DelegateKeyInput, KeyEventResult, RevokeKeyInput, RotateKeyInput } from '../key-events/index.js'
import type { FdrReport, SelectedMemory, SelectRequest } from '../fdr/index.js'
import type { KeyInfo } from '../keystore/index.js'
import type { AgentReputation, TrustRoot } from '../reputation/index.js'
import type { RecordInclusion, SignedCheckpoint } from '../merkle/index.js'
import type { AnchorResult, AttestInput, AttestResult, IngestResult, QueryResultItem, ReindexOptions, RememberInput, Signer } from '../node/index.js'
import type { Bundle, MemoryView, TrustResult } from '../schema/index.js'
import type { MemoryQuery } from '../record-index/index.js'
import type { DocumentReport } from '../memory-view/index.js'
import type { FollowInput, Follows } from './follow-shapes.js'
import type { InboxItem, PeerInfo, WitnessRequestResult } from './network-shapes.js'
import type { NodeStatus, ObserveOutcome, ReindexResult } from './response-shapes.js'

export type { AnchorResult, AttestResult, Signer }

/** The createKey operation's input, with its names on every surface (`default`, as `isnad id new --default`). */
export interface CreateKeyInput {
  label?: string
  /** Make it the default signing key. @default false */
  default?: boolean
  /** Encrypts the new key. */
  passphrase?: string
}

/** The reindex operation's input: the shard count to score with (ReindexOptions.shardCount). */
export type ReindexInput = Pick<ReindexOptions, 'shardCount'>

export interface WitnessRequestInput {
  memory: string
  /** Addressed witnesses (did:key); absent: an open request. */
  to?: string[]
  expiresAt?: string
}

/**
 * What the HTTP API asks of a node: one method per CLI operation, with the CLI's --json shapes.
 * `LocalOperations` (local-operations.ts) implements it over a LocalNode; the daemon implements it
 * over its network node. Methods throw IsnadError with a stable code; the API maps codes to statuses.
 */
export interface NodeOperations {
  /** `isnad status`. */
  status: () => Promise<NodeStatus>

  /** `isnad id list`: every agent key of this home, oldest first. */
  listKeys: () => Promise<KeyInfo[]>
  /** `isnad id show <did>`: UNKNOWN_KEY when there is no such key. */
  keyInfo: (did: string) => Promise<KeyInfo>
  /** `isnad id new`. */
  createKey: (input: CreateKeyInput) => Promise<KeyInfo>
  /**
   * The key a signing operation uses: `as`, else the default key; decrypted with `passphrase` when
   * encrypted (PASSPHRASE_REQUIRED / PASSPHRASE_WRONG). The caller wipes `secretKey` when done.
   */
  resolveSigner: (as?: string, passphrase?: string) => Promise<Signer>
  /** `isnad id rotate` (record-v1 §13): `signer` (the identity's current key) rotates to the pre-committed key. */
  rotateKey: (input: RotateKeyInput, signer: Signer) => Promise<KeyEventResult>
  /** `isnad id revoke`: revokes a key of the signer's identity from a time (or since its compromise). */
  revokeKey: (input: RevokeKeyInput, signer: Signer) => Promise<KeyEventResult>
  /** `isnad id delegate`: delegates a device sub-key (existing or new) to the signer's identity. */
  delegateKey: (input: DelegateKeyInput, signer: Signer) => Promise<KeyEventResult>

  /** `isnad remember`: creates, signs and stores a memory; its view. */
  remember: (input: RememberInput, signer: Signer) => Promise<MemoryView>
  /** `isnad show`: NOT_FOUND for an unknown memory. */
  show: (id: string) => Promise<MemoryView>
  /** `isnad trust explain`. */
  explainTrust: (id: string) => Promise<TrustResult>
  /** `isnad query`. */
  query: (query: MemoryQuery) => Promise<{ items: QueryResultItem[], next?: string }>
  /** `isnad attest`: a local agent witnesses a stored memory. */
  attest: (input: AttestInput, signer: Signer) => Promise<AttestResult>
  /** `isnad anchor add`: prepares the evidence, signs an Anchor, stores and checks it (anchors-v1). */
  addAnchor: (input: AddAnchorInput, signer: Signer) => Promise<AnchorResult>
  /** `isnad anchor check`: re-verifies the anchors of one memory, or all, now. */
  checkAnchors: (memory?: string) => Promise<AnchorCheck[]>

  /** `isnad query --select`: FDR-Memory selection with evidence; its trace is appended to the ledger. */
  select: (request: SelectRequest) => Promise<SelectedMemory[]>
  /** `isnad trust root list`: the operator's trust roots, oldest first. */
  listTrustRoots: () => Promise<TrustRoot[]>
  /** `isnad trust root add`: ALREADY_EXISTS when it is one; the roots after the change. */
  addTrustRoot: (did: string) => Promise<TrustRoot[]>
  /** `isnad trust root remove`: NOT_FOUND when it is not one; the roots after the change. */
  removeTrustRoot: (did: string) => Promise<TrustRoot[]>
  /**
   * `isnad follow add|remove|list`: the authors and tags the node follows besides its own agents
   * (ALREADY_EXISTS, NOT_FOUND); the follows after the change.
   */
  follow: (input: FollowInput) => Promise<Follows>
  /** `get_reputation` (`isnad trust reputation`): reputation, rank and path from a root. */
  reputation: (did: string) => Promise<AgentReputation>

  /** `isnad verify`: a document (a view, bundle, inclusion proof, FDR proof or selection) checked with nothing but itself. */
  verify: (document: unknown) => Promise<DocumentReport | FdrReport>
  /** `isnad export`. */
  exportBundle: (ids: readonly string[]) => Promise<Bundle>
  /** `isnad import`: all or nothing. */
  importBundle: (bundle: Bundle) => Promise<IngestResult>

  /** `isnad ledger reindex`: scored with `shardCount` when given, else with the node's set count, else N̂'s. */
  reindex: (input?: ReindexInput) => Promise<ReindexResult>
  /** `isnad ledger prove <cid>`: NOT_FOUND when the record is not in the node's log. */
  proveRecord: (id: string) => Promise<RecordInclusion>
  /** `isnad ledger checkpoint`: NOT_FOUND while the log is empty. */
  latestCheckpoint: () => Promise<SignedCheckpoint>
  /** `isnad ledger observe`. */
  observeCheckpoint: (checkpoint: SignedCheckpoint) => Promise<ObserveOutcome>

  /** `isnad witness request`: signs and publishes a WitnessRequest for a stored memory. */
  requestWitnesses: (input: WitnessRequestInput, signer: Signer) => Promise<WitnessRequestResult>
  /** `isnad inbox`: witness requests addressed to this node's agents (or open), not yet answered. */
  inbox: () => Promise<InboxItem[]>
  /** `isnad peers`: the peers this node is connected to. */
  peers: () => Promise<PeerInfo[]>
}
