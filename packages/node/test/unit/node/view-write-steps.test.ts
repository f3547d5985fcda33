import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { attachShardPath, viewShardPath } from '../../../src/ledger/object-views/index.js'
import { writeStepOf } from '../../../src/node/journal/object-view-reducer.js'

/*
 * The view reducer flushes a batch's lines file by file in the writer's order: attachments, then
 * objects, then reducer lines, so a line on disk never points at one that is not there yet.
 */

describe('the order view lines reach the disk', () => {
  const data = join('/home', 'agent', '.memory')
  const ts = '2026-03-01T00:00:00Z'

  it('puts attachments first, every object shard second and the reducers file last', () => {
    expect(writeStepOf(join(data, attachShardPath('default', ts)))).toBe(0)
    for (const type of ['fact', 'decision', 'commitment'] as const) expect(writeStepOf(join(data, viewShardPath(type, 'default', ts)))).toBe(1)
    expect(writeStepOf(join(data, 'coordination', 'reducers.jsonl'))).toBe(2)
  })

  it('reads Windows separators the same way', () => {
    expect(writeStepOf('C:\\agent\\.memory\\views\\attach\\default\\2026-03.jsonl')).toBe(0)
    expect(writeStepOf('C:\\agent\\.memory\\coordination\\reducers.jsonl')).toBe(2)
    expect(writeStepOf('C:\\agent\\.memory\\views\\facts\\default\\2026-03.jsonl')).toBe(1)
  })
})
