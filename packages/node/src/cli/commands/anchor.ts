import { resolve } from 'node:path'
import type { Command } from 'commander'
import type { AnchorSource } from '../../anchor/index.js'
import { IsnadError } from '../../errors/index.js'
import type { CommandContext } from '../command-context.js'
import { inputFor, runParsed, specOf, type OperationOutput } from '../invoke.js'
import { emit } from '../output.js'
import { assertAnchorable } from '../refusals.js'
import { renderView } from '../../operations/index.js'

interface AddOptions {
  file?: string
  cid?: string
  git?: string[]
  path?: string
  url?: string
  moltbook?: string
  blockchain?: string
  hash?: string
  as?: string
  quiet?: boolean
}

/** The one evidence source the options name (anchors-v1 §2); USAGE for none, several, or a bad combination. */
export function anchorSourceOf (opts: AddOptions): AnchorSource {
  const given = (['file', 'cid', 'git', 'url', 'moltbook', 'blockchain'] as const).filter((k) => opts[k] !== undefined)
  if (given.length !== 1) throw new IsnadError('USAGE', 'name exactly one of --file, --cid, --git, --url, --moltbook, --blockchain')
  if (opts.path !== undefined && opts.git === undefined) throw new IsnadError('USAGE', '--path names a file in a commit: use it with --git')
  if ((opts.hash !== undefined) !== (opts.blockchain !== undefined)) throw new IsnadError('USAGE', '--blockchain needs --hash <algorithm:hex> (and --hash goes with --blockchain only)')
  if (opts.file !== undefined) return { source: 'file', path: resolve(opts.file) }
  if (opts.cid !== undefined) return { source: 'cid', cid: opts.cid }
  if (opts.url !== undefined) return { source: 'url', url: opts.url }
  if (opts.moltbook !== undefined) return { source: 'moltbook', url: opts.moltbook }
  if (opts.blockchain !== undefined) return { source: 'blockchain', reference: opts.blockchain, hash: opts.hash ?? '' }
  const [repository, commit, ...rest] = opts.git ?? []
  if (repository === undefined || commit === undefined || rest.length > 0) throw new IsnadError('USAGE', '--git takes two values: <repo-path> <commit>')
  return { source: 'git', repository: resolve(repository), commit, ...(opts.path === undefined ? {} : { path: opts.path }) }
}

export function registerAnchor (program: Command, context: (cmd: Command) => CommandContext): void {
  const anchor = program.command('anchor').description('anchor memories to external evidence and check it (protocols/anchors-v1.md)')

  anchor.command('add')
    .description('sign an anchor of a stored memory to a file (imported as UnixFS), a CID, a git commit, a URL, a Moltbook post or a blockchain reference')
    .argument('<memory>', 'the memory id (CID)')
    .option('--file <path>', 'import the file as UnixFS (the CID `ipfs add --cid-version 1` gives) and anchor its CID')
    .option('--cid <cid>', 'anchor UnixFS content by its CID (served by this node or its peers)')
    .option('--git <repo-and-commit...>', 'a local git repository and a commit in it: --git <repo-path> <commit>')
    .option('--path <file>', 'with --git: anchor this file\'s bytes at the commit')
    .option('--url <url>', 'anchor the sha2-256 of what the URL serves now')
    .option('--moltbook <url>', 'anchor a Moltbook post by its URL')
    .option('--blockchain <ref>', 'anchor a blockchain reference (e.g. a CAIP-2 chain id and a transaction); needs --hash')
    .option('--hash <algorithm:hex>', 'with --blockchain: the hash the transaction commits to')
    .option('--as <did>', 'sign with this key instead of the default')
    .option('-q, --quiet', 'print only the anchor\'s id')
    .action(async (memory: string, opts: AddOptions, cmd: Command) => {
      const ctx = context(cmd)
      const source = anchorSourceOf(opts)
      const input = await inputFor('addAnchor', { id: memory, anchor: source, ...(opts.as === undefined ? {} : { as: opts.as }) })
      await ctx.signerDid(opts.as)
      await assertAnchorable(ctx, { ...source, memory })
      const result = await runParsed(ctx, await specOf('addAnchor'), input) as OperationOutput<'addAnchor'>
      emit(ctx.out, result, () => opts.quiet === true ? result.anchor : `anchor ${result.anchor}\n\n${renderView(result.memory)}`)
    })
}
