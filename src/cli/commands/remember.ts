import type { Command } from 'commander'
import { IsnadError } from '../../errors/index.js'
import { CONTENT_TYPES, MAX_BODY_BYTES, type ContentType } from '../../schema/index.js'
import type { CommandContext } from '../command-context.js'
import { invoke } from '../invoke.js'
import { emit } from '../output.js'
import { choice, collect, parseUnitInterval, readInput } from '../option-parsers.js'
import { renderView } from '../render.js'

interface RememberOptions {
  type: ContentType
  body?: string
  bodyFile?: string
  tag?: string[]
  confidence?: number
  trigger?: string
  session?: string
  platform?: string
  handle?: string
  supersedes?: string
  derivedFrom?: string[]
  as?: string
  quiet?: boolean
}

export function registerRemember (program: Command, context: (cmd: Command) => CommandContext): void {
  program.command('remember')
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
    .option('-q, --quiet', 'print only the new memory\'s id')
    .action(async (summary: string, opts: RememberOptions, cmd: Command) => {
      const ctx = context(cmd)
      if (opts.body !== undefined && opts.bodyFile !== undefined) {
        throw new IsnadError('USAGE', 'give the body with --body or --body-file, not both')
      }
      const body = opts.bodyFile !== undefined ? await readInput(opts.bodyFile, MAX_BODY_BYTES) : opts.body
      const view = await invoke(ctx, 'remember', {
        type: opts.type,
        summary,
        ...(body === undefined ? {} : { body }),
        tags: opts.tag ?? [],
        ...(opts.confidence === undefined ? {} : { confidence: opts.confidence }),
        ...(opts.trigger === undefined ? {} : { trigger: opts.trigger }),
        ...(opts.session === undefined ? {} : { sessionId: opts.session }),
        ...(opts.platform === undefined ? {} : { platform: opts.platform }),
        ...(opts.handle === undefined ? {} : { handle: opts.handle }),
        ...(opts.supersedes === undefined ? {} : { supersedes: opts.supersedes }),
        ...(opts.derivedFrom === undefined ? {} : { derivedFrom: opts.derivedFrom }),
        ...(opts.as === undefined ? {} : { as: opts.as })
      })
      emit(ctx.out, view, () => opts.quiet === true ? view.id : renderView(view))
    })
}
