import type { Connection, PeerId, Stream } from '@libp2p/interface'
import * as dagCbor from '@ipld/dag-cbor'
import type { CID } from 'multiformats/cid'
import { z } from 'zod'
import { MAX_BLOCK_BYTES, MAX_FETCH_BLOCKS, blockMatches, digestHex, isUnixfsBlockCid, parseCid, sha256Hex } from '../../anchor/index.js'
import { IsnadError } from '../../errors/index.js'
import type { VerifiedRecord } from '../../record/index.js'
import { FETCH_PROTOCOL, FETCH_TIMEOUT_MS, MAX_EVIDENCE_RECORDS, MAX_FETCH_REQUEST_BYTES } from './constants.js'
import { EvidenceRequestSchema } from './evidence.js'
import {
  MAX_FETCH_IDS, MAX_RECORD_FRAME_BYTES, FetchRequestSchema, decodeWire, encodeWire
} from '../wire/index.js'
import type { NetContext } from '../net-context.js'
import { serveOneRequest } from '../serve-request.js'
import { exchange, violation } from './exchange.js'
import { peekRecordId } from '../record-gate.js'

/** fetch-v1 §8: the minor version that adds block requests; it serves record requests too. */
export const FETCH_BLOCKS_PROTOCOL = '/isnad/fetch/1.1.0'

/** fetch-v1 B2: a CID of a UnixFS block (raw or dag-pb, sha2-256), canonical CIDv1 text. */
const blockCid = z.string().max(128).refine((text) => {
  try {
    const cid = parseCid(text)
    return cid.version === 1 && isUnixfsBlockCid(cid) && cid.toString() === text
  } catch {
    return false
  }
}, { message: 'must be a canonical CIDv1 of a raw or dag-pb block with sha2-256' })

/** fetch-v1 B2. */
export const BlockRequestSchema = z.strictObject({ blocks: z.array(blockCid).min(1).max(MAX_FETCH_BLOCKS) })
/** What a `/isnad/fetch/1.1.0` stream may ask: records (F2) or blocks (B2). */
const FetchRequestV11Schema = z.union([FetchRequestSchema, BlockRequestSchema])
/** What a `/isnad/fetch/1.2.0` stream may ask: records, blocks, or a memory's evidence (E1). */
const FetchRequestV12Schema = z.union([FetchRequestSchema, BlockRequestSchema, EvidenceRequestSchema])

/** What a block fetch brought back (fetch-v1 B5–B6): every block re-hashed against its CID. */
export interface BlockFetchResult {
  blocks: Array<{ cid: CID, bytes: Uint8Array }>
  /** Asked CIDs the peer did not send. */
  missing: CID[]
}

/** What a fetch brought back (fetch-v1 §4). */
export interface FetchResult {
  /** Records received and verified now or recently, in the order the peer sent them. */
  records: VerifiedRecord[]
  /** Asked ids the host turned out to store already (the peer's copy was not verified). */
  known: string[]
  /** Asked ids the peer did not send. */
  missing: string[]
}

/**
 * The server side of `/isnad/fetch/1.0.0` (fetch-v1 §3); with `blocks`, of `/isnad/fetch/1.1.0`,
 * which also answers block requests (§8); with `evidence` too, of `/isnad/fetch/1.2.0`, which also
 * answers requests for a memory's evidence (§9).
 */
export function createFetchHandler (context: NetContext, timeoutMs = FETCH_TIMEOUT_MS, { blocks = false, evidence = false } = {}): (stream: Stream, connection: Connection) => Promise<void> {
  const schema = evidence ? FetchRequestV12Schema : blocks ? FetchRequestV11Schema : FetchRequestSchema
  return serveOneRequest(context, { name: 'fetch', timeoutMs, maxRequestBytes: MAX_FETCH_REQUEST_BYTES }, async (frame) => {
    const request = decodeWire(frame, schema, 'fetch request', MAX_FETCH_REQUEST_BYTES) // F1–F2, B2, E1
    return 'blocks' in request // the frames sent: F3, B3
      ? await blocksFound(context, request.blocks)
      : 'evidence' in request ? await context.host.memoryEvidence?.(request.evidence, MAX_EVIDENCE_RECORDS) ?? [] : await recordsFound(context, request.ids)
  })
}

async function recordsFound (context: NetContext, ids: readonly string[]): Promise<Uint8Array[]> {
  const found: Uint8Array[] = []
  for (const id of new Set(ids)) {
    // A record this node verified but has not finished storing is served too (gossip-v1 R10).
    const bytes = await context.host.get(id) ?? context.gate.recentBytes(id)
    if (bytes !== null && bytes !== undefined) found.push(bytes)
  }
  return found
}

/** fetch-v1 B3–B4: the blocks held, each re-hashed first so a damaged store never serves a wrong block. */
async function blocksFound (context: NetContext, cids: readonly string[]): Promise<Uint8Array[]> {
  const found: Uint8Array[] = []
  for (const text of new Set(cids)) {
    const cid = parseCid(text)
    const bytes = await context.host.getBlock?.(cid) ?? null
    if (bytes !== null && blockMatches(cid, bytes)) found.push(bytes)
  }
  return found
}

/**
 * The client side of block requests (fetch-v1 B5–B6): asks `peer` for up to MAX_FETCH_BLOCKS
 * blocks and matches every block received to an asked CID by hashing it; a block that hashes to no
 * asked CID (tampered, or never asked) is a violation and nothing of the response is used.
 */
export async function fetchBlocks (context: NetContext, peer: PeerId, cids: readonly CID[], timeoutMs = FETCH_TIMEOUT_MS): Promise<BlockFetchResult> {
  const wanted = new Map<string, CID>()
  for (const cid of cids) if (isUnixfsBlockCid(cid)) wanted.set(digestHex(cid), cid.toV1())
  if (wanted.size === 0) return { blocks: [], missing: [] }
  if (wanted.size > MAX_FETCH_BLOCKS) throw new IsnadError('USAGE', `a fetch asks for at most ${MAX_FETCH_BLOCKS} blocks, not ${wanted.size}`)
  const blocks: Array<{ cid: CID, bytes: Uint8Array }> = []
  const request = dagCbor.encode({ blocks: [...wanted.values()].map((cid) => cid.toString()) })
  return await exchange(context, peer, { protocol: FETCH_BLOCKS_PROTOCOL, request, maxFrame: MAX_BLOCK_BYTES, timeoutMs, what: 'block fetch response' }, (frame) => {
    if (wanted.size === 0) throw violation('the peer sent more blocks than were asked') // B5: each match removes one
    blocks.push({ cid: matchBlock(wanted, frame), bytes: frame })
  }, () => ({ blocks, missing: [...wanted.values()] }))
}

/** fetch-v1 B6: the asked CID whose digest the block hashes to, taken off `wanted`; CID_MISMATCH otherwise. */
function matchBlock (wanted: Map<string, CID>, bytes: Uint8Array): CID {
  const digest = sha256Hex(bytes)
  const cid = wanted.get(digest)
  if (cid === undefined) {
    throw new IsnadError('CID_MISMATCH', `the peer sent a block of ${bytes.length} bytes that hashes to no CID asked (tampered or sent twice)`, {
      details: { violation: true }
    })
  }
  wanted.delete(digest)
  return cid
}

/**
 * The client side (fetch-v1 §4): asks `peer` for up to MAX_FETCH_IDS records, verifies each one
 * received (its CID recomputed from its bytes and matched against the request: F6) and returns
 * them without storing them. A violation penalises the peer, resets the stream and rejects.
 */
export async function fetchRecords (context: NetContext, peer: PeerId, ids: readonly string[], timeoutMs = FETCH_TIMEOUT_MS): Promise<FetchResult> {
  const wanted = [...new Set(ids)]
  if (wanted.length === 0) return { records: [], known: [], missing: [] }
  if (wanted.length > MAX_FETCH_IDS) throw new IsnadError('USAGE', `a fetch asks for at most ${MAX_FETCH_IDS} records, not ${wanted.length}`)
  const frames: Uint8Array[] = []
  return await exchange(context, peer, { protocol: FETCH_PROTOCOL, request: encodeWire({ ids: wanted }), maxFrame: MAX_RECORD_FRAME_BYTES, timeoutMs, what: 'fetch response' }, (frame) => {
    if (frames.length === wanted.length) throw violation('the peer sent more records than were asked') // F5
    frames.push(frame)
  }, async () => await checkFetched(context, wanted, frames))
}

/** fetch-v1 F5–F7: every frame one asked-for record, each once, each valid. */
async function checkFetched (context: NetContext, wanted: readonly string[], frames: readonly Uint8Array[]): Promise<FetchResult> {
  const asked = new Set(wanted)
  for (const frame of frames) {
    const id = peekRecordId(frame)
    if (id !== undefined && !asked.delete(id)) { // F6
      throw new IsnadError('CID_MISMATCH', `the peer sent ${id}, which was not asked or came twice`, { details: { violation: true } })
    }
  }
  const results = await context.gate.checkMany(frames)
  const records: VerifiedRecord[] = []
  const known: string[] = []
  const seen = new Set<string>()
  for (const result of results) {
    if (result.status === 'invalid') throw result.error // F7
    if (result.status === 'ignored') continue // dated in the future: not the sender's fault (R7)
    seen.add(result.id)
    if (result.status === 'known') known.push(result.id)
    else records.push(result.record)
  }
  // F6 once more on the ids verification computed (peekRecordId skips bytes it cannot lay out).
  const wantedSet = new Set(wanted)
  for (const record of records) {
    if (!wantedSet.has(record.id)) throw new IsnadError('CID_MISMATCH', `the peer sent ${record.id}, which was not asked`)
  }
  return { records, known, missing: wanted.filter((id) => !seen.has(id)) }
}
