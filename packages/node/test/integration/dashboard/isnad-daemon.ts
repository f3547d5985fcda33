import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { join } from 'node:path'
import { REPO } from '../../fixtures/build-dist.js'

/** A real `isnad start` (dist/) on loopback, as a child process, until `stop`. */
export interface ChildDaemon {
  api: string
  addrs: string[]
  stop: () => Promise<void>
}

export async function startChildDaemon (home: string, bootstrap: string[] = []): Promise<ChildDaemon> {
  const args = [join(REPO, 'bin/isnad.js'), '--home', home, '--json', 'start', '--listen', '/ip4/127.0.0.1/tcp/0', ...bootstrap.flatMap((b) => ['--bootstrap', b])]
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, args, { env: { ...process.env, ISNAD_PASSPHRASE: '' } })
  let stderr = ''
  child.stderr.on('data', (d: Buffer) => { stderr += d.toString() })
  const exited = new Promise<void>((resolve) => child.once('close', () => { resolve() }))
  const started = await new Promise<{ api: string, addrs: string[] }>((resolve, reject) => {
    let stdout = ''
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString()
      const line = stdout.split('\n').find((l) => l.startsWith('{'))
      if (line !== undefined) resolve(JSON.parse(line) as { api: string, addrs: string[] })
    })
    void exited.then(() => { reject(new Error(`isnad start exited: ${stderr}`)) })
  })
  return {
    ...started,
    stop: async () => {
      child.kill('SIGTERM')
      await exited
    }
  }
}
