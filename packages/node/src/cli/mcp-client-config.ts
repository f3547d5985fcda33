import { existsSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { IsnadError } from '../errors/index.js'

/*
 * `isnad mcp --print-config`: the MCP client configuration that starts this installation's CLI by
 * absolute path. Never `npx isnad`: outside the clone npx asks the npm registry for a package named
 * isnad (a 404 today, and whatever someone publishes under that name tomorrow). The command is the
 * Node that runs this process (the clone's own Node 22 when `isnad` came through bin/isnad), so the
 * client needs no `node` of the right version on its own PATH.
 */

export interface McpServerEntry {
  command: string
  args: string[]
}

export interface McpClientConfig {
  mcpServers: Record<string, McpServerEntry>
}

export interface McpClientConfigInit {
  /** Absolute path of the Node executable. */
  node: string
  /** Absolute path of bin/isnad.js. */
  cli: string
  /** Absolute path of the node home. */
  home: string
  /** Absolute path of a passphrase file for encrypted keys (the passphrase itself is never printed). */
  passphraseFile?: string
  /** @default 'isnad' */
  name?: string
}

/** The `mcpServers` entry most MCP clients read (Claude Desktop, Claude Code's .mcp.json, Cursor…). */
export function mcpClientConfig (init: McpClientConfigInit): McpClientConfig {
  const args = [init.cli, '--home', init.home]
  if (init.passphraseFile !== undefined) args.push('--passphrase-file', init.passphraseFile)
  args.push('mcp')
  return { mcpServers: { [init.name ?? 'isnad']: { command: init.node, args } } }
}

/**
 * The directory holding this package's bin/isnad.js: found by walking up from this module, which
 * sits at src/cli/ in the sources and dist/src/cli/ once compiled.
 */
export function packageRoot (from: string = dirname(fileURLToPath(import.meta.url))): string {
  for (let dir = resolve(from); ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'bin', 'isnad.js'))) return dir
    if (dirname(dir) === dir) throw new IsnadError('NOT_FOUND', `no bin/isnad.js above ${from}`)
  }
}
