import { createNodeHost } from '../src/daemon/index.js'
import { createNetwork, type Network } from '../src/net/index.js'
import { initHome, LocalNode } from '../src/node/index.js'
import { createTempDir } from './fixtures.js'
import { CountingVerifier } from './network-host.js'

/** A node of the sync benchmark: a LocalNode in a fresh home with the daemon's NetHost, on loopback. */
export interface SyncNode {
  node: LocalNode
  network: Network
  verifier: CountingVerifier
  dispose: () => Promise<void>
}

const LOOPBACK = ['/ip4/127.0.0.1/tcp/0']

/** No auto-sync: the benchmark starts the sync itself, after the dial it times. */
export async function startSyncNode (label: string): Promise<SyncNode> {
  const dir = await createTempDir(label)
  await initHome(dir.path)
  const node = await LocalNode.open({ home: dir.path })
  const host = createNodeHost(() => node)
  const verifier = new CountingVerifier()
  const network = await createNetwork({ host, verifier, listen: LOOPBACK, syncOnConnect: false })
  return {
    node,
    network,
    verifier,
    dispose: async () => {
      await network.stop()
      await host.close()
      await node.close()
      await dir.remove()
    }
  }
}
