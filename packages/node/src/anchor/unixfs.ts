import { importByteStream, type ImporterOptions, type WritableStorage } from 'ipfs-unixfs-importer'
import { fixedSize } from 'ipfs-unixfs-importer/chunker'
import { balanced } from 'ipfs-unixfs-importer/layout'
import type { CID } from 'multiformats/cid'
import { UNIXFS_CHUNK_SIZE, UNIXFS_MAX_CHILDREN } from './constants.js'

/**
 * The importer settings that give the CID `ipfs add --cid-version 1` gives with kubo's defaults
 * (anchors-v1 U1–U4): fixed-size chunks of 256 KiB (`size-262144`), raw leaves (kubo turns them on
 * with CIDv1), the balanced layout with at most 174 children per node, CIDv1 with sha2-256, and a
 * file of one chunk reduced to that one raw block. The importer's own defaults differ (its 2025
 * profile uses 1 MiB chunks and 1024 links), so every option is spelled out.
 */
export function kuboCidV1ImportOptions (): ImporterOptions {
  return {
    cidVersion: 1,
    rawLeaves: true,
    reduceSingleLeafToSelf: true,
    chunker: fixedSize({ chunkSize: UNIXFS_CHUNK_SIZE }),
    layout: balanced({ maxChildrenPerNode: UNIXFS_MAX_CHILDREN }),
    wrapWithDirectory: false
  }
}

/**
 * kubo's legacy CIDv0 defaults (`ipfs add` before IPIP-499 changed nothing but these two): the
 * same chunker and layout with dag-pb leaves. Only the vectors use it: kubo publishes multi-chunk
 * CIDs for this profile, which check the chunker and the layout that the CIDv1 profile shares.
 */
export function kuboCidV0ImportOptions (): ImporterOptions {
  return { ...kuboCidV1ImportOptions(), cidVersion: 0, rawLeaves: false }
}

export interface ImportedContent {
  /** The root CID, as kubo prints it (base32 for CIDv1). */
  cid: CID
  /** Bytes of content (not of blocks). */
  size: number
}

/**
 * Chunks `content` into a UnixFS file DAG and writes every block to `blocks` (anchors-v1 §2).
 * An empty input is the empty raw block, as in kubo.
 */
export async function importUnixfs (
  content: Uint8Array | Iterable<Uint8Array> | AsyncIterable<Uint8Array>,
  blocks: WritableStorage,
  options: ImporterOptions = kuboCidV1ImportOptions()
): Promise<ImportedContent> {
  const source = content instanceof Uint8Array ? [content] : content
  const result = await importByteStream(source, blocks, options)
  return { cid: result.cid, size: Number(result.size) }
}
