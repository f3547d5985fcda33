import { hash } from 'node:crypto'
import type { CID } from 'multiformats/cid'
import { cidOfDigest } from './encoding.js'

/**
 * cidOfBytes with SHA-256 from node:crypto (OpenSSL, one call) instead of @noble/hashes: about half
 * the CPU for a record of a few hundred bytes, paid by every record verified or stored. Node only:
 * encoding.ts stays free of node:crypto because the dashboard's browser bundle shares it.
 */
export function cidOfBytesNative (bytes: Uint8Array): CID {
  return cidOfDigest(hash('sha256', bytes, 'buffer'))
}
