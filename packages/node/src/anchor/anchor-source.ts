import { z } from 'zod'
import { MAX_REFERENCE_BYTES } from '../schema/index.js'

/* Apart from create.ts, which loads the UnixFS importer: the table of operations (every CLI start-up) needs only the schema. */

const text = z.string().min(1).max(MAX_REFERENCE_BYTES)

/**
 * Where the evidence of a new anchor comes from (one source per anchor), checked at the HTTP
 * boundary. A file path, or a git repository, is read by the node that signs, within its
 * FileAnchorAccess (anchors-v1 §2.1: never the home's private files; a daemon only under `--anchor-dir`).
 */
export const AnchorSourceSchema = z.discriminatedUnion('source', [
  z.strictObject({ source: z.literal('file'), path: text }),
  z.strictObject({ source: z.literal('cid'), cid: text }),
  z.strictObject({ source: z.literal('git'), repository: text, commit: text, path: text.optional() }),
  z.strictObject({ source: z.literal('url'), url: text }),
  z.strictObject({ source: z.literal('moltbook'), url: text }),
  z.strictObject({
    source: z.literal('blockchain'),
    reference: text,
    hash: z.string().regex(/^[a-z0-9-]+:[0-9a-f]+$/, 'must look like sha2-256:<hex>').max(256)
  })
])
export type AnchorSource = z.infer<typeof AnchorSourceSchema>

