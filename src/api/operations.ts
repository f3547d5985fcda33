import type { KeyInfo } from '../keys/index.js'
import type { RecordInclusion, SignedCheckpoint } from '../merkle/index.js'
import type { AttestInput, IngestResult, QueryResultItem, RememberInput, Signer } from '../node/index.js'
import type { Bundle, MemoryView, TrustResult } from '../schema/index.js'
import type { MemoryQuery } from '../store/index.js'
import type { DocumentReport } from '../view/index.js'
import type { InboxItem, PeerInfo, WitnessRequestResult } from './schemas/network.js'
import type { NodeStatus, ObserveOutcome, ReindexResult } from './schemas/responses.js'

export type { Signer }

export interface CreateKeyInput {
  label?: string
  /** @default false */
  makeDefault?: boolean
  /** Encrypts the new key. */
  passphrase?: string
}

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

  /** `isnad remember`: creates, signs and stores a memory; its view. */
  remember: (input: RememberInput, signer: Signer) => Promise<MemoryView>
  /** `isnad show`: NOT_FOUND for an unknown memory. */
  show: (id: string) => Promise<MemoryView>
  /** `isnad trust explain`. */
  explainTrust: (id: string) => Promise<TrustResult>
  /** `isnad query`. */
  query: (query: MemoryQuery) => Promise<{ items: QueryResultItem[], next?: string }>
  /** `isnad attest`: a local agent witnesses a stored memory. */
  attest: (input: AttestInput, signer: Signer) => Promise<{ id: string, view: MemoryView }>

  /** `isnad verify`: a document checked with nothing but itself (no store access needed). */
  verify: (document: unknown) => Promise<DocumentReport>
  /** `isnad export`. */
  exportBundle: (ids: readonly string[]) => Promise<Bundle>
  /** `isnad import`: all or nothing. */
  importBundle: (bundle: Bundle) => Promise<IngestResult>

  /** `isnad ledger reindex`. */
  reindex: () => Promise<ReindexResult>
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
