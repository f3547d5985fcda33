import { homedir } from 'node:os'
import { resolve } from 'node:path'

/** The data directory name inside a node home (the format spec's runtime root). */
export const DATA_DIR_NAME = '.memory'
export const KEYS_DIR_NAME = 'keys'
export const INDEX_DIR_NAME = 'index'
/** The ledger scope a node writes unless told otherwise (spec §4 shards per scope). */
export const DEFAULT_SCOPE = 'default'

export interface NodePaths {
  home: string
  /** `<home>/.memory` */
  data: string
  /** `<home>/.memory/index`, the LevelDB */
  index: string
  /** `<home>/keys` */
  keys: string
}

/** The node home when neither `--home` nor `$ISNAD_HOME` names one: `~/.isnad`. */
export const DEFAULT_HOME_NAME = '.isnad'

/**
 * A node's home holds `.memory/` and `keys/` (docs/architecture.md, "The data directory"). It is
 * `--home`, else `$ISNAD_HOME`, else `~/.isnad`: never the directory a command happens to run in, so
 * a clone's `git clean -fdx` or a project's clean-up cannot delete the keys. A relative `--home` or
 * `$ISNAD_HOME` is taken from the current directory.
 */
export function resolveHome (flag: string | undefined, env: NodeJS.ProcessEnv = process.env, cwd = process.cwd(), home = homedir()): string {
  const fromEnv = env.ISNAD_HOME === '' ? undefined : env.ISNAD_HOME
  const named = flag ?? fromEnv
  return named === undefined ? resolve(home, DEFAULT_HOME_NAME) : resolve(cwd, named)
}

export function nodePaths (home: string): NodePaths {
  const data = resolve(home, DATA_DIR_NAME)
  return { home, data, index: resolve(data, INDEX_DIR_NAME), keys: resolve(home, KEYS_DIR_NAME) }
}

/** The record store's LevelDB; the journal's state sits beside it in `index/journal/`. */
export function recordIndexPath (paths: NodePaths): string {
  return resolve(paths.index, 'records')
}

export function journalIndexPath (paths: NodePaths): string {
  return resolve(paths.index, 'journal')
}

/** The keystore of the node's own log key, apart from the agents' keys. */
export function nodeKeysPath (paths: NodePaths): string {
  return resolve(paths.keys, 'node')
}

/** The libp2p peer key's file in nodeKeysPath, beside the node's log key (docs/architecture.md "Keys": separate from agent keys). */
export const PEER_KEY_FILE = 'peer.key'

/**
 * The home's private places, which a file anchor never reads (anchors-v1 §2.1): `keys/` (agent and
 * node seeds, the default pointer) and `.memory/` (the API token, daemon.json, the writer lock, the
 * index and the ledgers' internals). `secrets` are the files a hard link elsewhere must not share.
 */
export function homePrivatePaths (paths: NodePaths): { forbidden: string[], secrets: string[] } {
  return {
    forbidden: [paths.keys, paths.data],
    secrets: [paths.keys, resolve(paths.data, 'api.token')]
  }
}

/**
 * The authors and tags the node follows (src/node/follows.ts): a LevelDB of its own, beside the
 * index and not in it, since reindex rebuilds the index from the ledgers and a follow is the
 * operator's choice, not derived from records.
 */
export function followsPath (paths: NodePaths): string {
  return resolve(paths.data, 'follows')
}
