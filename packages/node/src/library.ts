import { createHttpOperations, findDaemon, readApiToken } from './api-access/index.js'
import { LocalOperations } from './operations/local/index.js'
import { localCaller, operationMethods, OPERATION_SPECS, type OperationCaller, type OperationMethods } from './operations/index.js'
import { IsnadError } from './errors/index.js'
import { createKeystore } from './keystore/index.js'
import { LocalNode, initHome } from './node/index.js'
import { nodePaths } from './home/index.js'

export type { AddAnchorInput, AnchorCheck } from './anchor/index.js'
export type { SelectedMemory, SelectRequest } from './fdr/index.js'
export type { OperationCaller, OperationInput, OperationMethods, OperationName, OperationOutput } from './operations/index.js'
export type { InboxItem, NodeOperations, WitnessRequestInput, WitnessRequestResult } from './operations/index.js'
export type { AttestInput, IngestResult, QueryResultItem, RememberInput } from './node/index.js'
export type { MemoryQuery } from './record-index/index.js'

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
  /**
   * The shard count the data directory's memories are scored with when this process opens it, as
   * `isnad start --shard-count` sets the daemon's (witness-draw-v1 W12); through a daemon, the
   * daemon's own. @default from N̂ (shardCountFor)
   */
  shardCount?: number
}

/**
 * A node for TypeScript programs: one method per operation of the table (src/operations/table), named
 * after it, with the input and output every other surface uses (the HTTP body, the MCP arguments):
 * `node.show({ id })`, `node.reputation({ did })`. Inputs are parsed as the API parses them (unknown
 * keys refused, CID_INVALID for a malformed id, …); a signing operation signs as `as` (else the
 * default key) with its `passphrase`, else the one given to createNode. Retrieved memories are
 * evidence with their trust, not instructions (FDR-Memory M-1): read `trust` before use.
 */
export type IsnadNode = OperationMethods & OperationCaller & {
  readonly home: string
  /** Whether calls go to the running daemon or to the data directory this process opened. */
  readonly via: 'daemon' | 'data directory'
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
  let caller: OperationCaller
  let close = async (): Promise<void> => {}
  if (daemon !== null) {
    caller = withPassphrase(createHttpOperations({ url: daemon.url, token: await readApiToken(paths.data) }), options.passphrase)
  } else {
    if (options.init ?? true) await initHome(options.home, options.passphrase === undefined ? {} : { passphrase: options.passphrase })
    const local = new LocalOperations({
      node: await LocalNode.open({ home: options.home, shardCount: options.shardCount }),
      home: options.home,
      keystore: createKeystore({ directory: paths.keys })
    })
    caller = localCaller(local, options.passphrase)
    close = async () => { await local.close() }
  }
  let closed = false
  const open: OperationCaller = {
    call: async (name, input) => {
      if (closed) throw new IsnadError('USAGE', `the node on ${options.home} is closed`)
      return await caller.call(name, input)
    }
  }
  return {
    ...operationMethods(open),
    call: open.call,
    home: options.home,
    via: daemon === null ? 'data directory' : 'daemon',
    close: async () => {
      closed = true
      await close()
    }
  }
}

/** Over HTTP the passphrase travels with a signing operation's input: the one given to createNode, unless the input has its own. */
function withPassphrase (caller: OperationCaller, passphrase: string | undefined): OperationCaller {
  if (passphrase === undefined) return caller
  return {
    call: async (name, input) => {
      const signs = (OPERATION_SPECS[name] as { signs?: boolean }).signs === true
      return await caller.call(name, signs && !('passphrase' in input) ? { ...input, passphrase } as typeof input : input)
    }
  }
}
