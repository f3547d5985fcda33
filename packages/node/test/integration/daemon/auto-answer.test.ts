import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createHttpOperations } from '../../../src/api-access/client.js'
import { readApiToken } from '../../../src/api-access/index.js'
import { startDaemon, type Daemon } from '../../../src/daemon/index.js'
import { initHome } from '../../../src/node/index.js'
import { nodePaths } from '../../../src/home/index.js'
import { SseReader } from '../../fixtures/sse-client.js'

const LOOPBACK = ['/ip4/127.0.0.1/tcp/0']
const homes: string[] = []
const daemons: Daemon[] = []

async function node (options: { bootstrap?: string[], autoConfirmFrom?: string[] } = {}): Promise<{ daemon: Daemon, agent: string, token: string }> {
  const home = await mkdtemp(join(tmpdir(), 'isnad-auto-'))
  homes.push(home)
  const { defaultKey } = await initHome(home)
  const daemon = await startDaemon({ home, listen: LOOPBACK, heartbeatMs: 60_000, ...options })
  daemons.push(daemon)
  return { daemon, agent: defaultKey.did, token: await readApiToken(nodePaths(home).data) }
}

afterEach(async () => {
  for (const d of daemons.splice(0)) await d.stop()
  for (const h of homes.splice(0)) await rm(h, { recursive: true, force: true })
})

describe('the auto-answer policy (off by default)', () => {
  it('confirms requests from a listed requester, and the requester\'s event stream reports the attestation', async () => {
    const requester = await node()
    const bootstrap = [requester.daemon.multiaddrs()[0]!]
    const trusting = await node({ bootstrap, autoConfirmFrom: [requester.agent] })
    const cautious = await node({ bootstrap })
    const ops = createHttpOperations({ url: requester.daemon.url, token: requester.token })
    const deadline = Date.now() + 10_000
    while ((await ops.call('peers', {})).peers.length < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100))

    const { reader } = await SseReader.open(`${requester.daemon.url}/v1/events`, requester.token)
    try {
      const memory = await ops.call('remember', { type: 'fact', summary: 'auto answers are policy' })
      await ops.call('requestWitnesses', { id: memory.id, to: [trusting.agent, cautious.agent] })
      let event = await reader.next(10_000)
      while (event.event !== 'attestation') event = await reader.next(10_000)
      expect(event.data).toMatchObject({ memory: memory.id, witness: trusting.agent, verdict: 'confirm' })
      expect((await ops.call('explainTrust', { id: memory.id })).factors.confirm_count).toBe(1)
      // The cautious node keeps the request in its agent's inbox: nobody answered for it.
      const cautiousOps = createHttpOperations({ url: cautious.daemon.url, token: cautious.token })
      const inbox = (await cautiousOps.call('inbox', {})).items
      expect(inbox.map((i) => i.memory)).toEqual([memory.id])
    } finally {
      reader.close()
    }
  }, 60_000)
})
