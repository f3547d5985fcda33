import { z } from 'zod'
import { CONTENT_TYPES, MemoryContentSchema, didKey } from '../schema/index.js'
import { MAX_SELECT_LIMIT } from './selector.js'
import { ActorRefSchema } from './types.js'

/** A selection request as it crosses a trust boundary (HTTP body, MCP tool input). */
export const SelectRequestSchema = z.strictObject({
  selector: ActorRefSchema.meta({ description: 'who selects: the evidence\'s verifiedBy and the trace\'s selector' }),
  query: z.string().max(1024).optional().meta({ description: 'words that must all appear in summary, body or tags' }),
  tags: z.array(MemoryContentSchema.shape.tags.element).max(16).optional(),
  author: didKey.optional(),
  type: z.enum(CONTENT_TYPES).optional(),
  minTrust: z.number().min(0).max(1).optional(),
  limit: z.number().int().min(1).max(MAX_SELECT_LIMIT).optional(),
  method: z.enum(['isnad-ed25519', 'merkle-inclusion', 'hash']).optional()
})
