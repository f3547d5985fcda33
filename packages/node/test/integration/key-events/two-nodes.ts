import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createKeystore, type Keystore } from '../../../src/keystore/index.js'
import { TOPICS } from '../../../src/net/index.js'
import { LocalNode, initHome, type Signer } from '../../../src/node/index.js'
import { connect, startNode, stopAll, waitForMesh, type TestNode } from '../net/fixtures/harness.js'
import { LocalNodeHost } from '../net/fixtures/local-node-host.js'

/** Two LocalNodes on loopback meshed on the key-events and memories topics; A's default key is k0. */
export interface KeyGossipPair {
  homes: [string, string]
  locals: [LocalNode, LocalNode]
  a: TestNode<LocalNodeHost>
  b: TestNode<LocalNodeHost>
  /** A's keystore, which holds k0. */
  keystoreA: Keystore
  k0: Signer
  stop: () => Promise<void>
}

/** Starts the pair the key-gossip tests share (homes under the temp dir named by `prefix`). */
export async function startKeyGossipPair (prefix: string): Promise<KeyGossipPair> {
  const homes: string[] = []
  const locals: LocalNode[] = []
  for (const name of ['a', 'b']) {
    const home = await mkdtemp(join(tmpdir(), `${prefix}-${name}-`))
    await initHome(home)
    homes.push(home)
    locals.push(await LocalNode.open({ home }))
  }
  const [nodeA, nodeB] = locals as [LocalNode, LocalNode]
  const a = await startNode('a', new LocalNodeHost(nodeA), { keyring: () => nodeA.keyring, syncOnConnect: false })
  const b = await startNode('b', new LocalNodeHost(nodeB), { keyring: () => nodeB.keyring, syncOnConnect: false })
  await connect(a, b)
  await waitForMesh([[a, b]], [TOPICS.keyEvents, TOPICS.memories])
  const keystoreA = createKeystore({ directory: join(homes[0] as string, 'keys') })
  const key = await keystoreA.load(await keystoreA.defaultDid() as string)
  return {
    homes: homes as [string, string],
    locals: [nodeA, nodeB],
    a,
    b,
    keystoreA,
    k0: { did: key.did, secretKey: key.secretKey },
    stop: async () => {
      await stopAll([a, b])
      for (const node of locals) await node.close()
      for (const home of homes) await rm(home, { recursive: true, force: true })
    }
  }
}
