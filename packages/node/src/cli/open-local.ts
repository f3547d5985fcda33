import { LocalOperations } from '../operations/local/index.js'
import type { NodeOperations } from '../operations/index.js'
import type { Keystore } from '../keystore/index.js'
import { LocalNode } from '../node/index.js'

/** What the `id` commands need: the agent keys, which live in keys/ beside the data directory. */
export type KeyOperations = Pick<NodeOperations, 'listKeys' | 'keyInfo' | 'createKey'>

export interface OpenLocalOptions {
  home: string
  mode: 'read' | 'write'
  keystore: Keystore
}

/** The CLI's operations when no daemon holds the home: a LocalNode in `mode`, closed by `close`. */
export async function openLocalOperations (options: OpenLocalOptions): Promise<LocalOperations> {
  const node = await LocalNode.open({ home: options.home, mode: options.mode })
  return new LocalOperations({ node, home: options.home, keystore: options.keystore })
}

/** The key operations straight over keys/, as LocalOperations does them, without opening a node. */
export function localKeyOperations (keystore: Keystore): KeyOperations {
  return {
    listKeys: async () => await keystore.list(),
    keyInfo: async (did) => await keystore.info(did),
    createKey: async (input) => await keystore.create({ ...input, makeDefault: input.makeDefault ?? false })
  }
}
