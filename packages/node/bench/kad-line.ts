import { generateKeyPair } from '@libp2p/crypto/keys'
import type { PrivateKey } from '@libp2p/interface'
import { peerIdFromPrivateKey } from '@libp2p/peer-id'
import { sha256 } from 'multiformats/hashes/sha2'
import type { CID } from 'multiformats/cid'

/*
 * A Kademlia line: nodes whose DHT ids share exactly 0, 1, 2, … leading bits with one CID's DHT key,
 * so node i + 1 is always closer to the key than node i. Connected only to its neighbours, each node's
 * routing table starts with them alone; a lookup from node 0 can then only advance a neighbour at a
 * time, and the holder at the far end is as many hops away as the line is long. (In a line of random
 * ids a Kademlia lookup stops at once: it only follows peers closer to the key than the one that
 * named them.) Used by test/integration/net/content-routing.test.ts and bench/content-routing.ts.
 */

/** The DHT id of a key or peer: kad-dht hashes the bytes with sha2-256. */
export async function kadId (bytes: Uint8Array): Promise<Uint8Array> {
  return (await sha256.digest(bytes)).digest
}

/** The number of leading bits two DHT ids share. */
export function commonPrefixBits (a: Uint8Array, b: Uint8Array): number {
  for (let i = 0; i < a.length && i < b.length; i++) {
    const x = (a[i] ?? 0) ^ (b[i] ?? 0)
    if (x !== 0) return i * 8 + Math.clz32(x) - 24
  }
  return Math.min(a.length, b.length) * 8
}

/**
 * `length` Ed25519 peer keys, key i with a DHT id sharing exactly i leading bits with `cid`'s DHT key
 * (about 2^length key pairs in all: 4,096 for a line of 12, well under a second).
 */
export async function kadLineKeys (cid: CID, length: number): Promise<PrivateKey[]> {
  const target = await kadId(cid.multihash.bytes)
  const keys = new Array<PrivateKey | undefined>(length).fill(undefined)
  let missing = length
  while (missing > 0) {
    const key = await generateKeyPair('Ed25519')
    const bits = commonPrefixBits(await kadId(peerIdFromPrivateKey(key).toMultihash().bytes), target)
    if (bits < length && keys[bits] === undefined) {
      keys[bits] = key
      missing--
    }
  }
  return keys as PrivateKey[]
}
