import type { Command } from 'commander'
import { InvalidArgumentError } from 'commander'
import { IsnadError } from '../../errors/index.js'
import { MAX_SELECT_LIMIT, type SelectedMemory, type SelectRequest } from '../../fdr/index.js'
import { CONTENT_TYPES, TRUST_LEVELS, isIsoTimestamp, type TrustLevel } from '../../schema/index.js'
import type { MemoryQuery } from '../../record-index/index.js'
import { bottomOfLevel, formatTrustScore } from '../../trust/index.js'
import type { CommandContext } from '../command-context.js'
import { invoke } from '../invoke.js'
import { emit } from '../output.js'
import { choice, collect, parsePositiveInt, parseUnitInterval } from '../option-parsers.js'

/** The store's query, except that the repeatable option is `--tag` (one tag each), plus selection. */
type QueryOptions = Omit<MemoryQuery, 'tags'> & {
  tag?: string[]
  minLevel?: TrustLevel
  select?: boolean
  text?: string
  selector?: string
  method?: NonNullable<SelectRequest['method']>
}

const PROOF_METHODS = ['isnad-ed25519', 'merkle-inclusion', 'hash'] as const

function timestamp (value: string): string {
  if (!isIsoTimestamp(value)) throw new InvalidArgumentError('must be a UTC timestamp like 2026-02-05T16:00:00Z')
  return value
}

export function registerQuery (program: Command, context: (cmd: Command) => CommandContext): void {
  program.command('query')
    .description('memories by tags, minimum trust, type, author and time; most trusted and newest first')
    .option('--tag <tag>', 'required tag (repeatable: all must match)', collect)
    .option('--min-trust <0..1>', 'minimum trust score (held within its level\'s band: 0.3 is Attested or above)', parseUnitInterval)
    .option('--min-level <level>', `minimum trust level: ${TRUST_LEVELS.join(' < ')}`, choice(TRUST_LEVELS))
    .option('-t, --type <type>', 'content type', choice(CONTENT_TYPES))
    .option('--author <did>', 'author did:key')
    .option('--since <time>', 'created at or after (ISO-8601 UTC)', timestamp)
    .option('--until <time>', 'created before (ISO-8601 UTC)', timestamp)
    .option('--limit <n>', 'page size (max 1000; with --select max 100, default 20)', parsePositiveInt)
    .option('--cursor <cursor>', 'continue after a previous page')
    .option('--select', 'FDR-Memory selection: each result with reason, confidence, verified and evidence (a proof); the trace goes to the ledger')
    .option('--text <words>', 'with --select: words that must all appear in summary, body or tags')
    .option('--selector <actor>', 'with --select: who selects (default: the default agent key)')
    .option('--method <method>', 'with --select: the evidence\'s proof method (default isnad-ed25519)', choice(PROOF_METHODS))
    .action(async (opts: QueryOptions, cmd: Command) => {
      const ctx = context(cmd)
      if (opts.select === true) {
        await runSelect(ctx, opts)
        return
      }
      if (opts.text !== undefined || opts.selector !== undefined || opts.method !== undefined) {
        throw new IsnadError('USAGE', '--text, --selector and --method go with --select')
      }
      // commander sets only the options given, so the rest map onto the query as they are.
      const { tag, ...rest } = opts
      const page = await invoke(ctx, 'query', { ...rest, ...(tag === undefined ? {} : { tags: tag }) })
      emit(ctx.out, page, () => {
        if (page.items.length === 0) return 'no memories match'
        const lines = page.items.map((m) =>
          `${formatTrustScore(m.trust)} ${m.level.padEnd(10)} ${m.id}  [${m.type}] ${m.summary}${m.tags.length === 0 ? '' : `  #${m.tags.join(' #')}`}`)
        if (page.next !== undefined) lines.push(`more: --cursor ${page.next}`)
        return lines.join('\n')
      })
    })
}

/** `query --select`: the selection is printed (`--json`: the SelectedMemory list, checkable by `isnad verify`). */
async function runSelect (ctx: CommandContext, opts: QueryOptions): Promise<void> {
  if (opts.since !== undefined || opts.until !== undefined || opts.cursor !== undefined) {
    throw new IsnadError('USAGE', '--since, --until and --cursor do not go with --select')
  }
  if (opts.limit !== undefined && opts.limit > MAX_SELECT_LIMIT) throw new IsnadError('USAGE', `--select takes at most ${MAX_SELECT_LIMIT} results`)
  const minTrust = minTrustOf(opts)
  const request: SelectRequest = {
    selector: opts.selector ?? await ctx.signerDid(),
    ...(opts.text === undefined ? {} : { query: opts.text }),
    ...(opts.tag === undefined ? {} : { tags: opts.tag }),
    ...(opts.author === undefined ? {} : { author: opts.author }),
    ...(opts.type === undefined ? {} : { type: opts.type }),
    ...(minTrust === undefined ? {} : { minTrust }),
    ...(opts.limit === undefined ? {} : { limit: opts.limit }),
    ...(opts.method === undefined ? {} : { method: opts.method })
  }
  const { selected } = await invoke(ctx, 'select', request)
  emit(ctx.out, selected, () => renderSelection(selected))
}

/** --min-level as a score bound (a level is the scores from its lower bound up), the stricter of the two. */
function minTrustOf (opts: QueryOptions): number | undefined {
  if (opts.minLevel === undefined) return opts.minTrust
  return Math.max(opts.minTrust ?? 0, bottomOfLevel(opts.minLevel))
}

function renderSelection (selected: SelectedMemory[]): string {
  if (selected.length === 0) return 'no memories selected'
  return selected.map((s) => [
    `${formatTrustScore(s.confidence)} ${s.verified ? 'verified' : 'UNVERIFIED'} ${s.ref.worldId}` +
      (s.evidence === undefined ? '' : `  (${s.evidence.method} by ${s.evidence.verifiedBy} at ${new Date(s.evidence.verifiedAt).toISOString()})`),
    `    ${s.reason}`
  ].join('\n')).join('\n')
}
