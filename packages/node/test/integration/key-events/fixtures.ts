import type { MemoryRecord } from '../../../src/schema/index.js'

/** An unsigned memory by `did` dated `createdAt`: key-lifecycle tests sign it with old and new keys. */
export function memoryBy (did: string, createdAt: string, summary: string): MemoryRecord {
  return {
    kind: 'memory',
    version: 1,
    content: { type: 'fact', summary, body: summary, tags: [] },
    author: { agent_id: did },
    created_at: createdAt,
    context: { confidence: 0.5 },
    lineage: { derived_from: [] }
  }
}
