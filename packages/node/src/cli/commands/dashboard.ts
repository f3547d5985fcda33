import type { Command } from 'commander'
import { IsnadError } from '../../errors/index.js'
import { nodePaths } from '../../home/index.js'
import type { CommandContext } from '../command-context.js'
import { emit } from '../output.js'

/**
 * `isnad dashboard`: the URL of the running daemon's web dashboard, with the API token in the URL's
 * fragment (`#token=…`). Browsers never send a fragment to a server, so the token reaches only the
 * page, which keeps it for the tab and removes it from the address bar. The URL is a credential:
 * whoever has it can use the node's API, as whoever can read `.memory/api.token`.
 */
export function registerDashboard (program: Command, context: (cmd: Command) => CommandContext): void {
  program.command('dashboard')
    .description('print the URL of the running node\'s web dashboard (with its access token; open it in a browser on this machine)')
    .action(async (_opts: unknown, cmd: Command) => {
      const ctx = context(cmd)
      const data = nodePaths(ctx.home).data
      const { findDaemon, readApiToken } = await import('../../api-access/index.js')
      const daemon = await findDaemon(data)
      if (daemon === null) {
        throw new IsnadError('USAGE', `no daemon runs for ${ctx.home}: the dashboard is served by the running node; start it with \`isnad start\`, then run \`isnad dashboard\` again`)
      }
      const url = `${daemon.url}/dashboard/#token=${encodeURIComponent(await readApiToken(data))}`
      emit(ctx.out, { url }, () => url)
      ctx.out.stderr('open this URL in a browser on this machine; it carries the API token, so keep it to yourself')
    })
}
