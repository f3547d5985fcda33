import { spawn } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

export const REPO = resolve(import.meta.dirname, '../../..')
const BIN = join(REPO, 'bin/isnad.js')

export interface CliResult {
  code: number
  stdout: string
  stderr: string
  /** stdout parsed as JSON (commands run with --json). */
  json: <T = unknown>() => T
  /** The `{ error: { code } }` a --json command printed on stderr. */
  errorCode: () => string | undefined
}

/** Runs the built CLI (`bin/isnad.js`, compiled by `npm test`'s build step) as a child process. */
export async function runIsnad (args: string[], options: { home?: string, env?: NodeJS.ProcessEnv, stdin?: string, cwd?: string } = {}): Promise<CliResult> {
  const env = { ...process.env, ...options.env }
  delete env.ISNAD_PASSPHRASE
  if (options.env?.ISNAD_PASSPHRASE !== undefined) env.ISNAD_PASSPHRASE = options.env.ISNAD_PASSPHRASE
  const child = spawn(process.execPath, [BIN, ...(options.home === undefined ? [] : ['--home', options.home]), ...args], { env, ...(options.cwd === undefined ? {} : { cwd: options.cwd }) })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (d: Buffer) => { stdout += d.toString() })
  child.stderr.on('data', (d: Buffer) => { stderr += d.toString() })
  child.stdin.end(options.stdin ?? '')
  const code = await new Promise<number>((resolve) => child.on('close', (c) => { resolve(c ?? -1) }))
  return {
    code,
    stdout,
    stderr,
    json: <T>() => JSON.parse(stdout) as T,
    errorCode: () => {
      const line = stderr.trim().split('\n').find((l) => l.startsWith('{'))
      return line === undefined ? undefined : (JSON.parse(line) as { error: { code: string } }).error.code
    }
  }
}

export async function withTempDir<T> (fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'isnad-cli-'))
  try {
    return await fn(dir)
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}
