import type { Command } from 'commander'
import { CONTENT_TYPES, isIsoTimestamp, type ContentType } from '../../schema/index.js'
import { InvalidArgumentError } from 'commander'
import type { CommandContext } from '../context.js'
import { emit } from '../output.js'
import { choice, collect, parsePositiveInt, parseUnitInterval } from '../parse.js'

interface QueryOptions {
  tag?: string[]
  minTrust?: number
  type?: ContentType
  author?: string
  since?: string
  until?: string
  limit?: number
  cursor?: string
}

function timestamp (value: string): string {
  if (!isIsoTimestamp(value)) throw new InvalidArgumentError('must be a UTC timestamp like 2026-02-05T16:00:00Z')
  return value
}

export function registerQuery (program: Command, context: (cmd: Command) => CommandContext): void {
  program.command('query')
    .description('memories by tags, minimum trust, type, author and time; most trusted and newest first')
    .option('--tag <tag>', 'required tag (repeatable: all must match)', collect)
    .option('--min-trust <0..1>', 'minimum trust score', parseUnitInterval)
    .option('-t, --type <type>', 'content type', choice(CONTENT_TYPES))
    .option('--author <did>', 'author did:key')
    .option('--since <time>', 'created at or after (ISO-8601 UTC)', timestamp)
    .option('--until <time>', 'created before (ISO-8601 UTC)', timestamp)
    .option('--limit <n>', 'page size (max 1000)', parsePositiveInt)
    .option('--cursor <cursor>', 'continue after a previous page')
    .action(async (opts: QueryOptions, cmd: Command) => {
      const ctx = context(cmd)
      const page = await ctx.withOps(async (ops) => await ops.query({
        ...(opts.tag === undefined ? {} : { tags: opts.tag }),
        ...(opts.minTrust === undefined ? {} : { minTrust: opts.minTrust }),
        ...(opts.type === undefined ? {} : { type: opts.type }),
        ...(opts.author === undefined ? {} : { author: opts.author }),
        ...(opts.since === undefined ? {} : { since: opts.since }),
        ...(opts.until === undefined ? {} : { until: opts.until }),
        ...(opts.limit === undefined ? {} : { limit: opts.limit }),
        ...(opts.cursor === undefined ? {} : { cursor: opts.cursor })
      }), 'read')
      emit(ctx.out, page, () => {
        if (page.items.length === 0) return 'no memories match'
        const lines = page.items.map((m) =>
          `${m.trust.toFixed(2)} ${m.level.padEnd(10)} ${m.id}  [${m.type}] ${m.summary}${m.tags.length === 0 ? '' : `  #${m.tags.join(' #')}`}`)
        if (page.next !== undefined) lines.push(`more: --cursor ${page.next}`)
        return lines.join('\n')
      })
    })
}
