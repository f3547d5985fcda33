import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import { link, mkdir, open, readFile, rm, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { ioError, syncDirectory } from '../fs/index.js'
import { IsnadError } from '../errors/index.js'
import { API_TOKEN_BYTES, API_TOKEN_FILE, API_TOKEN_MODE, API_TOKEN_PATTERN } from './constants.js'

function errnoOf (err: unknown): string | undefined {
  return err instanceof Error && 'code' in err && typeof err.code === 'string' ? err.code : undefined
}

/** `<dataDir>/api.token`: dataDir is the node's `.memory/` directory (NodePaths.data). */
export function apiTokenPath (dataDir: string): string {
  return join(dataDir, API_TOKEN_FILE)
}

/**
 * The token the daemon's API accepts, for clients (the CLI while a daemon runs). NOT_FOUND when
 * there is none (no daemon ever started here); IO_ERROR when the file is malformed or unreadable.
 */
export async function readApiToken (dataDir: string): Promise<string> {
  const token = await readTokenFile(apiTokenPath(dataDir))
  if (token === undefined) {
    throw new IsnadError('NOT_FOUND', `no API token at ${apiTokenPath(dataDir)}; is a daemon running (\`isnad start\`)?`)
  }
  return token
}

/**
 * The token of this data directory, created on first use: 32 random bytes as base64url in
 * `.memory/api.token`, mode 0600. A token file others can read is no longer a secret, so it is
 * replaced by a fresh one rather than trusted. The new file appears whole or not at all: it is
 * written and synced under a temporary name, then hard-linked to its name, which fails if another
 * process created it first, and then that process's token is used.
 */
export async function loadOrCreateApiToken (dataDir: string): Promise<string> {
  const path = apiTokenPath(dataDir)
  const existing = await readTokenFile(path)
  if (existing !== undefined) {
    if (((await stat(path)).mode & 0o077) === 0) return existing
    await rm(path, { force: true })
  }
  await mkdir(dataDir, { recursive: true })
  const token = randomBytes(API_TOKEN_BYTES).toString('base64url')
  const temporary = `${path}.${randomBytes(6).toString('hex')}.tmp`
  const handle = await open(temporary, 'wx', API_TOKEN_MODE)
  try {
    await handle.writeFile(`${token}\n`)
    await handle.chmod(API_TOKEN_MODE) // the umask may have narrowed `open`'s mode; never widened it
    await handle.sync()
  } finally {
    await handle.close()
  }
  try {
    await link(temporary, path)
  } catch (err) {
    if (errnoOf(err) !== 'EEXIST') throw ioError('create', path, err)
    return await readApiToken(dataDir)
  } finally {
    await rm(temporary, { force: true })
  }
  await syncDirectory(dataDir)
  return token
}

/**
 * Compares a presented token with the expected one in time independent of where they differ: both
 * are hashed first, so the comparison is between equal-length digests and leaks not even the length.
 */
export function tokensEqual (presented: string, expected: string): boolean {
  const a = createHash('sha256').update(presented).digest()
  const b = createHash('sha256').update(expected).digest()
  return timingSafeEqual(a, b)
}

async function readTokenFile (path: string): Promise<string | undefined> {
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (err) {
    if (errnoOf(err) === 'ENOENT') return undefined
    throw ioError('read', path, err)
  }
  const token = text.replace(/\n$/, '')
  if (!API_TOKEN_PATTERN.test(token)) throw new IsnadError('IO_ERROR', `${path} does not hold an API token`)
  return token
}
