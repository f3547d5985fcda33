import { execFileSync } from 'node:child_process'
import { link, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { assertFileAnchorAllowed, openAnchorFile, type FileAnchorAccess } from '../../../src/anchor/index.js'
import { initHome } from '../../../src/node/index.js'
import { homePrivatePaths, type NodePaths } from '../../../src/home/index.js'

/*
 * anchors-v1 §2.1 on a real file system: a file anchor never reads the home's private files, however
 * the path reaches them (directly, a symlink, `..`, a hard link), and with an allowance only reads
 * under it. The HTTP, MCP and two-daemon cases are in file-anchor-daemons.test.ts and mcp-stdio.test.ts.
 */

describe('file anchor access', () => {
  let root: string
  let paths: NodePaths
  let keyFile: string
  let outside: string
  let access: FileAnchorAccess

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'isnad-file-access-'))
    const home = join(root, 'home')
    const init = await initHome(home)
    paths = init.paths
    keyFile = init.defaultKey.file
    outside = join(root, 'outside')
    await mkdir(join(home, 'docs'), { recursive: true })
    await writeFile(join(home, 'docs', 'report.txt'), 'a report\n')
    await mkdir(outside)
    await writeFile(join(outside, 'notes.txt'), 'notes\n')
    access = homePrivatePaths(paths)
  })

  afterAll(async () => { await rm(root, { recursive: true, force: true }) })

  async function codeOf (path: string, with_: FileAnchorAccess = access): Promise<string> {
    try {
      const { handle } = await openAnchorFile(path, with_)
      await handle.close()
      return 'OK'
    } catch (err) {
      return (err as { code?: string }).code ?? String(err)
    }
  }

  it('reads an ordinary file of the user, anywhere, without an allowance', async () => {
    expect(await codeOf(join(paths.home, 'docs', 'report.txt'))).toBe('OK')
    expect(await codeOf(join(outside, 'notes.txt'))).toBe('OK')
  })

  it('refuses every private file of the home: key files, the node keys, the API token, the writer lock', async () => {
    const privateFiles = [
      keyFile,
      join(paths.keys, 'default'),
      ...(await readdir(join(paths.keys, 'node'))).map((name) => join(paths.keys, 'node', name)),
      join(paths.data, 'api.token'),
      join(paths.data, 'index', 'records', 'LOCK')
    ]
    await writeFile(join(paths.data, 'api.token'), `${'a'.repeat(43)}\n`, { mode: 0o600 })
    for (const file of privateFiles) expect(await codeOf(file), file).toBe('PATH_FORBIDDEN')
  })

  it('refuses a symlink to a key file, a symlink to keys/, and a `..` path into keys/', async () => {
    await symlink(keyFile, join(outside, 'innocent.json'))
    await symlink(paths.keys, join(outside, 'k'))
    const name = keyFile.slice(paths.keys.length + 1)
    expect(await codeOf(join(outside, 'innocent.json'))).toBe('PATH_FORBIDDEN')
    expect(await codeOf(join(outside, 'k', name))).toBe('PATH_FORBIDDEN')
    expect(await codeOf(`${paths.home}/docs/../keys/${name}`)).toBe('PATH_FORBIDDEN')
    expect(await codeOf(`${outside}/../home/./keys/${name}`)).toBe('PATH_FORBIDDEN')
  })

  it('refuses a hard link elsewhere to a key file (same inode)', async () => {
    const hard = join(outside, 'copy.json')
    await link(keyFile, hard)
    expect(await codeOf(hard)).toBe('PATH_FORBIDDEN')
  })

  it('does not take a name beginning with `..` inside keys/ for a way out', async () => {
    await writeFile(join(paths.keys, '..hidden'), 'x')
    expect(await codeOf(join(paths.keys, '..hidden'))).toBe('PATH_FORBIDDEN')
  })

  it('with an allowance, reads only under the allowed directories, and still never keys/ inside them', async () => {
    const allowHome = { ...access, allowed: [paths.home] }
    expect(await codeOf(join(paths.home, 'docs', 'report.txt'), allowHome)).toBe('OK')
    expect(await codeOf(join(outside, 'notes.txt'), allowHome)).toBe('PATH_FORBIDDEN')
    expect(await codeOf(keyFile, allowHome)).toBe('PATH_FORBIDDEN')
    // A symlink inside the allowed directory pointing out of it is judged by where it points.
    await symlink(join(outside, 'notes.txt'), join(paths.home, 'docs', 'out.txt'))
    expect(await codeOf(join(paths.home, 'docs', 'out.txt'), allowHome)).toBe('PATH_FORBIDDEN')
    const none = { ...access, allowed: [] }
    expect(await codeOf(join(paths.home, 'docs', 'report.txt'), none)).toBe('PATH_FORBIDDEN')
  })

  it('says PATH_FORBIDDEN, not NOT_FOUND, for a missing file outside the allowance (no existence oracle)', async () => {
    const allowDocs = { ...access, allowed: [join(paths.home, 'docs')] }
    await expect(assertFileAnchorAllowed('/nonexistent/secret', allowDocs)).rejects.toMatchObject({ code: 'PATH_FORBIDDEN' })
    await expect(assertFileAnchorAllowed(join(paths.home, 'docs', 'missing'), allowDocs)).rejects.toMatchObject({ code: 'NOT_FOUND' })
  })

  it('refuses a FIFO and a directory as not regular files, without hanging', async () => {
    const fifo = join(outside, 'pipe')
    execFileSync('mkfifo', [fifo])
    expect(await codeOf(fifo)).toBe('USAGE')
    expect(await codeOf(outside)).toBe('USAGE')
  })

  it('reads through the descriptor it checked', async () => {
    const { handle, realPath } = await openAnchorFile(join(paths.home, 'docs', 'report.txt'), access)
    try {
      expect(realPath).toBe(join(paths.home, 'docs', 'report.txt'))
      expect((await handle.readFile()).toString()).toBe('a report\n')
    } finally {
      await handle.close()
    }
    expect(await readFile(keyFile, 'utf8')).toContain('"seed"') // the fixture's key file is a real, plain one
  })
})


