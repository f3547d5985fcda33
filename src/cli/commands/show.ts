import type { Command } from 'commander'
import type { CommandContext } from '../context.js'
import { emit } from '../output.js'
import { renderTrust, renderView } from '../render.js'

export function registerShow (program: Command, context: (cmd: Command) => CommandContext): void {
  program.command('show')
    .description('a memory with its witnesses, anchors, lineage and trust explanation')
    .argument('<memory>', 'the memory id (CID)')
    .action(async (id: string, _opts: unknown, cmd: Command) => {
      const ctx = context(cmd)
      const view = await ctx.withOps(async (ops) => await ops.show(id), 'read')
      emit(ctx.out, view, () => renderView(view, { explain: true }))
    })

  const trust = program.command('trust').description('trust scores, computed locally')
  trust.command('explain')
    .description('every factor of a memory\'s score, what counted and what was refused and why')
    .argument('<memory>', 'the memory id (CID)')
    .action(async (id: string, _opts: unknown, cmd: Command) => {
      const ctx = context(cmd)
      const result = await ctx.withOps(async (ops) => await ops.explainTrust(id), 'read')
      emit(ctx.out, result, () => renderTrust(result))
    })
}
