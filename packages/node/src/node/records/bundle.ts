import { IsnadError } from '../../errors/index.js'
import { BUNDLE_FORMAT, MAX_BUNDLE_BYTES, type Bundle } from '../../schema/index.js'
import { parseBundleEnvelope, parseJson } from '../../memory-view/index.js'
import type { IngestResult } from '../pipeline/index.js'
import type { LocalNode } from '../local-node.js'

/** An export bundle of the given memories with all their evidence (record-v1 §6). */
export async function exportBundle (node: LocalNode, ids: readonly string[]): Promise<Bundle> {
  return { format: BUNDLE_FORMAT, exported_at: node.now(), records: await node.exportRecords(ids) }
}

/**
 * Imports a bundle file's text: size, JSON, envelope, then every record verified; a bundle with any
 * bad record is refused whole and nothing of it is stored (ingest writes one atomic batch).
 */
export async function importBundle (node: LocalNode, text: string): Promise<IngestResult> {
  const size = Buffer.byteLength(text)
  if (size > MAX_BUNDLE_BYTES) {
    throw new IsnadError('RECORD_TOO_LARGE', `bundle of ${size} bytes exceeds ${MAX_BUNDLE_BYTES}`)
  }
  return await node.ingest(parseBundleEnvelope(parseJson(text, 'bundle')).records)
}
