import { describe, expect, it } from 'vitest'
import { isIsnadError } from '../../../src/errors/index.js'
import {
  archivePathFor, busShardPath, DATA_DIRECTORIES, ledgerFilePath, streamShardPath, tornEvidencePath, utcDay
} from '../../../src/ledger/index.js'

const DATA = '/home/agent/.memory'
const INS = `ins_${'c'.repeat(26)}`

describe('the data directory layout (spec §3, §4, §10)', () => {
  it('lists the whole spec §3 tree', () => {
    for (const dir of ['_meta', 'streams', 'bus', 'views/facts', 'views/decisions', 'views/commitments', 'views/attach', 'coordination',
      'projects', 'governance/findings', 'governance/health', 'governance/actions', 'index', 'archive', 'evidence']) {
      expect(DATA_DIRECTORIES).toContain(dir)
    }
  })

  it('shards streams per scope, instance and UTC day, the bus per scope and day', () => {
    expect(utcDay('2026-02-06T23:59:59.999Z')).toBe('2026-02-06')
    expect(streamShardPath(DATA, 'default', INS, '2026-02-06')).toBe(`${DATA}/streams/default/${INS}/2026-02-06.jsonl`)
    expect(busShardPath(DATA, 'team.a', '2026-02-06')).toBe(`${DATA}/bus/team.a/2026-02-06.jsonl`)
  })

  it('names the operational ledgers of spec §10', () => {
    expect(ledgerFilePath(DATA, 'leases')).toBe(`${DATA}/coordination/leases.jsonl`)
    expect(ledgerFilePath(DATA, 'findings')).toBe(`${DATA}/governance/findings/findings.jsonl`)
    expect(ledgerFilePath(DATA, 'executions')).toBe(`${DATA}/governance/actions/executions.jsonl`)
  })

  it('mirrors a shard under archive/ and flattens it for torn-tail evidence', () => {
    const shard = streamShardPath(DATA, 'default', INS, '2026-02-06')
    expect(archivePathFor(DATA, shard)).toBe(`${DATA}/archive/streams/default/${INS}/2026-02-06.jsonl.gz`)
    expect(tornEvidencePath(DATA, shard, 4096)).toBe(`${DATA}/governance/findings/torn/streams__default__${INS}__2026-02-06.jsonl.4096.bin`)
  })

  it('refuses scopes and instance ids that could escape their directory', () => {
    for (const scope of ['../x', 'a/b', '', 'UPPER']) {
      expect(() => busShardPath(DATA, scope, '2026-02-06')).toThrow()
      try {
        busShardPath(DATA, scope, '2026-02-06')
      } catch (err) {
        expect(isIsnadError(err, 'USAGE')).toBe(true)
      }
    }
    expect(() => streamShardPath(DATA, 'default', '../../etc', '2026-02-06')).toThrow()
  })
})
