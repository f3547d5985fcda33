import type { Command } from 'commander'
import type { CommandContext } from '../command-context.js'
import { invoke } from '../invoke.js'
import { emit } from '../output.js'
import { renderView } from '../render.js'

export function registerShow (program: Command, context: (cmd: Command) => CommandContext): void {
  program.command('show')
    .description('a memory with its witnesses, anchors, lineage and trust explanation')
    .argument('<memory>', 'the memory id (CID)')
    .action(async (id: string, _opts: unknown, cmd: Command) => {
      const ctx = context(cmd)
      const view = await invoke(ctx, 'show', { id })
      emit(ctx.out, view, () => renderView(view, { explain: true }))
    })
}
