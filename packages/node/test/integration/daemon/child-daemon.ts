import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { REPO } from '../../fixtures/build-dist.js'

/** One line of a daemon's log (src/log): a JSON object on stderr. */
export type LogLine = Record<string, unknown> & { time: string, level: string, msg: string }

/** A real `isnad start` (dist/, `--json`) as a child process, its stderr kept and parsed. */
export interface ChildDaemon {
  peerId: string
  api: string
  dashboard: string
  addrs: string[]
  pid: number
  /** The JSON lines on stderr so far. */
  log: () => LogLine[]
  stderr: () => string
  /** Resolves with the first log line matching `match`, polling until `timeoutMs`. */
  waitForLog: (what: string, match: (line: LogLine) => boolean, timeoutMs?: number) => Promise<LogLine>
  /** SIGTERM, then the exit. */
  stop: () => Promise<void>
}

export async function startChild (home: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<ChildDaemon> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ISNAD_PASSPHRASE: '', ...env }
  if (env.ISNAD_LOG_LEVEL === undefined) delete childEnv.ISNAD_LOG_LEVEL
  const child = spawn(process.execPath, [join(REPO, 'bin/isnad.js'), '--home', home, '--json', 'start', ...args], { env: childEnv })
  let stderr = ''
  child.stderr.on('data', (d: Buffer) => { stderr += d.toString() })
  const exited = new Promise<void>((resolve) => child.once('close', () => { resolve() }))
  const started = await new Promise<{ peer_id: string, api: string, dashboard: string, addrs: string[] }>((resolve, reject) => {
    let stdout = ''
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString()
      const line = stdout.split('\n').find((l) => l.startsWith('{'))
      if (line !== undefined) resolve(JSON.parse(line) as { peer_id: string, api: string, dashboard: string, addrs: string[] })
    })
    void exited.then(() => { reject(new Error(`isnad start exited: ${stderr}`)) })
  })
  const log = (): LogLine[] => stderr.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as LogLine)
  return {
    peerId: started.peer_id,
    api: started.api,
    dashboard: started.dashboard,
    addrs: started.addrs,
    pid: child.pid ?? -1,
    log,
    stderr: () => stderr,
    waitForLog: async (what, match, timeoutMs = 60_000) => {
      const until = Date.now() + timeoutMs
      for (;;) {
        const found = log().find(match)
        if (found !== undefined) return found
        if (Date.now() > until) throw new Error(`no log line for ${what} within ${timeoutMs} ms; stderr:\n${stderr}`)
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
    },
    stop: async () => {
      child.kill('SIGTERM')
      await exited
    }
  }
}
