import type { Command } from 'commander'
import type { CommandContext } from '../command-context.js'
import { runsOperation } from '../operation-command.js'
import { renderView } from '../../operations/index.js'

export function registerShow (program: Command, context: (cmd: Command) => CommandContext): void {
  runsOperation(program.command('show')
    .description('a memory with its witnesses, anchors, lineage and trust explanation')
    .argument('<memory>', 'the memory id (CID)'), context, {
    operation: 'show',
    args: ['id'],
    render: (view) => renderView(view, { explain: true })
  })
}
