import { describe, expect, it } from 'vitest'
import { QuarantineIndex } from '../../../src/ledger/audit/quarantine-index.js'
import { isShardPath, parseShardPath } from '../../../src/ledger/audit/walk.js'

const INS = 'ins_aaaaaaaaaaaaaaaaaaaaaaaaaa'
const OTHER = 'ins_bbbbbbbbbbbbbbbbbbbbbbbbbb'

describe('shard paths (spec §4)', () => {
  it('reads scope, instance and day from live and archived stream and bus shards', () => {
    expect(parseShardPath(`streams/s/${INS}/2026-02-01.jsonl`)).toEqual({ scope: 's', instance: INS, day: '2026-02-01' })
    expect(parseShardPath(`archive/streams/s/${INS}/2026-02-01.jsonl.gz`)).toEqual({ scope: 's', instance: INS, day: '2026-02-01' })
    expect(parseShardPath('bus/s/2026-02-01.jsonl')).toEqual({ scope: 's', instance: undefined, day: '2026-02-01' })
    expect(parseShardPath('archive/bus/s/2026-02-01.jsonl.gz')).toEqual({ scope: 's', instance: undefined, day: '2026-02-01' })
    for (const stray of ['bus/s/2026-02-01.jsonl.gz', 'archive/bus/s/2026-02-01.jsonl', 'bus/s/notes.txt', `streams/s/${INS}/2026-02-01.jsonl.tmp-1`, 'bus/S/2026-02-01.jsonl']) {
      expect(parseShardPath(stray), stray).toBeUndefined()
    }
    expect(isShardPath('views/facts/s/2026-02.jsonl')).toBe(true)
    expect(isShardPath('coordination/leases.jsonl')).toBe(false)
  })
})

describe('QuarantineIndex', () => {
  const index = new QuarantineIndex([
    { rel: `archive/quarantine/streams/s/${INS}/2026-02-12.jsonl`, original: `streams/s/${INS}/2026-02-12.jsonl`, scope: 's', instance: INS, day: '2026-02-12' },
    { rel: 'archive/quarantine/bus/t/2026-02-20.jsonl.1', original: 'bus/t/2026-02-20.jsonl', scope: 't', instance: undefined, day: '2026-02-20' },
    { rel: 'archive/quarantine/views/facts/s/2026-02.jsonl', original: 'views/facts/s/2026-02.jsonl', scope: 's', instance: undefined, day: undefined }
  ])

  it('explains a hole whose days enclose a quarantined shard of the same scope and instance', () => {
    expect(index.explains('s', INS, '2026-02-11', '2026-02-13')).toBe(`archive/quarantine/streams/s/${INS}/2026-02-12.jsonl`)
    expect(index.explains('s', INS, '2026-02-12', '2026-02-12')).toBeDefined()
    expect(index.explains('s', INS, '2026-02-13', undefined)).toBeUndefined()
    expect(index.explains('s', OTHER, '2026-02-11', '2026-02-13')).toBeUndefined()
    expect(index.explains('s', undefined, undefined, '2026-02-12')).toBeDefined()
    expect(index.explains('t', OTHER, '2026-02-20', '2026-02-21')).toBe('archive/quarantine/bus/t/2026-02-20.jsonl.1')
    expect(index.explains('u', INS, undefined, undefined)).toBeUndefined()
  })
})
