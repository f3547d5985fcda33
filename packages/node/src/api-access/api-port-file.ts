import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { IsnadError } from '../errors/index.js'
import { errnoOf, writeFileAtomic } from '../fs/index.js'
import { API_PORT_FILE } from './constants.js'

/*
 * The API port a home keeps across restarts, `.memory/api.port` (api-port.ts). Apart from the
 * server, so `isnad status` reads it without loading the HTTP stack.
 */

/** `<dataDir>/api.port` */
export function apiPortPath (dataDir: string): string {
  return join(dataDir, API_PORT_FILE)
}

/** The kept port, or undefined when none was kept yet; SCHEMA_INVALID for a file that holds no port. */
export async function readKeptApiPort (dataDir: string): Promise<number | undefined> {
  const path = apiPortPath(dataDir)
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (err) {
    if (errnoOf(err) === 'ENOENT') return undefined
    throw new IsnadError('IO_ERROR', `cannot read ${path}: ${errnoOf(err) ?? String(err)}`, { cause: err })
  }
  const port = /^\s*(\d{1,5})\s*$/.test(text) ? Number(text) : NaN
  if (!isPort(port)) {
    throw new IsnadError('SCHEMA_INVALID', `${path} holds ${JSON.stringify(text.slice(0, 20))}, not a port 1-65535: fix it, remove it, or start with --api-port <port>`, { details: { file: path } })
  }
  return port
}

export async function keepApiPort (dataDir: string, port: number): Promise<void> {
  await writeFileAtomic(apiPortPath(dataDir), `${port}\n`, 0o600)
}

function isPort (port: number): boolean {
  return Number.isInteger(port) && port >= 1 && port <= 65535
}
