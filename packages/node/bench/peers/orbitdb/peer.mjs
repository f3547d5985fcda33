import { createHash } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { bitswap } from '@helia/block-brokers'
import { libp2pRouting } from '@helia/routers'
import { gossipsub } from '@libp2p/gossipsub'
import { identify } from '@libp2p/identify'
import { noise } from '@libp2p/noise'
import { tcp } from '@libp2p/tcp'
import { yamux } from '@libp2p/yamux'
import { createOrbitDB } from '@orbitdb/core'
import { LevelBlockstore } from 'blockstore-level'
import { createHelia } from 'helia'
import { createLibp2p } from 'libp2p'

/*
 * One OrbitDB 4 peer of the loopback pair (figure 8c's optional peer baseline): libp2p on
 * 127.0.0.1 with the transport, encryption and muxer isnad's nodes use (TCP, Noise, Yamux), the
 * identify and gossipsub services OrbitDB's Sync needs, a Helia node on a LevelDB blockstore that
 * fetches blocks by bitswap only, and OrbitDB's own stores in the same temp directory, as a node
 * that keeps what it receives would have them. The settings follow OrbitDB's own test peers
 * (gossipsub that may publish to no peers, bitswap as the only block broker), minus what would
 * reach outside: no peer discovery, no bootstrap list, no relay, no DHT, no HTTP gateway or
 * delegated router (Helia adds those two when `routers`/`blockBrokers` are left unset), and a
 * connection gater that refuses any dial to an address that is not 127.0.0.1.
 */

/** Refuses a dial to anything but 127.0.0.1: the pair must never leave the loopback interface. */
const loopbackOnly = {
  denyDialMultiaddr: (multiaddr) => !multiaddr.toString().startsWith('/ip4/127.0.0.1/')
}

/**
 * Starts a peer in a fresh temp directory.
 * @param {string} name - prefix of the temp directory
 * @returns {Promise<{ helia: import('helia').Helia, orbitdb: Awaited<ReturnType<typeof createOrbitDB>>, addresses: string[], dispose: () => Promise<void> }>}
 */
export async function startPeer (name) {
  const dir = await mkdtemp(join(tmpdir(), `isnad-orbitdb-${name}-`))
  const libp2p = await createLibp2p({
    addresses: { listen: ['/ip4/127.0.0.1/tcp/0'] },
    transports: [tcp()],
    connectionEncrypters: [noise()],
    streamMuxers: [yamux()],
    connectionGater: loopbackOnly,
    services: {
      identify: identify(),
      pubsub: gossipsub({ allowPublishToZeroTopicPeers: true })
    }
  })
  const blockstore = new LevelBlockstore(join(dir, 'blocks'))
  await blockstore.open()
  const helia = await createHelia({ libp2p, blockstore, blockBrokers: [bitswap()], routers: [libp2pRouting(libp2p)] })
  const orbitdb = await createOrbitDB({ ipfs: helia, directory: join(dir, 'orbitdb') })
  return {
    helia,
    orbitdb,
    addresses: libp2p.getMultiaddrs().map(String),
    dispose: async () => {
      await orbitdb.stop()
      await helia.stop()
      await blockstore.close()
      await rm(dir, { recursive: true, force: true })
    }
  }
}

/** Order-independent digest of byte strings: B's entry values against the records A wrote. */
export function digestOf (values) {
  const digests = values.map((bytes) => createHash('sha256').update(bytes).digest('hex')).sort()
  return createHash('sha256').update(digests.join('\n')).digest('hex')
}
