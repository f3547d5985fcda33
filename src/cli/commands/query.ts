import type { Command } from 'commander'
import { CONTENT_TYPES, isIsoTimestamp } from '../../schema/index.js'
import type { MemoryQuery } from '../../store/index.js'
import { InvalidArgumentError } from 'commander'
import type { CommandContext } from '../context.js'
import { emit } from '../output.js'
import { choice, collect, parsePositiveInt, parseUnitInterval } from '../parse.js'

/** The store's query, except that the repeatable option is `--tag` (one tag each). */
type QueryOptions = Omit<MemoryQuery, 'tags'> & { tag?: string[] }

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
      // commander sets only the options given, so the rest map onto the query as they are.
      const { tag, ...rest } = opts
      const page = await ctx.withOps(async (ops) => await ops.query({ ...rest, ...(tag === undefined ? {} : { tags: tag }) }), 'read')
      emit(ctx.out, page, () => {
        if (page.items.length === 0) return 'no memories match'
        const lines = page.items.map((m) =>
          `${m.trust.toFixed(2)} ${m.level.padEnd(10)} ${m.id}  [${m.type}] ${m.summary}${m.tags.length === 0 ? '' : `  #${m.tags.join(' #')}`}`)
        if (page.next !== undefined) lines.push(`more: --cursor ${page.next}`)
        return lines.join('\n')
      })
    })
}
