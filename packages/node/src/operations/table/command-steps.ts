import { stat } from 'node:fs/promises'
import { resolve } from 'node:path'
import type { AnchorSource } from '../../anchor/index.js'
import { IsnadError } from '../../errors/index.js'
import type { Bundle } from '../../schema/index.js'
import type { CliComposed, CliNode } from './spec.js'

/*
 * What a command line does around its operation that its spec's `cli` declaration names: an
 * anchor's evidence built from its options, and the refusals made before the operation opens
 * anything to write (docs/threat-model.md, "Damage to the data directory"): opening a node for
 * writing appends instance, lease and lifecycle lines, so what can be checked read-only, or with
 * nothing open, is checked first. Through a daemon the checks are the daemon's own.
 */

const SOURCES = ['file', 'cid', 'git', 'url', 'moltbook', 'blockchain'] as const

/** `anchor add`'s options, one per evidence source (anchors-v1 §2), and the source they name: exactly one. */
export const ANCHOR_SOURCE_OPTIONS: CliComposed = {
  options: {
    file: { value: 'path', description: 'import the file as UnixFS (the CID `ipfs add --cid-version 1` gives) and anchor its CID' },
    cid: { value: 'cid', description: 'anchor UnixFS content by its CID (served by this node or its peers)' },
    git: { value: 'repo-and-commit', many: true, description: 'a local git repository and a commit in it: --git <repo-path> <commit>' },
    path: { value: 'file', description: 'with --git: anchor this file\'s bytes at the commit' },
    url: { value: 'url', description: 'anchor the sha2-256 of what the URL serves now' },
    moltbook: { value: 'url', description: 'anchor a Moltbook post by its URL' },
    blockchain: { value: 'ref', description: 'anchor a blockchain reference (e.g. a CAIP-2 chain id and a transaction); needs --hash' },
    hash: { value: 'algorithm:hex', description: 'with --blockchain: the hash the transaction commits to' }
  },
  build: (given) => anchorSourceOf(given)
}

/** The one evidence source the options name; USAGE for none, several, or a bad combination. A local path is made absolute (the daemon's directory is not the caller's). */
export function anchorSourceOf (given: Readonly<Record<string, string | string[] | undefined>>): AnchorSource {
  const one = (name: string): string | undefined => given[name] as string | undefined
  const named = SOURCES.filter((k) => given[k] !== undefined)
  if (named.length !== 1) throw new IsnadError('USAGE', `name exactly one of ${SOURCES.map((s) => `--${s}`).join(', ')}`)
  if (given.path !== undefined && given.git === undefined) throw new IsnadError('USAGE', '--path names a file in a commit: use it with --git')
  if ((given.hash !== undefined) !== (given.blockchain !== undefined)) throw new IsnadError('USAGE', '--blockchain needs --hash <algorithm:hex> (and --hash goes with --blockchain only)')
  const file = one('file')
  if (file !== undefined) return { source: 'file', path: resolve(file) }
  const cid = one('cid')
  if (cid !== undefined) return { source: 'cid', cid }
  const url = one('url')
  if (url !== undefined) return { source: 'url', url }
  const moltbook = one('moltbook')
  if (moltbook !== undefined) return { source: 'moltbook', url: moltbook }
  const blockchain = one('blockchain')
  if (blockchain !== undefined) return { source: 'blockchain', reference: blockchain, hash: one('hash') ?? '' }
  const [repository, commit, ...rest] = (given.git ?? []) as string[]
  if (repository === undefined || commit === undefined || rest.length > 0) throw new IsnadError('USAGE', '--git takes two values: <repo-path> <commit>')
  const path = one('path')
  return { source: 'git', repository: resolve(repository), commit, ...(path === undefined ? {} : { path }) }
}

/** NOT_FOUND unless the memory is stored: `show` only reads, so it opens the node read-only (or asks the daemon). */
export async function assertMemoryStored ({ id }: { id: string }, node: CliNode): Promise<void> {
  await node.call('show', { id })
}

/** An anchor's local file (the same NOT_FOUND / USAGE as the node's), and its memory. */
export async function assertAnchorable (input: { id: string, anchor: AnchorSource }, node: CliNode): Promise<void> {
  const { anchor } = input
  if (anchor.source === 'file' && !node.daemon) {
    const info = await stat(anchor.path).catch((cause: unknown) => { throw new IsnadError('NOT_FOUND', `no file ${anchor.path}`, { cause }) })
    if (!info.isFile()) throw new IsnadError('USAGE', `${anchor.path} is not a regular file`)
  }
  await assertMemoryStored(input, node)
}

/**
 * Every record of a bundle verified before the node is opened for writing: a refused bundle leaves
 * the data directory byte for byte as it was; ingest checks them again. The first bad record by
 * position is named as ingest names it (`record #N: …`).
 */
export async function assertBundleVerifies ({ bundle }: { bundle: Bundle }): Promise<void> {
  // Loaded when an import runs, not with the table on every CLI start-up.
  const [{ nodeCryptoVerifier }, { verifyRecordAsync }] = await Promise.all([import('../../fast-crypto/index.js'), import('../../record/index.js')])
  const now = Date.now()
  const verdicts = await Promise.allSettled(bundle.records.map(async (record) => await verifyRecordAsync(record, { verifier: nodeCryptoVerifier, now })))
  const index = verdicts.findIndex((verdict) => verdict.status === 'rejected')
  const failed = verdicts[index]
  if (failed?.status !== 'rejected') return
  const err: unknown = failed.reason
  if (!(err instanceof IsnadError)) throw err
  throw new IsnadError(err.code, `record #${index + 1}: ${err.message}`, { details: { index, ...err.details }, cause: err })
}
