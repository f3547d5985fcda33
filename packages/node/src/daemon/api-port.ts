import { createApiServer, type ApiServer, type ApiServerInit } from '../http/index.js'
import { isIsnadError, IsnadError } from '../errors/index.js'
import { apiPortPath, keepApiPort, readKeptApiPort } from '../api-access/index.js'
import { PREFERRED_API_PORT } from './constants.js'

/*
 * A stable API port: the dashboard's URL and scripts' `$PORT` survive restarts. The
 * port is chosen on a home's first start and kept in `.memory/api.port`; `--api-port` sets it (and
 * keeps it). The first choice is PREFERRED_API_PORT, else any free port. A kept port that is busy
 * is an error (ADDRESS_IN_USE), never a silent move to another port: the point is that the URL
 * does not change.
 */

/**
 * Starts the API on the port this home uses: `requested` (0: any free port, for this run only,
 * not kept), else the kept one, else PREFERRED_API_PORT or any free port; keeps what it bound.
 */
export async function startApiOnKeptPort (dataDir: string, requested: number | undefined, init: Omit<ApiServerInit, 'port'>): Promise<ApiServer> {
  if (requested === 0) return await createApiServer({ ...init, port: 0 })
  const kept = await readKeptApiPort(dataDir)
  const wanted = requested ?? kept
  let api: ApiServer
  if (wanted === undefined) {
    api = await createApiServer({ ...init, port: PREFERRED_API_PORT }).catch(async (err: unknown) => {
      if (!isIsnadError(err, 'ADDRESS_IN_USE')) throw err
      return await createApiServer({ ...init, port: 0 })
    })
  } else {
    api = await createApiServer({ ...init, port: wanted }).catch((err: unknown) => {
      if (!isIsnadError(err, 'ADDRESS_IN_USE')) throw err
      const source = requested === undefined ? `kept in ${apiPortPath(dataDir)}` : 'given by --api-port'
      throw new IsnadError('ADDRESS_IN_USE',
        `the API port ${wanted} (${source}) is in use by another process (another isnad daemon? \`isnad status\` on its home says): stop it, or start with --api-port <port> to use and keep another`,
        { details: { address: `127.0.0.1:${wanted}` } })
    })
  }
  const bound = Number(new URL(api.url).port)
  if (bound !== kept) {
    try {
      await keepApiPort(dataDir, bound)
    } catch (err) {
      await api.close()
      throw err
    }
  }
  return api
}
