import { existsSync } from 'node:fs'
import { join, resolve } from 'node:path'
import type { Command } from 'commander'
import { homePrivatePaths, nodePaths } from '../../home/index.js'
import type { CommandContext } from '../command-context.js'
import { mcpClientConfig, packageRoot } from '../mcp-client-config.js'
import { collect } from '../option-parsers.js'

/**
 * `isnad mcp`: the node as MCP tools over stdio. stdout carries the protocol only;
 * logs go to stderr. Each tool call finds the running daemon afresh, else opens the data directory
 * for that call, exactly as a CLI command would. `--print-config` prints the client configuration
 * that starts this command by absolute paths instead.
 */
export function registerMcp (program: Command, context: (cmd: Command) => CommandContext, version: string): void {
  program.command('mcp')
    .description('serve this node as MCP tools over stdio (for LLM agents); keys unlock with --passphrase-file or $ISNAD_PASSPHRASE')
    .option('--print-config', 'print the MCP client configuration (JSON) that runs this command for this home, by absolute paths')
    .option('--anchor-dir <dir>', 'a directory the anchor tool may read files from (repeatable; default none; never keys/ or .memory/; anchors-v1 §2.1)', collect)
    .action(async (opts: { printConfig?: boolean, anchorDir?: string[] }, cmd: Command) => {
      const ctx = context(cmd)
      if (opts.printConfig === true) {
        const { passphraseFile } = cmd.optsWithGlobals<{ passphraseFile?: string }>()
        const config = mcpClientConfig({
          node: process.execPath,
          cli: join(packageRoot(), 'bin', 'isnad.js'),
          home: ctx.home,
          ...(passphraseFile === undefined ? {} : { passphraseFile: resolve(passphraseFile) })
        })
        ctx.out.stdout(JSON.stringify(config, null, 2))
        if (!existsSync(nodePaths(ctx.home).data)) ctx.out.stderr(`note: ${ctx.home} is not a node home yet; create it with: isnad --home ${ctx.home} init`)
        return
      }
      // The MCP SDK loads only for this command, not on every CLI start-up.
      const [{ StdioServerTransport }, { createMcpServer }] = await Promise.all([
        import('@modelcontextprotocol/sdk/server/stdio.js'), import('../../mcp/index.js')
      ])
      const anchorFiles = { ...homePrivatePaths(nodePaths(ctx.home)), allowed: (opts.anchorDir ?? []).map((dir) => resolve(dir)) }
      const server = createMcpServer({ access: () => context(cmd), version, anchorFiles })
      const transport = new StdioServerTransport()
      const closed = new Promise<void>((resolve) => { transport.onclose = resolve })
      const stop = (): void => { void server.close() }
      process.once('SIGINT', stop)
      process.once('SIGTERM', stop)
      // The client ending stdin ends the session.
      process.stdin.once('end', stop)
      await server.connect(transport)
      ctx.out.stderr(`isnad MCP server on stdio for ${ctx.home}`)
      await closed
    })
}
