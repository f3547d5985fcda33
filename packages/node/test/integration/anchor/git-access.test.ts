import { execFileSync } from 'node:child_process'
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createKeystore } from '../../../src/keystore/index.js'
import { initHome, LocalNode } from '../../../src/node/index.js'
import { nodePaths } from '../../../src/home/index.js'

/*
 * anchors-v1 §2.1 F6: a git anchor's repository is read like a file. git runs in it and
 * hashes a blob of it, so a client of a daemon's API (or MCP) could otherwise make the node run git
 * in any directory on disk and sign the hash of any committed file there. The same allowance as
 * file anchors: never under the home's private files, and with an allowance (a daemon's
 * `--anchor-dir`) only under it, PATH_FORBIDDEN before NOT_FOUND.
 */

function git (repo: string, ...args: string[]): string {
  return execFileSync('git', ['-C', repo, ...args], {
    encoding: 'utf8',
    env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' }
  }).trim()
}

async function repoWith (dir: string, file: string, content: string): Promise<string> {
  await mkdir(dir, { recursive: true })
  git(dir, 'init', '-q')
  await writeFile(join(dir, file), content)
  git(dir, 'add', file)
  git(dir, 'commit', '-q', '-m', 'evidence')
  return git(dir, 'rev-parse', 'HEAD')
}

describe('git anchors read only where file anchors may (anchors-v1 §2.1 F6)', () => {
  let root: string
  let home: string
  let allowed: string
  let signer: Awaited<ReturnType<ReturnType<typeof createKeystore>['load']>>
  let memory: string

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'isnad-git-access-'))
    home = join(root, 'home')
    await initHome(home)
    allowed = join(root, 'allowed')
    const keystore = createKeystore({ directory: join(home, 'keys') })
    signer = await keystore.load(await keystore.defaultDid() as string)
    const node = await LocalNode.open({ home })
    try {
      memory = (await node.remember({ type: 'fact', summary: 'git access' }, signer)).id
    } finally {
      await node.close()
    }
  }, 60_000)
  afterAll(async () => { await rm(root, { recursive: true, force: true }) })

  /** The anchor attempt's error code (or OK), and how many anchors it added to the ledger. */
  async function attempt (repository: string, commit: string, fileDirs?: string[]): Promise<{ code: string, anchored: number }> {
    const anchors = async (): Promise<number> => {
      const dir = join(nodePaths(home).data, 'streams', 'default')
      const [instance] = await readdir(dir)
      const days = join(dir, instance as string)
      const texts = await Promise.all((await readdir(days)).map(async (d) => await readFile(join(days, d), 'utf8')))
      // each addAnchor is a batch of one: one memory.packed event (docs/ledger-packs.md)
      return texts.join('').split('"type":"memory.packed"').length - 1
    }
    const before = await anchors()
    const node = await LocalNode.open({ home, ...(fileDirs === undefined ? {} : { anchors: { fileDirs } }) })
    let code = 'OK'
    try {
      await node.addAnchor({ source: 'git', repository, commit, path: 'evidence.txt', memory }, signer)
    } catch (err) {
      code = (err as { code?: string }).code ?? String(err)
    } finally {
      await node.close()
    }
    // a refused anchor signs and stores nothing (opening a node adds session lines, never a record)
    return { code, anchored: await anchors() - before }
  }

  it('refuses a repository under the home\'s keys/ or .memory/, with or without an allowance', async () => {
    const inKeys = await repoWith(join(home, 'keys', 'repo'), 'evidence.txt', 'secret-ish\n')
    expect(await attempt(join(home, 'keys', 'repo'), inKeys)).toMatchObject({ code: 'PATH_FORBIDDEN', anchored: 0 })
    expect(await attempt(join(home, 'keys', 'repo'), inKeys, [home])).toMatchObject({ code: 'PATH_FORBIDDEN', anchored: 0 })
    const inData = await repoWith(join(home, '.memory', 'repo'), 'evidence.txt', 'data\n')
    expect(await attempt(join(home, '.memory', 'repo'), inData)).toMatchObject({ code: 'PATH_FORBIDDEN', anchored: 0 })
  }, 60_000)

  it('with an allowance (a daemon\'s --anchor-dir), reads only repositories under it; PATH_FORBIDDEN before NOT_FOUND', async () => {
    const elsewhere = join(root, 'elsewhere')
    const commit = await repoWith(elsewhere, 'evidence.txt', 'elsewhere\n')
    expect(await attempt(elsewhere, commit, [allowed])).toMatchObject({ code: 'PATH_FORBIDDEN', anchored: 0 })
    expect(await attempt(join(root, 'no-such-repo'), commit, [allowed])).toMatchObject({ code: 'PATH_FORBIDDEN', anchored: 0 })
    expect(await attempt(elsewhere, commit, [])).toMatchObject({ code: 'PATH_FORBIDDEN' }) // a daemon's default: nowhere

    const inside = join(allowed, 'repo')
    const good = await repoWith(inside, 'evidence.txt', 'allowed\n')
    expect(await attempt(inside, good, [allowed])).toEqual({ code: 'OK', anchored: 1 })
    expect((await attempt(join(allowed, 'missing'), good, [allowed])).code).toBe('NOT_FOUND')
  }, 60_000)

  it('without an allowance (the CLI, the library), any repository of the user but the home\'s private ones', async () => {
    const mine = join(root, 'mine')
    const commit = await repoWith(mine, 'evidence.txt', 'mine\n')
    expect(await attempt(mine, commit)).toEqual({ code: 'OK', anchored: 1 })
  }, 60_000)
})
