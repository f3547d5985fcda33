import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { writeFile } from 'node:fs/promises'
import { createApiServer, type ApiServer } from '../../../src/http/index.js'
import { loadOrCreateApiToken, apiTokenPath } from '../../../src/api-access/index.js'
import { type NodeOperations } from '../../../src/operations/index.js'
import { createLocalOperations, type LocalOperations } from '../../../src/operations/local/index.js'
import { removeDaemonFile, writeDaemonFile } from '../../../src/api-access/daemon-file.js'
import { createKeystore } from '../../../src/keystore/index.js'
import { LocalNode } from '../../../src/node/index.js'
import { nodePaths } from '../../../src/home/index.js'

/**
 * A stand-in for `isnad start` over an initialized home: the API server on local operations, with
 * the LocalNode open for writing (so the CLI cannot open the data directory itself), advertised in
 * daemon.json under this test process's pid, which is alive. `calls` lists the operations served.
 */
export interface FakeDaemon {
  url: string
  token: string
  calls: string[]
  /** Replaces the token file with another valid token (the server keeps the real one). */
  spoilToken: () => Promise<void>
  restoreToken: () => Promise<void>
  stop: () => Promise<void>
}

/** Every method call on `ops`, by name, into `calls`. */
function recording (ops: NodeOperations, calls: string[]): NodeOperations {
  return new Proxy(ops, {
    get (target, prop, receiver) {
      const value: unknown = Reflect.get(target, prop, receiver)
      if (typeof value !== 'function') return value
      return (...args: unknown[]): unknown => {
        calls.push(String(prop))
        return Reflect.apply(value, target, args)
      }
    }
  })
}

export async function startFakeDaemon (home: string): Promise<FakeDaemon> {
  const paths = nodePaths(home)
  const operations: LocalOperations = createLocalOperations({
    node: await LocalNode.open({ home }), home, keystore: createKeystore({ directory: paths.keys })
  })
  const calls: string[] = []
  const token = await loadOrCreateApiToken(paths.data)
  let server: ApiServer
  try {
    server = await createApiServer({ node: recording(operations, calls), token })
  } catch (err) {
    await operations.close()
    throw err
  }
  await writeDaemonFile(paths.data, { pid: process.pid, url: server.url, started_at: new Date().toISOString() })
  const writeToken = async (value: string): Promise<void> => { await writeFile(apiTokenPath(paths.data), `${value}\n`, { mode: 0o600 }) }
  return {
    url: server.url,
    token,
    calls,
    spoilToken: async () => { await writeToken(randomBytes(32).toString('base64url')) },
    restoreToken: async () => { await writeToken(token) },
    stop: async () => {
      await removeDaemonFile(paths.data)
      await server.close()
      await operations.close()
    }
  }
}

/** The pid of a process that has exited, for a stale daemon.json. */
export async function deadPid (): Promise<number> {
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' })
  const pid = child.pid
  await new Promise((resolve) => child.on('close', resolve))
  if (pid === undefined) throw new Error('could not spawn a process')
  return pid
}

/**
 * CLI output with what differs between two homes made equal: the home's path, record ids, did:keys,
 * timestamps, signatures and witness-draw proofs (each home's agent draws with its own key), so the same commands on two homes (one local, one through a daemon) compare whole.
 */
export function normalize (text: string, home: string): string {
  return text
    .replaceAll(home, '<home>')
    .replace(/bafyrei[a-z2-7]+/g, '<cid>')
    .replace(/did:key:z[1-9A-HJ-NP-Za-km-z]+/g, '<did>')
    .replace(/keys\/z[1-9A-HJ-NP-Za-km-z]+\.json/g, 'keys/<did>.json')
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, '<time>')
    .replace(/"signature": "[A-Za-z0-9+/_-]{86}"/g, '"signature": "<sig>"')
    .replace(/"proof": "[A-Za-z0-9+/_-]{107}"/g, '"proof": "<proof>"')
}
