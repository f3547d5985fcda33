import { readConfig, requireConfigKey, type NodeConfig } from './config-file.js'
import { configuredValue } from './start-options.js'

/*
 * The shard count a command that scores memories without the daemon uses (`isnad ledger reindex`,
 * the commands that open the node themselves): the one `isnad start` would run with on the same
 * home, so that what they store is what the daemon stores (witness-draw-v1 W12). The command's own
 * --shard-count first, then the setting as `start` takes it without its flag (docs/configuration.md,
 * "Precedence"); with neither, undefined: the count follows N̂ (shardCountFor), as the daemon's does.
 */

/** The count from `given`, else $ISNAD_SHARD_COUNT, else the file's `shard-count`; undefined when none sets it. */
export function resolveShardCount (given: number | undefined, file: NodeConfig, env: NodeJS.ProcessEnv): number | undefined {
  if (given !== undefined) return given
  // The file and the environment were checked against the key's schema (a power of two 1-4096) when read.
  return configuredValue(requireConfigKey('shard-count'), file, env)?.value as number | undefined
}

/**
 * The shard count to score `home`'s memories with (resolveShardCount over the home's config file).
 * CONFIG_INVALID for a file it cannot trust, USAGE for a bad $ISNAD_SHARD_COUNT: nothing is scored then.
 */
export async function homeShardCount (home: string, given?: number, env: NodeJS.ProcessEnv = process.env): Promise<number | undefined> {
  if (given !== undefined) return given
  return resolveShardCount(undefined, await readConfig(home), env)
}
