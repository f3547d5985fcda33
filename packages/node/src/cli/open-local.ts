import type { NodeOperations, OperationNode, OperationSpec } from '../operations/index.js'
import type { Keystore } from '../keystore/index.js'

export interface OpenLocalOptions {
  home: string
  keystore: Keystore
}

/** What runs an operation when no daemon holds the home, and closes after it. */
export interface OpenedLocal {
  node: OperationNode
  close: () => Promise<void>
}

/**
 * What the spec says the operation opens (`opens`): a LocalNode (read-only for an operation that
 * only reads); keys/ alone; the ledgers alone, without the index (a rebuild repairs an index
 * too damaged to open; a proof or a checkpoint is read from the journal's state without the lock);
 * or nothing (a document checked with nothing but itself). The operation's handler runs on what is
 * opened as on a whole node: it calls only these methods. Each loads only what it opens.
 */
export async function openLocalFor (spec: Pick<OperationSpec, 'opens' | 'readOnly'>, options: OpenLocalOptions): Promise<OpenedLocal> {
  const nothing = async (): Promise<void> => {}
  if (spec.opens === 'nothing') return { node: await offlineOperations() as OperationNode, close: nothing }
  if (spec.opens === 'keys') return { node: await keyOperations(options.keystore) as OperationNode, close: nothing }
  if (spec.opens === 'ledgers') return { node: await ledgerOperations(options.home) as OperationNode, close: nothing }
  const [{ LocalOperations }, { LocalNode }, { homeShardCount }] = await Promise.all([import('../operations/local/index.js'), import('../node/index.js'), import('./config/index.js')])
  // Scored as the daemon would score on this home: with the shard count `isnad start` would take.
  const shardCount = await homeShardCount(options.home)
  const node = await LocalNode.open({ home: options.home, mode: spec.readOnly === true ? 'read' : 'write', ...(shardCount === undefined ? {} : { shardCount }) })
  const local = new LocalOperations({ node, home: options.home, keystore: options.keystore })
  return { node: local, close: async () => { await local.close() } }
}

/** The key operations straight over keys/, as LocalOperations does them, without opening a node. */
async function keyOperations (keystore: Keystore): Promise<Pick<NodeOperations, 'listKeys' | 'keyInfo' | 'createKey'>> {
  const { keyOf } = await import('../operations/local/index.js')
  return {
    listKeys: async () => await keystore.list(),
    keyInfo: async (did) => await keystore.info(did),
    createKey: async (input) => await keyOf(keystore, input)
  }
}

/** The ledger operations over the data directory's journal, loaded only when one runs without a daemon. */
async function ledgerOperations (home: string): Promise<Pick<NodeOperations, 'reindex' | 'proveRecord' | 'latestCheckpoint'>> {
  const ledger = await import('../node/audit/ledger-ops.js')
  return {
    reindex: async (input = {}) => {
      // The count `isnad start` would run with on this home, unless the command names one: what the daemon stores.
      const shardCount = await (await import('./config/index.js')).homeShardCount(home, input.shardCount)
      return await ledger.reindex(home, Date.now, shardCount === undefined ? {} : { shardCount })
    },
    proveRecord: async (id) => await ledger.proveRecord(home, id),
    latestCheckpoint: async () => await ledger.latestCheckpoint(home)
  }
}

/** A document's check with nothing but itself (record-v1 §7, FDR M-12), on this machine's clock and its fast verifier. */
async function offlineOperations (): Promise<Pick<NodeOperations, 'verify'>> {
  const [{ verifyAnyDocument }, { nodeCryptoVerifier }] = await Promise.all([import('../operations/index.js'), import('../fast-crypto/index.js')])
  return { verify: async (document) => verifyAnyDocument(document, nodeCryptoVerifier, Date.now()) }
}
