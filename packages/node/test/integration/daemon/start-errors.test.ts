import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { createServer, type AddressInfo, type Server } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { apiPortPath, readKeptApiPort } from '../../../src/api-access/index.js'
import { startDaemon } from '../../../src/daemon/index.js'
import { IsnadError } from '../../../src/errors/index.js'
import { initHome } from '../../../src/node/index.js'
import { nodePaths } from '../../../src/home/index.js'

/** What a rejected promise rejected with. */
async function failureOf (run: () => Promise<unknown>): Promise<IsnadError> {
  try {
    await run()
  } catch (err) {
    if (err instanceof IsnadError) return err
    throw err
  }
  throw new Error('expected a failure')
}

/** A TCP listener on 127.0.0.1 held by this test, standing for another process. */
async function occupy (): Promise<{ server: Server, port: number }> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { server, port: (server.address() as AddressInfo).port }
}

describe('isnad start refuses clearly and undoes what it started (src/daemon)', () => {
  let home: string
  let data: string
  let held: { server: Server, port: number }

  beforeAll(async () => {
    home = await mkdtemp(join(tmpdir(), 'isnad-start-errors-'))
    data = nodePaths(home).data
    await initHome(home)
    held = await occupy()
  })

  afterAll(async () => {
    held.server.close()
    await rm(home, { recursive: true, force: true })
  })

  it('a busy listen port: ADDRESS_IN_USE naming the address; the home is free again for the next start', async () => {
    const listen = `/ip4/127.0.0.1/tcp/${held.port}`
    const err = await failureOf(async () => await startDaemon({ home, listen: [listen], apiPort: 0 }))
    expect(err.code).toBe('ADDRESS_IN_USE')
    expect(err.message).toContain(listen)
    expect(err.details).toEqual({ addresses: [listen] })
    // The node, the store's lock and the network were released: the same process starts it now.
    const daemon = await startDaemon({ home, listen: ['/ip4/127.0.0.1/tcp/0'], apiPort: 0 })
    await daemon.stop()
  }, 60_000)

  it('an address no interface has: IO_ERROR with the reason, not libp2p\'s advice', async () => {
    const listen = '/ip4/192.0.2.1/tcp/4999' // TEST-NET-1 (RFC 5737): on no machine
    const err = await failureOf(async () => await startDaemon({ home, listen: [listen], apiPort: 0 }))
    expect(err.code).toBe('IO_ERROR')
    expect(err.message).toBe(`cannot listen on ${listen}: no interface of this machine has that address; give other addresses with --listen`)
  }, 60_000)

  it('keeps the API port; a kept port taken is ADDRESS_IN_USE, never a silent move; --api-port sets and keeps another', async () => {
    await writeFile(apiPortPath(data), `${held.port}\n`)
    const taken = await failureOf(async () => await startDaemon({ home, listen: ['/ip4/127.0.0.1/tcp/0'] }))
    expect(taken.code).toBe('ADDRESS_IN_USE')
    expect(taken.message).toContain(`the API port ${held.port} (kept in ${apiPortPath(data)})`)
    expect(await readKeptApiPort(data)).toBe(held.port)

    const free = await occupy()
    free.server.close()
    const moved = await startDaemon({ home, listen: ['/ip4/127.0.0.1/tcp/0'], apiPort: free.port })
    await moved.stop()
    expect(await readKeptApiPort(data)).toBe(free.port)
    const again = await startDaemon({ home, listen: ['/ip4/127.0.0.1/tcp/0'] })
    await again.stop()
    expect(again.url).toBe(`http://127.0.0.1:${free.port}`)
    // Port 0 is for this run only: the kept port stays.
    const once = await startDaemon({ home, listen: ['/ip4/127.0.0.1/tcp/0'], apiPort: 0 })
    await once.stop()
    expect(await readKeptApiPort(data)).toBe(free.port)
  }, 120_000)

  it('a kept-port file that holds no port: SCHEMA_INVALID naming the file', async () => {
    await writeFile(apiPortPath(data), 'eighty\n')
    const err = await failureOf(async () => await startDaemon({ home, listen: ['/ip4/127.0.0.1/tcp/0'] }))
    expect(err.code).toBe('SCHEMA_INVALID')
    expect(err.message).toContain(apiPortPath(data))
    await writeFile(apiPortPath(data), '70000\n')
    expect((await failureOf(async () => await readKeptApiPort(data))).code).toBe('SCHEMA_INVALID')
  }, 60_000)
})
