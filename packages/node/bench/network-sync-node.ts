import { createNodeHost } from '../src/node/index.js'
import type { SignatureVerifier } from '../src/identity/index.js'
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

/**
 * A verifier that accepts every signature without looking: only for the benchmark's diagnostic
 * rounds, which measure what a sync costs without its signature checks (the ceiling every other
 * step sets). Never given to a node that keeps what it receives.
 */
const ACCEPT_UNCHECKED: SignatureVerifier = {
  name: 'unchecked (benchmark diagnostic)',
  verify: () => true,
  verifyAsync: async () => true
}

/** The records a node holds: memories, and all kinds together. */
export async function countRecords (node: LocalNode): Promise<{ memories: number, total: number }> {
  const counts = await node.store.count()
  return { memories: counts.memory, total: Object.values(counts).reduce((a, b) => a + b, 0) }
}

/**
 * No auto-sync: the benchmark starts the sync itself, after the dial it times. `checkSignatures:
 * false` is for the diagnostic rounds only (ACCEPT_UNCHECKED); the counter then counts nothing.
 */
export async function startSyncNode (label: string, { checkSignatures = true }: { checkSignatures?: boolean } = {}): Promise<SyncNode> {
  const dir = await createTempDir(label)
  await initHome(dir.path)
  const node = await LocalNode.open({ home: dir.path })
  const host = createNodeHost(() => node)
  const verifier = new CountingVerifier()
  const network = await createNetwork({ host, verifier: checkSignatures ? verifier : ACCEPT_UNCHECKED, listen: LOOPBACK, syncOnConnect: false, dht: false })
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
