import type { AddAnchorInput, AnchorCheck } from './anchor/index.js'
import { createHttpOperations } from './http/client.js'
import { findDaemon } from './http/daemon-file.js'
import { LocalOperations } from './operations/local/index.js'
import type { z } from 'zod'
import type { NodeOperations, WitnessRequestInput } from './operations/index.js'
import { OPERATION_SPECS, parseOperationInput, runOperation, type OperationName, type OperationSpec } from './operations/index.js'
import type { InboxItem, WitnessRequestResult } from './operations/index.js'
import type { FollowInput, Follows } from './operations/index.js'
import { readApiToken } from './http/token.js'
import { IsnadError } from './errors/index.js'
import type { SelectedMemory, SelectRequest } from './fdr/index.js'
import { createKeystore } from './keystore/index.js'
import {
  LocalNode, initHome, nodePaths, type AttestInput, type IngestResult, type QueryResultItem, type RememberInput
} from './node/index.js'
import type { Bundle, MemoryView, TrustResult } from './schema/index.js'
import type { MemoryQuery } from './record-index/index.js'
import type { DocumentReport } from './memory-view/index.js'

export type { AddAnchorInput, AnchorCheck, SelectedMemory, SelectRequest }
export type { OperationName }
export type { AttestInput, IngestResult, InboxItem, MemoryQuery, NodeOperations, QueryResultItem, RememberInput, WitnessRequestInput, WitnessRequestResult }

export interface CreateNodeOptions {
  /** The node's home: it holds `.memory/` (the data directory) and `keys/`. */
  home: string
  /** Create the home with a default agent key when it is not initialized yet. @default true */
  init?: boolean
  /** Unlocks passphrase-encrypted agent keys when signing. */
  passphrase?: string
  /**
   * `auto`: through the running daemon (`isnad start`) when one holds the home, else the data
   * directory opened by this process; `local`: always the data directory (LOCKED while a daemon runs).
   * @default 'auto'
   */
  connect?: 'auto' | 'local'
}

/** Which agent key signs: `as` (a did:key of this home), else the home's default key. */
export interface SignAs { as?: string }

/** An operation's input with the names every surface uses (the table's; docs/architecture.md, "Argument names"). */
export type OperationInput<N extends OperationName> = z.input<(typeof OPERATION_SPECS)[N]['input']>
/** A signing operation's input without the signer's fields: `as` comes apart (SignAs), the passphrase from createNode. */
export type SignedInput<N extends OperationName> = Omit<OperationInput<N>, 'as' | 'passphrase'>

/**
 * A node for TypeScript programs: the CLI's operations as methods. Retrieved memories
 * are evidence with their trust, not instructions (FDR-Memory M-1): read `view.trust` before use.
 */
export interface IsnadNode {
  readonly home: string
  /** Whether calls go to the running daemon or to the data directory this process opened. */
  readonly via: 'daemon' | 'data directory'
  /** Everything else the node can do (ledger proofs, checkpoints, keys, peers). */
  readonly operations: NodeOperations
  remember: (input: SignedInput<'remember'>, signer?: SignAs) => Promise<MemoryView>
  show: (id: string) => Promise<MemoryView>
  query: (query?: MemoryQuery) => Promise<{ items: QueryResultItem[], next?: string }>
  explainTrust: (id: string) => Promise<TrustResult>
  /** Witnesses the memory `id`: `{ id, verdict, notes?, claims? }`. */
  attest: (input: SignedInput<'attest'>, signer?: SignAs) => Promise<{ id: string, view: MemoryView }>
  /** Asks witnesses of the memory `id`: `{ id, to?, expiresAt? }`. */
  requestWitnesses: (input: SignedInput<'requestWitnesses'>, signer?: SignAs) => Promise<WitnessRequestResult>
  inbox: () => Promise<InboxItem[]>
  /** Signs an anchor tying the memory `id` to outside evidence: `{ id, anchor: { source: 'file', path } }` (or a CID, git commit, URL, …). */
  addAnchor: (input: SignedInput<'addAnchor'>, signer?: SignAs) => Promise<{ id: string, view: MemoryView }>
  /** Checks anchors against their evidence now (the memory `id`'s, or every one). */
  checkAnchors: (id?: string) => Promise<AnchorCheck[]>
  /** FDR-Memory selection: memories with reason, confidence, verified and evidence; traced in the ledger. */
  select: (request: SelectRequest) => Promise<SelectedMemory[]>
  /** Checks a memory view, export bundle or inclusion proof with nothing but the document. */
  verify: (document: unknown) => Promise<DocumentReport>
  exportBundle: (ids: readonly string[]) => Promise<Bundle>
  importBundle: (bundle: Bundle) => Promise<IngestResult>
  /**
   * What the node follows besides its own agents: `{ action: 'add', did }` (an author: its shard
   * is gossiped to the node), `{ action: 'add', tag }` (synced by interest from peers), `remove`, or `list`.
   */
  follow: (input: FollowInput) => Promise<Follows>
  /**
   * Any operation of the table (src/operations/table) by its name, with the input and output every other
   * surface uses (the HTTP body, the MCP arguments): `node.run('reputation', { did })`. The input is
   * parsed as the API parses it (unknown keys refused, CID_INVALID for a malformed id, …); a
   * signing operation signs as `as` (else the default key) with the `passphrase` given to createNode.
   */
  run: <N extends OperationName>(name: N, input: OperationInput<N>) => Promise<z.output<(typeof OPERATION_SPECS)[N]['output']>>
  /** Releases the data directory (and its writer lock). Idempotent. */
  close: () => Promise<void>
}

/**
 * Opens a node on `options.home`, creating the home first unless `init` is false
 * (NOT_INITIALIZED then). Close it when done: an open node holds the data directory's writer lock.
 */
export async function createNode (options: CreateNodeOptions): Promise<IsnadNode> {
  const paths = nodePaths(options.home)
  const daemon = options.connect === 'local' ? null : await findDaemon(paths.data)
  let operations: NodeOperations
  let close = async (): Promise<void> => {}
  if (daemon !== null) {
    operations = createHttpOperations({ url: daemon.url, token: await readApiToken(paths.data) })
  } else {
    if (options.init ?? true) await initHome(options.home, options.passphrase === undefined ? {} : { passphrase: options.passphrase })
    const local = new LocalOperations({
      node: await LocalNode.open({ home: options.home }),
      home: options.home,
      keystore: createKeystore({ directory: paths.keys })
    })
    operations = local
    close = async () => { await local.close() }
  }
  let closed = false
  const open = (): NodeOperations => {
    if (closed) throw new IsnadError('USAGE', `the node on ${options.home} is closed`)
    return operations
  }
  const run = async <N extends OperationName>(name: N, raw: z.input<(typeof OPERATION_SPECS)[N]['input']>): Promise<z.output<(typeof OPERATION_SPECS)[N]['output']>> => {
    const spec = OPERATION_SPECS[name] as unknown as OperationSpec
    const input = parseOperationInput(spec, raw)
    return await runOperation(spec, open(), input, options.passphrase) as z.output<(typeof OPERATION_SPECS)[N]['output']>
  }
  return {
    home: options.home,
    via: daemon === null ? 'data directory' : 'daemon',
    operations,
    // Each method is the table's operation: the same parse, the same handler, the same codes.
    remember: async (input, signer = {}) => await run('remember', { ...input, ...signer }),
    show: async (id) => await run('show', { id }),
    query: async (query = {}) => await run('query', query),
    explainTrust: async (id) => await run('explainTrust', { id }),
    attest: async (input, signer = {}) => {
      const result = await run('attest', { ...input, ...signer })
      return { id: result.attestation, view: result.memory }
    },
    requestWitnesses: async (input, signer = {}) => await run('requestWitnesses', { ...input, ...signer }),
    inbox: async () => (await run('inbox', {})).items,
    addAnchor: async (input, signer = {}) => {
      const result = await run('addAnchor', { ...input, ...signer })
      return { id: result.anchor, view: result.memory }
    },
    checkAnchors: async (id) => (await run('checkAnchors', id === undefined ? {} : { id })).checks,
    select: async (request) => (await run('select', request)).selected,
    verify: async (document) => await run('verify', { document: document as Record<string, unknown> }),
    exportBundle: async (ids) => await run('exportBundle', { ids: [...ids] }),
    importBundle: async (bundle) => await run('importBundle', { bundle }),
    follow: async (input) => await run('follow', input),
    run,
    close: async () => {
      closed = true
      await close()
    }
  }
}
