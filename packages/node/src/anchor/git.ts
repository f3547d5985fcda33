import { execFile } from 'node:child_process'
import { stat } from 'node:fs/promises'
import { isAbsolute, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { IsnadError } from '../errors/index.js'
import { GIT_TIMEOUT_MS, MAX_GIT_BLOB_BYTES } from './constants.js'
import { sha256Hex } from './url.js'
import { splitHash, type AnchorClaim, type AnchorChecker, type CheckOutcome } from './types.js'

/*
 * git_commit anchors (anchors-v1 V2). Reference: `<repository>#<commit>` or
 * `<repository>#<commit>:<path>`; hash: `git-sha1:<commit>` or `git-sha256:<commit>` for a commit,
 * `sha2-256:<hex>` of the file's bytes at that commit when a path is named. Git does the object
 * work (both object formats) through the `git` CLI, run without a shell.
 */

export type GitObjectFormat = 'sha1' | 'sha256'

export interface GitReference {
  repository: string
  commit: string
  path?: string
}

const OID_LENGTH: Record<GitObjectFormat, number> = { sha1: 40, sha256: 64 }

export function parseGitReference (reference: string): GitReference | null {
  const match = /^(.+)#([0-9a-f]{40}|[0-9a-f]{64})(?::(.+))?$/.exec(reference)
  if (match === null) return null
  const [, repository = '', commit = '', path] = match
  return path === undefined ? { repository, commit } : { repository, commit, path }
}

export function formatGitReference ({ repository, commit, path }: GitReference): string {
  return `${repository}#${commit}${path === undefined ? '' : `:${path}`}`
}

/** Runs git in `repo`; rejects with the error of execFile (ENOENT when git is not installed). */
async function git (repo: string, args: string[], signal?: AbortSignal, maxBuffer = 1024 * 1024): Promise<Buffer> {
  return await new Promise((resolvePromise, reject) => {
    execFile('git', ['-C', repo, ...args], {
      encoding: 'buffer', timeout: GIT_TIMEOUT_MS, maxBuffer, ...(signal === undefined ? {} : { signal }), env: { ...process.env, GIT_TERMINAL_PROMPT: '0' }
    }, (err, stdout) => {
      if (err !== null) reject(err)
      else resolvePromise(stdout)
    })
  })
}

async function gitText (repo: string, args: string[], signal?: AbortSignal): Promise<string> {
  return (await git(repo, args, signal)).toString('utf8').trim()
}

function isMissingGit (err: unknown): boolean {
  return (err as NodeJS.ErrnoException | undefined)?.code === 'ENOENT'
}

async function isDirectory (path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory()
  } catch {
    return false
  }
}

/** A repository named by an absolute path or a file: URL, as a local path; null for a remote. */
export function localRepositoryPath (repository: string): string | null {
  if (repository.startsWith('file:')) {
    try {
      return fileURLToPath(repository)
    } catch {
      return null
    }
  }
  return isAbsolute(repository) ? repository : null
}

export async function objectFormatOf (repo: string, signal?: AbortSignal): Promise<GitObjectFormat> {
  const format = await gitText(repo, ['rev-parse', '--show-object-format'], signal)
  if (format !== 'sha1' && format !== 'sha256') throw new IsnadError('USAGE', `${repo} uses the git object format ${format}, which isnad does not know`)
  return format
}

/**
 * For `isnad anchor add --git <repo> <commit> [--path]`: the full commit id, the anchor's reference
 * (a file: URL of the repository) and hash. NOT_FOUND when the commit or path is not there.
 */
export async function resolveGitAnchor (repoPath: string, revision: string, path?: string): Promise<AnchorClaim> {
  const repo = resolve(repoPath)
  if (!await isDirectory(repo)) throw new IsnadError('NOT_FOUND', `no directory ${repo}`)
  let format: GitObjectFormat
  let commit: string
  try {
    format = await objectFormatOf(repo)
    commit = await gitText(repo, ['rev-parse', '--verify', '--quiet', '--end-of-options', `${revision}^{commit}`])
  } catch (cause) {
    if (isMissingGit(cause)) throw new IsnadError('USAGE', 'git_commit anchors need the git command, which is not installed', { cause })
    throw new IsnadError('NOT_FOUND', `${repo} has no commit ${revision}`, { cause })
  }
  const reference = formatGitReference({ repository: pathToFileURL(repo).href, commit, ...(path === undefined ? {} : { path }) })
  if (path === undefined) return { type: 'git_commit', reference, hash: `git-${format}:${commit}` }
  const blob = await readBlob(repo, commit, path).catch((cause: unknown) => {
    throw new IsnadError('NOT_FOUND', `commit ${commit} has no file ${path}`, { cause })
  })
  return { type: 'git_commit', reference, hash: `sha2-256:${sha256Hex(blob)}` }
}

async function readBlob (repo: string, commit: string, path: string, signal?: AbortSignal): Promise<Buffer> {
  return await git(repo, ['cat-file', 'blob', `${commit}:${path}`], signal, MAX_GIT_BLOB_BYTES)
}

async function hasCommit (repo: string, commit: string, signal: AbortSignal): Promise<boolean> {
  try {
    return await gitText(repo, ['cat-file', '-t', commit], signal) === 'commit'
  } catch (err) {
    if (isMissingGit(err) || signal.aborted) throw err
    return false
  }
}

export interface GitCheckerInit {
  /** Local repositories searched besides the one the reference names (when that one is local). */
  repositories?: readonly string[]
}

/**
 * Checks a git_commit anchor in local repositories: the reference's own when it is local, then the
 * configured ones. The commit must exist (in a repository of the right object format); a named path
 * must hold the anchored bytes. A repository that lacks the commit when the reference names it
 * is a mismatch; no local repository at all is unreachable; no git is unverifiable.
 */
export function createGitChecker (init: GitCheckerInit = {}): AnchorChecker {
  return async (anchor, signal): Promise<CheckOutcome> => {
    const ref = parseGitReference(anchor.reference)
    if (ref === null) return { state: 'unverifiable', reason: `${anchor.reference} is not <repository>#<commit>[:<path>]` }
    const { algorithm, hex } = splitHash(anchor.hash)
    const expectedFormat: GitObjectFormat = ref.commit.length === OID_LENGTH.sha1 ? 'sha1' : 'sha256'
    if (ref.path === undefined && (algorithm !== `git-${expectedFormat}` || hex !== ref.commit)) {
      return { state: 'mismatch', reason: `the anchor's hash ${anchor.hash} is not git-${expectedFormat}:${ref.commit}, the commit it references` }
    }
    if (ref.path !== undefined && algorithm !== 'sha2-256') {
      return { state: 'unverifiable', reason: `hash algorithm ${algorithm} is not checked here; a path in a commit is anchored by sha2-256` }
    }
    const own = localRepositoryPath(ref.repository)
    const candidates = [...new Set([...(own === null ? [] : [own]), ...(init.repositories ?? [])])]
    let ownAvailable = false
    try {
      for (const repo of candidates) {
        if (!await isDirectory(repo)) continue
        const format = await objectFormatOf(repo, signal).catch((err: unknown) => {
          if (isMissingGit(err)) throw err
          return null
        })
        if (format === null) continue
        if (repo === own) ownAvailable = true
        if (format !== expectedFormat || !await hasCommit(repo, ref.commit, signal)) continue
        if (ref.path === undefined) return { state: 'verified', reason: `commit ${ref.commit} exists in ${repo} (${format})` }
        return await checkPath(repo, ref, hex, signal)
      }
    } catch (err) {
      if (isMissingGit(err)) return { state: 'unverifiable', reason: 'git is not installed on this node' }
      if (signal.aborted) return { state: 'unreachable', reason: `git did not answer in time for ${ref.commit}` }
      throw err
    }
    if (ownAvailable) return { state: 'mismatch', reason: `the repository ${own ?? ''} has no ${expectedFormat} commit ${ref.commit}` }
    return { state: 'unreachable', reason: `no local repository holds commit ${ref.commit} (${ref.repository} is not available here)` }
  }
}

async function checkPath (repo: string, ref: GitReference, hex: string, signal: AbortSignal): Promise<CheckOutcome> {
  const path = ref.path ?? ''
  let blob: Buffer
  try {
    blob = await readBlob(repo, ref.commit, path, signal)
  } catch (err) {
    if (isMissingGit(err) || signal.aborted) throw err
    return { state: 'mismatch', reason: `commit ${ref.commit} in ${repo} has no file ${path}` }
  }
  const now = sha256Hex(blob)
  if (now === hex) return { state: 'verified', reason: `${path} at commit ${ref.commit} in ${repo} hashes to the anchored sha2-256` }
  return { state: 'mismatch', reason: `${path} at commit ${ref.commit} in ${repo} hashes to sha2-256:${now}, not the anchored hash` }
}
