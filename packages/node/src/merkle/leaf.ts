import { base32 } from 'multiformats/bases/base32'
import type { CID } from 'multiformats/cid'
import { IsnadError } from '../errors/index.js'
import { isRecordCid } from '../schema/index.js'
import type { LeafCodec } from './node-store.js'

/**
 * The leaf data of a stored record (transparency-v1 R1): the 36 bytes of its CID
 * (`01 71 12 20` ‖ SHA-256 digest), from the canonical id string or a CID. Anything that is not a
 * record id (CIDv1, dag-cbor, sha2-256, canonical base32) throws CID_INVALID. A string that passes
 * isRecordCid (an exact pattern) is such a CID, so its base32 is decoded directly: about a fifth of
 * the CPU of CID.parse, paid for every record a node journals or a rebuild appends.
 */
export function leafDataOfCid (id: string | CID): Uint8Array {
  const text = typeof id === 'string' ? id : id.toString()
  if (!isRecordCid(text)) throw new IsnadError('CID_INVALID', `${text.slice(0, 80)} is not a record id`)
  return base32.decode(text)
}

/**
 * The record id whose CID bytes are `leafData` (leafDataOfCid's inverse), as the log serves its
 * leaves back (MerkleLog.leavesFrom); LOG_CORRUPT for data that is no record CID.
 */
export function cidOfLeafData (leafData: Uint8Array): string {
  const text = base32.encode(leafData)
  if (!isRecordCid(text)) throw new IsnadError('LOG_CORRUPT', `a leaf of the Merkle log (${leafData.length} bytes) is not a record CID`)
  return text
}

/** The 4 bytes every record CID starts with: CIDv1, dag-cbor, sha2-256, 32-byte digest. */
const RECORD_CID_PREFIX = Uint8Array.of(0x01, 0x71, 0x12, 0x20)

/**
 * The node's journal keeps each record leaf (36 CID bytes) as its 32-byte digest in the log's
 * column (log-keys.ts); the leaf data, and so its hash, stays the CID's bytes (transparency-v1 R1).
 */
export const RECORD_LEAF_CODEC: LeafCodec = {
  pack: (leafData) => {
    if (leafData.length !== RECORD_CID_PREFIX.length + 32 || RECORD_CID_PREFIX.some((byte, i) => leafData[i] !== byte)) {
      throw new IsnadError('CID_INVALID', `a leaf of ${leafData.length} bytes is not a record CID`)
    }
    return leafData.subarray(RECORD_CID_PREFIX.length)
  },
  unpack: (stored) => {
    if (stored.length !== 32) throw new IsnadError('LOG_CORRUPT', `a record leaf of the Merkle log holds ${stored.length} bytes, not a 32-byte digest`)
    const data = new Uint8Array(RECORD_CID_PREFIX.length + 32)
    data.set(RECORD_CID_PREFIX)
    data.set(stored, RECORD_CID_PREFIX.length)
    return data
  }
}
