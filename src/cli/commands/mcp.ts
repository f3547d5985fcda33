import type { Command } from 'commander'
import type { CommandContext } from '../context.js'

/**
 * `isnad mcp`: the node as MCP tools over stdio (issue 8 §1). stdout carries the protocol only;
 * logs go to stderr. Each tool call finds the running daemon afresh, else opens the data directory
 * for that call, exactly as a CLI command would.
 */
export function registerMcp (program: Command, context: (cmd: Command) => CommandContext, version: string): void {
  program.command('mcp')
    .description('serve this node as MCP tools over stdio (for LLM agents); keys unlock with --passphrase-file or $ISNAD_PASSPHRASE')
    .action(async (_opts: unknown, cmd: Command) => {
      const ctx = context(cmd)
      // The MCP SDK loads only for this command, not on every CLI start-up.
      const [{ StdioServerTransport }, { createMcpServer }] = await Promise.all([
        import('@modelcontextprotocol/sdk/server/stdio.js'), import('../../mcp/index.js')
      ])
      const server = createMcpServer({ access: () => context(cmd), version })
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
