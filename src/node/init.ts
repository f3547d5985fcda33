import { createKeystore, type KeyInfo } from '../keys/index.js'
import { createLevelRecordStore } from '../store/index.js'
import { createHomeDirectories } from './local-node.js'
import { nodePaths, type NodePaths } from './paths.js'

export interface InitOptions {
  label?: string
  /** Encrypt the default key with this passphrase. */
  passphrase?: string
}

export interface InitResult {
  paths: NodePaths
  /** False when the home was already initialized (init is idempotent). */
  createdKey: boolean
  defaultKey: KeyInfo
}

/** Creates `.memory/`, its index and `keys/` with a default agent key, unless they exist. */
export async function initHome (home: string, options: InitOptions = {}): Promise<InitResult> {
  const paths = nodePaths(home)
  await createHomeDirectories(paths)
  // Opening creates the LevelDB files, so a fresh home is complete before the first command.
  const store = createLevelRecordStore({ location: paths.index })
  await store.open()
  await store.close()
  const keystore = createKeystore({ directory: paths.keys })
  const existing = await keystore.defaultDid()
  if (existing !== null) return { paths, createdKey: false, defaultKey: await keystore.info(existing) }
  const defaultKey = await keystore.create({
    label: options.label ?? 'default',
    makeDefault: true,
    ...(options.passphrase === undefined ? {} : { passphrase: options.passphrase })
  })
  return { paths, createdKey: true, defaultKey }
}
