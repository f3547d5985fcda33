import { createKeystore } from '../../keystore/index.js'
import type { LogSigner } from '../journal/journal.js'
import { nodeKeysPath, type NodePaths } from '../../home/index.js'

/**
 * The key that signs the node's checkpoints, in `keys/node/`: the node's own identity, apart from
 * the agent keys it hosts (docs/architecture.md, "Keys"), unencrypted because the node signs without a person present.
 * Created on first use so every home has one.
 */
export async function loadLogSigner (paths: NodePaths): Promise<LogSigner> {
  const keystore = createKeystore({ directory: nodeKeysPath(paths) })
  const did = await keystore.defaultDid() ?? (await keystore.create({ label: 'node log', makeDefault: true })).did
  const key = await keystore.load(did)
  return { did: key.did, secretKey: key.secretKey }
}
