import { base32 } from 'multiformats/bases/base32'
import type { CID } from 'multiformats/cid'
import { IsnadError } from '../errors/index.js'
import { isRecordCid } from '../schema/index.js'

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
