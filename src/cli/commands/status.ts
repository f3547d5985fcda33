import type { Command } from 'commander'
import type { CommandContext } from '../context.js'
import { emit } from '../output.js'

export function registerStatus (program: Command, context: (cmd: Command) => CommandContext): void {
  program.command('status')
    .description('the node home: where it is, its agents, and how many records it holds')
    .action(async (_opts: unknown, cmd: Command) => {
      const ctx = context(cmd)
      const status = await ctx.withOps(async (ops) => await ops.status(), 'read')
      const counts = status.records
      emit(ctx.out, status, () => [
        `home:    ${status.home}`,
        `agents:  ${status.agents.length === 0 ? 'none' : status.agents.map((k) => `${k.did}${k.default ? ' (default)' : ''}`).join('\n         ')}`,
        `records: ${counts.memory} memories, ${counts.attestation} attestations, ${counts.anchor} anchors, ${counts.witness_request} witness requests`
      ].join('\n'))
    })
}
