import { describe, expect, it } from 'vitest'
import { createProgram } from '../../../src/cli/index.js'
import { createOutput } from '../../../src/cli/output.js'
import { resolveShardCount } from '../../../src/cli/config/index.js'

/*
 * The shard count `isnad ledger reindex` (and every command that scores without the daemon) uses:
 * its own --shard-count, else the count `isnad start` would take without its flag —
 * $ISNAD_SHARD_COUNT, else the file's `shard-count` — else none (the count follows N̂).
 */

const NONE = {}

describe('the shard count a reindex scores with', () => {
  it('is the command\'s own count first, over the environment and the file', () => {
    expect(resolveShardCount(8, { 'shard-count': 4 }, { ISNAD_SHARD_COUNT: '16' })).toBe(8)
    expect(resolveShardCount(1, { 'shard-count': 4 }, NONE)).toBe(1)
  })

  it('is the setting `isnad start` would take without its flag: the environment, else the file', () => {
    expect(resolveShardCount(undefined, { 'shard-count': 4 }, NONE)).toBe(4)
    expect(resolveShardCount(undefined, { 'shard-count': 4 }, { ISNAD_SHARD_COUNT: '16' })).toBe(16)
    // An empty variable is unset, as for `start`.
    expect(resolveShardCount(undefined, { 'shard-count': 4 }, { ISNAD_SHARD_COUNT: ' ' })).toBe(4)
  })

  it('is none when nothing sets it: the count follows N̂', () => {
    expect(resolveShardCount(undefined, {}, NONE)).toBeUndefined()
    expect(resolveShardCount(undefined, {}, { ISNAD_SHARD_COUNT: '' })).toBeUndefined()
  })

  it('refuses a count that is not a power of two 1-4096 in the environment (USAGE naming the variable)', () => {
    expect(() => resolveShardCount(undefined, {}, { ISNAD_SHARD_COUNT: '3' })).toThrow(expect.objectContaining({ code: 'USAGE', message: expect.stringMatching(/\$ISNAD_SHARD_COUNT/) }))
  })

  it('`ledger reindex` names the option in its help', () => {
    const ledger = createProgram(createOutput(false), () => {}).commands.find((c) => c.name() === 'ledger')
    const reindex = ledger?.commands.find((c) => c.name() === 'reindex')
    expect(reindex?.helpInformation()).toMatch(/--shard-count <count>\s+a power of two 1-4096/)
  })
})
