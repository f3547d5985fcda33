import { createKeystore, type KeyInfo } from '../../keystore/index.js'
import { MAX_FLUSH_BYTES, MAX_LINE_BYTES, createDataLayout } from '../../ledger/index.js'
import { isIsnadError } from '../../errors/index.js'
import { readPolicy, writeMetaFiles, type PolicyInput } from '../../ledger/meta/index.js'
import { createLevelRecordStore } from '../../record-index/index.js'
import { createHomeDirectories } from '../local-node.js'
import { loadLogSigner } from './log-key.js'
import { DEFAULT_SCOPE, nodePaths, recordIndexPath, type NodePaths } from '../../home/index.js'

export interface InitOptions {
  label?: string
  /** Encrypt the default key with this passphrase. */
  passphrase?: string
  /** @default DEFAULT_SCOPE */
  scope?: string
}

export interface InitResult {
  paths: NodePaths
  /** False when the home was already initialized (init is idempotent). */
  createdKey: boolean
  defaultKey: KeyInfo
  /** The did:key that signs this node's checkpoints. */
  logKey: string
}

/**
 * Creates the format spec's whole `.memory/` tree with its `_meta/` files, the LevelDB index and
 * `keys/` with a default agent key and the node's log key, unless they exist.
 */
export async function initHome (home: string, options: InitOptions = {}): Promise<InitResult> {
  const paths = nodePaths(home)
  await createHomeDirectories(paths)
  await createDataLayout(paths.data, {
    writeMeta: async (dataDir) => {
      const kept = await operatorSettings(dataDir)
      const scope = options.scope ?? kept.default_scope ?? DEFAULT_SCOPE
      // The policy records the ledger's own limits, so they cannot drift apart.
      await writeMetaFiles(dataDir, { scope, policy: { ...kept, group_commit: { max_line_bytes: MAX_LINE_BYTES, max_flush_bytes: MAX_FLUSH_BYTES } } })
    }
  })
  // Opening creates the LevelDB files, so a fresh home is complete before the first command.
  const store = createLevelRecordStore({ location: recordIndexPath(paths), dataDir: paths.data })
  await store.open()
  await store.close()
  const logKey = (await loadLogSigner(paths)).did
  const keystore = createKeystore({ directory: paths.keys })
  const existing = await keystore.defaultDid()
  if (existing !== null) return { paths, createdKey: false, defaultKey: await keystore.info(existing), logKey }
  const defaultKey = await keystore.create({
    label: options.label ?? 'default',
    makeDefault: true,
    ...(options.passphrase === undefined ? {} : { passphrase: options.passphrase })
  })
  return { paths, createdKey: true, defaultKey, logKey }
}

/**
 * What the operator set in an existing `_meta/policy.json` (`isnad trust policy`, the scope, the
 * archive and view settings): a second `isnad init` keeps them and regenerates only what the code
 * owns (format, group-commit limits). A missing or unreadable file keeps nothing.
 */
async function operatorSettings (dataDir: string): Promise<PolicyInput> {
  try {
    const { default_scope, trust_policy, archive_after_days, views } = await readPolicy(dataDir)
    const { fact_review_days, disputed_below, default_visibility } = views
    return { default_scope, trust_policy, archive_after_days, views: { fact_review_days, disputed_below, default_visibility } }
  } catch (err) {
    if (isIsnadError(err, 'NOT_INITIALIZED') || isIsnadError(err, 'JSON_INVALID') || isIsnadError(err, 'SCHEMA_INVALID')) return {}
    throw err
  }
}
