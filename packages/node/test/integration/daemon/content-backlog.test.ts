import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { CID } from 'multiformats/cid'
import { afterAll, describe, expect, it } from 'vitest'
import { ANNOUNCED_FILE } from '../../../src/daemon/content-backlog.js'
import { startDaemon, type Daemon } from '../../../src/daemon/index.js'
import { LocalNode, initHome } from '../../../src/node/index.js'
import { nodePaths } from '../../../src/home/index.js'
import { createAgent } from '../../fixtures/records.js'
import { waitFor } from '../net/fixtures/harness.js'

/*
 * content-routing-v1 C2a on real daemons (LevelDB in temp dirs, libp2p on 127.0.0.1): memories
 * stored while no daemon ran are announced once the daemon has a peer, found through the DHT by
 * another node, and not announced again at the next start.
 */

const LOOPBACK = ['/ip4/127.0.0.1/tcp/0']
const author = createAgent(60)

describe('the backlog of records stored before content routing ran (content-routing-v1 C2a)', () => {
  const homes: string[] = []
  const daemons: Daemon[] = []

  async function home (): Promise<string> {
    const dir = await mkdtemp(join(tmpdir(), 'isnad-backlog-'))
    homes.push(dir)
    await initHome(dir)
    return dir
  }

  async function start (dir: string, bootstrap: string[] = []): Promise<Daemon> {
    const daemon = await startDaemon({ home: dir, listen: LOOPBACK, heartbeatMs: 60_000, apiPort: 0, bootstrap })
    daemons.push(daemon)
    return daemon
  }

  afterAll(async () => {
    for (const d of daemons) await d.stop()
    for (const h of homes) await rm(h, { recursive: true, force: true })
  })

  it('announces what was stored offline once a peer is there, and only once', async () => {
    const holderHome = await home()
    const node = await LocalNode.open({ home: holderHome })
    const stored = []
    for (const summary of ['stored offline, first', 'stored offline, second']) {
      stored.push(await node.remember({ type: 'fact', summary }, { did: author.did, secretKey: author.secretKey }))
    }
    await node.close()

    const relay = await start(await home())
    const holder = await start(holderHome, [relay.multiaddrs()[0]!])
    await waitFor('the backlog announced', () => holder.content.stats.provided >= stored.length, { timeoutMs: 30_000 })
    // Another node finds the holder by each memory's CID.
    for (const memory of stored) {
      const found = []
      for await (const provider of relay.content.findProviders(CID.parse(memory.id))) found.push(provider.peer.id.toString())
      expect(found).toContain(holder.peerId)
    }

    await holder.stop()
    const { through } = JSON.parse(await readFile(join(nodePaths(holderHome).data, ANNOUNCED_FILE), 'utf8')) as { through: number }
    expect(through).toBeGreaterThanOrEqual(stored.length)
    // Started again: nothing of the backlog is announced a second time.
    const again = await start(holderHome, [relay.multiaddrs()[0]!])
    await waitFor('connected again', () => again.network.libp2p.getPeers().length > 0)
    await new Promise((resolve) => setTimeout(resolve, 1500))
    expect(again.content.stats).toMatchObject({ provided: 0, failed: 0, waiting: 0 })
  }, 90_000)
})
