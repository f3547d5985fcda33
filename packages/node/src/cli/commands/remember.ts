import type { Command } from 'commander'
import { IsnadError } from '../../errors/index.js'
import { CONTENT_TYPES, MAX_BODY_BYTES } from '../../schema/index.js'
import type { CommandContext } from '../command-context.js'
import { runsOperation } from '../operation-command.js'
import { choice, collect, parseUnitInterval, readInput } from '../option-parsers.js'
import { renderView } from '../../operations/index.js'

export function registerRemember (program: Command, context: (cmd: Command) => CommandContext): void {
  runsOperation(program.command('remember')
    .description('create, sign and store a memory; prints its view')
    .argument('<summary>', 'one-line description')
    .option('-t, --type <type>', `content type: ${CONTENT_TYPES.join(', ')}`, choice(CONTENT_TYPES), 'observation')
    .option('-b, --body <text>', 'the full memory content (default: the summary)')
    .option('--body-file <path>', 'read the body from a file, or - for stdin')
    .option('--tag <tag>', 'a tag (repeatable)', collect)
    .option('-c, --confidence <0..1>', 'how sure the author is', parseUnitInterval)
    .option('--trigger <text>', 'what prompted this memory')
    .option('--session <id>', 'session reference')
    .option('--platform <name>', 'where the author runs (e.g. clawdbot)')
    .option('--handle <name>', 'the author\'s handle there')
    .option('--supersedes <memory>', 'id of the memory this one corrects')
    .option('--derived-from <memory>', 'id of a source memory (repeatable)', collect)
    .option('--as <did>', 'sign with this key instead of the default')
    .option('-q, --quiet', 'print only the new memory\'s id'), context, {
    operation: 'remember',
    args: ['summary'],
    rename: { tag: 'tags', session: 'sessionId' },
    local: ['quiet', 'bodyFile'],
    prepare: async (input, opts) => {
      if (opts.body !== undefined && opts.bodyFile !== undefined) {
        throw new IsnadError('USAGE', 'give the body with --body or --body-file, not both')
      }
      const body = typeof opts.bodyFile === 'string' ? await readInput(opts.bodyFile, MAX_BODY_BYTES) : input.body
      return { ...input, ...(body === undefined ? {} : { body }), tags: input.tags ?? [] }
    },
    render: (view, opts) => opts.quiet === true ? view.id : renderView(view)
  })
}
