import { multiaddr } from '@multiformats/multiaddr'
import { z } from 'zod'
import { parseUrlAllowance } from '../../anchor/address-policy.js'
import { parseApiHostNames } from '../../http/host-guard.js'
import { isIsnadError } from '../../errors/index.js'
import { isDidKey } from '../../identity/index.js'
import { LOG_LEVELS } from '../../log/index.js'
import { isShardCount, SHARDS } from '../../shard/index.js'

/*
 * The keys of a node home's configuration file (docs/configuration.md): each one is a flag of
 * `isnad start`, named as the flag is, with the zod schema its value must meet, the commander
 * attribute the flag fills, and the environment variable that overrides the file
 * (`ISNAD_` + the key in upper case, `-` as `_`). test/unit/cli/config-keys.test.ts holds this
 * table and `isnad start`'s flags to the same names.
 */

export type ConfigValue = string | number | boolean | string[]

/** How a value is written on the command line and in an environment variable. */
export type ConfigKind = 'list' | 'integer' | 'boolean' | 'word'

export interface ConfigKey {
  /** The key, as `isnad start`'s flag without its dashes: `api-port`. */
  key: string
  /** The attribute commander gives the flag's value: `apiPort`. */
  option: string
  /** The environment variable that overrides the file: `ISNAD_API_PORT`. */
  env: string
  kind: ConfigKind
  /** Values are paths: resolved against the current directory when set, kept absolute. */
  paths?: boolean
  schema: z.ZodType<ConfigValue>
  /** One line for `isnad config --help` and docs/configuration.md. */
  description: string
}

const nonEmpty = z.string().trim().min(1, 'must not be empty')

/** A refinement that runs one of the project's own parsers, which throw USAGE with their reason. */
function judgedBy (parse: (value: string) => unknown): (value: string, ctx: z.RefinementCtx) => void {
  return (value, ctx) => {
    try {
      parse(value)
    } catch (err) {
      ctx.addIssue({ code: 'custom', message: isIsnadError(err) || err instanceof Error ? err.message : String(err) })
    }
  }
}

const multiaddrString = nonEmpty.superRefine(judgedBy((value) => {
  try {
    multiaddr(value)
  } catch {
    throw new Error(`${JSON.stringify(value)} is not a multiaddr (such as /ip4/127.0.0.1/tcp/4501)`)
  }
}))

const peerAddress = nonEmpty.superRefine(judgedBy((value) => {
  let components
  try {
    components = multiaddr(value).getComponents()
  } catch {
    throw new Error(`${JSON.stringify(value)} is not a multiaddr`)
  }
  if (!components.some((c) => c.name === 'p2p')) throw new Error(`${value} does not end in /p2p/<peer id>`)
}))

function list (item: z.ZodType<string>): z.ZodType<string[]> {
  return z.array(item).min(1, 'needs at least one value (`isnad config unset` removes the key)')
}

function key (init: Omit<ConfigKey, 'option' | 'env'>): ConfigKey {
  const option = init.key.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase())
  return { ...init, option, env: `ISNAD_${init.key.toUpperCase().replace(/-/g, '_')}` }
}

/** Every key, in the order `isnad start --help` lists its flags. */
export const CONFIG_KEYS: readonly ConfigKey[] = [
  key({ key: 'listen', kind: 'list', schema: list(multiaddrString), description: 'libp2p listen addresses (default TCP 4501 and WebSockets 4502 on all interfaces)' }),
  key({ key: 'announce', kind: 'list', schema: list(multiaddrString), description: 'addresses announced to peers' }),
  key({ key: 'bootstrap', kind: 'list', schema: list(peerAddress), description: 'peers dialled at start and kept: dialled again whenever lost, each ending in /p2p/<peer id>' }),
  key({ key: 'mdns', kind: 'boolean', schema: z.boolean(), description: 'discover peers on the local network (default off)' }),
  key({ key: 'api-port', kind: 'integer', schema: z.number().int().min(1).max(65535, 'must be a port 1-65535'), description: 'the HTTP API port on 127.0.0.1 (default: the port kept in .memory/api.port, else 4503 when free)' }),
  key({ key: 'api-host-name', kind: 'list', schema: list(nonEmpty.superRefine(judgedBy((name) => parseApiHostNames([name])))), description: 'names the API answers to besides 127.0.0.1, localhost and [::1]' }),
  key({ key: 'heartbeat', kind: 'integer', schema: z.number().int().min(1, 'must be a positive number of seconds'), description: 'seconds between heartbeats and checkpoints (default 30)' }),
  key({ key: 'auto-confirm-from', kind: 'list', schema: list(nonEmpty.refine(isDidKey, 'must be a did:key')), description: 'requesters whose witness requests are confirmed without asking (default none)' }),
  key({ key: 'private-checks', kind: 'boolean', schema: z.boolean(), description: 'ask a witness of this node\'s choosing about a memory no drawn witness answered (default on)' }),
  key({ key: 'git-repo', kind: 'list', paths: true, schema: list(nonEmpty), description: 'local git repositories searched for git_commit anchors' }),
  key({ key: 'log-level', kind: 'word', schema: z.enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(', ')}` }), description: 'what the log on stderr shows: error, warn, info or debug (default info)' }),
  key({ key: 'anchor-url-allow', kind: 'list', schema: list(nonEmpty.superRefine(judgedBy((entry) => parseUrlAllowance([entry])))), description: 'host names, addresses or CIDR ranges that url anchors from peers may reach although not public' }),
  key({ key: 'shard-count', kind: 'integer', schema: z.number().int().refine(isShardCount, `must be a power of two from 1 to ${SHARDS.maxCount}`), description: 'a fixed shard count, for tests and operators (default: from the network\'s size)' }),
  key({ key: 'max-shards', kind: 'integer', schema: z.number().int().min(1, 'must be a positive number of shards'), description: 'the most shards this node subscribes to (default 8)' }),
  key({ key: 'anchor-dir', kind: 'list', paths: true, schema: list(nonEmpty), description: 'directories file anchors asked through the API may be read from (default none)' })
]

const BY_NAME: ReadonlyMap<string, ConfigKey> = new Map(CONFIG_KEYS.map((k) => [k.key, k]))

/** The key named `name`, or undefined. */
export function configKeyNamed (name: string): ConfigKey | undefined {
  return BY_NAME.get(name)
}

/** The words a boolean key takes, on the command line and in the environment. */
export const BOOLEAN_WORDS: Readonly<Record<string, boolean>> = { on: true, true: true, yes: true, 1: true, off: false, false: false, no: false, 0: false }
