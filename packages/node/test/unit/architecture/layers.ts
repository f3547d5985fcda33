/*
 * The layer map of the node's src/ (packages/node/src; docs/architecture.md draws the same one). Folders are listed from the
 * bottom up: a folder may import only folders listed before it, so imports point one way and no
 * two folders import each other. `(root)` is src/index.ts, src/library.ts and src/engine.ts (the
 * simulator's entry). The simulator is a package of its own (packages/sim): packages.test.ts holds
 * the rules between the two.
 */
export const LAYERS: ReadonlyArray<{ name: string, folders: readonly string[] }> = [
  // home: the node home's layout on disk (paths only), which every layer above may name.
  { name: 'base', folders: ['errors', 'log', 'fs', 'collections', 'home'] },
  // Pure: no Node built-in, no storage, no network, no clock, no module-level mutable state.
  { name: 'core', folders: ['schema', 'identity', 'record', 'shard', 'draw', 'trust', 'reputation', 'merkle', 'memory-view', 'fdr'] },
  // The Node fast paths of the core (OpenSSL, libsodium, verifier threads), injected into it.
  { name: 'fast-crypto', folders: ['fast-crypto'] },
  { name: 'storage', folders: ['record-index', 'anchor', 'keystore', 'ledger', 'key-events'] },
  { name: 'network', folders: ['net'] },
  { name: 'node', folders: ['node'] },
  // The node's operations apart from any transport: the table, their shapes, the local implementation.
  { name: 'operations', folders: ['operations'] },
  // api-access: reaching a daemon's API from another process (the client, the token, daemon.json),
  // light so the CLI and the library load it without the HTTP server.
  { name: 'surfaces', folders: ['api-access', 'http', 'dashboard', 'daemon', 'mcp', 'cli', '(root)'] }
]

/** The core folders, held to the purity rules, and the pure base folders below them. */
export const CORE: ReadonlySet<string> = new Set(['errors', 'collections', ...LAYERS.find((layer) => layer.name === 'core')?.folders ?? []])

/**
 * Imports against the direction of the map, each with why; `typeOnly` ones must stay `import type`.
 * Shrinking: an entry that no longer occurs fails the test, so it is taken out when fixed.
 */
export const UPWARD_EXCEPTIONS: ReadonlyArray<{ from: string, to: string, typeOnly: boolean, why: string }> = []

/**
 * Imports of another folder around its index.ts (`file -> target`, paths under src/). Every one is
 * in a folder that was being rewritten when the rule came in (http, operations, cli), or keeps a
 * light module clear of a heavy index (said beside it).
 * Shrinking: an entry that no longer occurs fails the test; a new one cannot be added silently.
 */
export const AROUND_INDEX_EXCEPTIONS: readonly string[] = [
  'http/errors.ts -> record-index/level/damage.ts',
  'http/rate-limit.ts -> net/limits/limits.ts',
  // The table and the client stay clear of the net and store indexes, which load libp2p and LevelDB:
  // every CLI command loads the table (test/integration/cli/startup-imports.test.ts).
  'operations/table/memory-ops.ts -> record-index/constants.ts',
  'operations/table/evidence-ops.ts -> anchor/anchor-source.ts',
  'operations/table/network-ops.ts -> net/gossip/gossip-health.ts',
  'cli/output.ts -> record-index/level/damage.ts',
  // Every CLI command loads output.ts at start-up: the error class alone, not the client.
  'cli/output.ts -> api-access/api-errors.ts',
  'cli/commands/init.ts -> node/home/init-home.ts',
  'cli/commands/ledger-audit.ts -> node/audit/index-check.ts',
  // Loaded lazily, only when an audit needs them (like index-check above).
  'cli/commands/ledger-audit.ts -> node/audit/block-check.ts',
  'cli/commands/ledger-audit.ts -> node/audit/block-repair.ts',
  'cli/commands/ledger-audit.ts -> node/audit/record-salvage.ts',
  'cli/commands/ledger-audit.ts -> node/audit/view-repair.ts',
  'cli/open-local.ts -> node/audit/ledger-ops.ts',
  'cli/commands/start.ts -> http/host-guard.ts',
  // `isnad config` validates as `isnad start` does without loading the HTTP stack, the anchor
  // checkers or LevelDB (the node's index loads LocalNode).
  'cli/config/config-keys.ts -> http/host-guard.ts',
  'cli/config/config-keys.ts -> anchor/address-policy.ts',
  'cli/commands/status.ts -> net/peer-key.ts',
  // The simulator's light entry (isnad/cli) names the CLI's helpers a command is written with where
  // they are defined: the CLI's index exports only the CLI.
  'cli-entry.ts -> cli/command-context.ts',
  'cli-entry.ts -> cli/commands/simulator.ts',
  'cli-entry.ts -> cli/option-parsers.ts',
  'cli-entry.ts -> cli/output.ts'
]

/**
 * The parts of net/ (js-libp2p service style: a folder per part with its index.ts, its classes and
 * its constants.ts). Inside net/, a file outside a part imports it only through the part's index.ts.
 */
export const PARTS: ReadonlyMap<string, readonly string[]> = new Map([
  ['net', ['gossip', 'fetch', 'sync', 'wire', 'limits', 'link', 'content-routing']]
])

/**
 * The parts of the simulator's package (packages/sim/src): outside a part, its files are imported
 * only through the part's index.ts (packages.test.ts).
 */
export const SIM_PARTS: readonly string[] = ['scenario', 'pools', 'driver', 'results', 'model', 'cli']

/**
 * Imports of a part around its index.ts from inside the same folder (`file -> target`). Constants
 * files hold only values and import only constants files: net/constants.ts re-exports every part's
 * list (the protocol documents cite it as the one place the limits are read), and gossip's limits
 * are derived from wire's envelope limit without loading wire's code (the CLI loads gossip-health.ts).
 * Shrinking, like the lists above.
 */
export const AROUND_PART_INDEX_EXCEPTIONS: readonly string[] = [
  'net/constants.ts -> net/gossip/constants.ts',
  'net/constants.ts -> net/wire/constants.ts',
  'net/constants.ts -> net/fetch/constants.ts',
  'net/constants.ts -> net/sync/constants.ts',
  'net/constants.ts -> net/limits/constants.ts',
  'net/constants.ts -> net/content-routing/constants.ts',
  'net/gossip/constants.ts -> net/wire/constants.ts'
]
