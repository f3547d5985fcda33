import { stat, writeFile } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import { daemonFilePath, findDaemon, removeDaemonFile, writeDaemonFile, type DaemonInfo } from '../../../src/api-access/daemon-file.js'
import { deadPid } from './daemon-fixture.js'
import { withTempDir } from './run-cli.js'

const info: DaemonInfo = {
  pid: process.pid,
  url: 'http://127.0.0.1:4321',
  peer_id: '12D3KooWExample',
  addrs: ['/ip4/127.0.0.1/tcp/4001'],
  started_at: '2026-02-05T16:00:00Z'
}

describe('.memory/daemon.json', () => {
  it('is written with mode 0600, found while its process lives, and removed idempotently', async () => {
    await withTempDir(async (data) => {
      expect(await findDaemon(data)).toBeNull()
      await writeDaemonFile(data, info)
      expect((await stat(daemonFilePath(data))).mode & 0o777).toBe(0o600)
      expect(await findDaemon(data)).toEqual(info)
      await writeDaemonFile(data, { ...info, url: 'http://127.0.0.1:4322' })
      expect((await findDaemon(data))?.url).toBe('http://127.0.0.1:4322')
      await removeDaemonFile(data)
      await removeDaemonFile(data)
      expect(await findDaemon(data)).toBeNull()
    })
  })

  it('is ignored when stale or not a daemon description', async () => {
    await withTempDir(async (data) => {
      const write = async (value: unknown): Promise<void> => { await writeFile(daemonFilePath(data), typeof value === 'string' ? value : JSON.stringify(value)) }
      const cases: Array<[string, unknown]> = [
        ['a dead pid', { ...info, pid: await deadPid() }],
        ['not JSON', '{"pid": '],
        ['a missing url', { pid: process.pid, started_at: info.started_at }],
        ['a url off 127.0.0.1 (the token would be sent there)', { ...info, url: 'http://attacker.example:80' }],
        ['an unknown field', { ...info, token: 'x' }],
        ['a bad timestamp', { ...info, started_at: 'yesterday' }]
      ]
      for (const [name, value] of cases) {
        await write(value)
        expect(await findDaemon(data), name).toBeNull()
      }
    })
  })

  it('refuses to advertise a daemon off 127.0.0.1', async () => {
    await withTempDir(async (data) => {
      await expect(writeDaemonFile(data, { ...info, url: 'http://0.0.0.0:80' })).rejects.toMatchObject({ code: 'USAGE' })
    })
  })
})
