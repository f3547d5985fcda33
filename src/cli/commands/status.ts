import type { Command } from 'commander'
import type { CommandContext } from '../context.js'
import { emit } from '../output.js'

export function registerStatus (program: Command, context: (cmd: Command) => CommandContext): void {
  program.command('status')
    .description('the node home: where it is, its agents, and how many records it holds')
    .action(async (_opts: unknown, cmd: Command) => {
      const ctx = context(cmd)
      const counts = await ctx.withNode(async (node) => await node.store.count(), 'read')
      const keys = await ctx.keystore().list()
      const status = { home: ctx.home, agents: keys.map((k) => ({ did: k.did, label: k.label, default: k.default })), records: counts }
      emit(ctx.out, status, () => [
        `home:    ${ctx.home}`,
        `agents:  ${keys.length === 0 ? 'none' : keys.map((k) => `${k.did}${k.default ? ' (default)' : ''}`).join('\n         ')}`,
        `records: ${counts.memory} memories, ${counts.attestation} attestations, ${counts.anchor} anchors, ${counts.witness_request} witness requests`
      ].join('\n'))
    })
}
