import { access, appendFile, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { gunzipSync } from 'node:zlib'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { isIsnadError } from '../../../src/errors/index.js'
import { ARCHIVE_GZIP_HEADER, archiveShards } from '../../../src/ledger/audit/index.js'
import { archivePathFor, busShardPath, listScopeShards, openEventLedger, streamShardPath } from '../../../src/ledger/index.js'
import { collect, listFiles } from '../ledger/helpers.js'
import { writeArchive } from '../../../src/ledger/audit/gzip.js'
import { audit, createTempHome, SCOPE, STEP_MS, writeLedger, type BuiltLedger } from './fixture.js'

/** archiveShards (spec §4 archive/): old shards compressed, still read by verify and readEvents. */
describe('archiving old shards', () => {
  let home: { dataDir: string, remove: () => Promise<void> }
  let built: BuiltLedger

  beforeEach(async () => {
    home = await createTempHome('archive')
    built = await writeLedger(home.dataDir) // 2026-02-10 … 2026-02-16; built.now is on 2026-02-16
  })
  afterEach(async () => { await home.remove() })

  it('moves shards older than the age to archive/*.jsonl.gz, readable by readEvents and the audit', async () => {
    const originals = new Map<string, Buffer>()
    for (const shard of await listScopeShards(home.dataDir, SCOPE)) originals.set(shard.path, await readFile(shard.path))
    const result = await archiveShards({ dataDir: home.dataDir, olderThanDays: 3, now: () => built.now })
    // 2026-02-16 minus 3 days: 02-10 … 02-12 go (age 4–6), 02-13 (age 3) stays
    expect(result.skipped).toEqual([])
    expect(result.archived.map((a) => a.from)).toEqual([
      `streams/${SCOPE}/${built.instanceId}/2026-02-10.jsonl`, `streams/${SCOPE}/${built.instanceId}/2026-02-11.jsonl`,
      `streams/${SCOPE}/${built.instanceId}/2026-02-12.jsonl`, `bus/${SCOPE}/2026-02-11.jsonl`, `bus/${SCOPE}/2026-02-12.jsonl`
    ])
    for (const a of result.archived) {
      expect(a.to).toBe(`archive/${a.from}.gz`)
      const gz = await readFile(join(home.dataDir, a.to))
      expect(gz.subarray(0, 10)).toEqual(Buffer.from(ARCHIVE_GZIP_HEADER))
      expect(gunzipSync(gz)).toEqual(originals.get(join(home.dataDir, a.from)))
      await expect(access(join(home.dataDir, a.from))).rejects.toThrow()
    }
    expect((await audit(home.dataDir, built.now)).findings).toEqual([])

    let now = built.now
    const ledger = await openEventLedger({ dataDir: home.dataDir, scope: SCOPE, clock: () => (now += STEP_MS) })
    try {
      expect(await collect(ledger.readEvents())).toEqual(built.events)
      const [next] = await ledger.append([{ type: 'memory.published', actor: 'node', owner: 'node', payload: {}, idempotency_key: 'after-archive' }])
      expect(next?.event?.lc).toBe(built.events.length + 1) // the Lamport clock continues past the archives
    } finally {
      await ledger.close()
    }
    expect((await audit(home.dataDir, now + STEP_MS)).findings).toEqual([])
  })

  it('checks every byte of an archive: header, compressed data, CRC', async () => {
    const [first] = (await archiveShards({ dataDir: home.dataDir, olderThanDays: 5, now: () => built.now })).archived
    const path = join(home.dataDir, first?.to ?? '')
    const gz = await readFile(path)
    gz[9] = 0x03 // the OS byte: nothing in gzip checks it
    await writeFile(path, gz)
    expect((await audit(home.dataDir, built.now)).findings.map((f) => `${f.kind} ${f.file}`)).toEqual([`archive_header ${first?.to ?? ''}`])
    gz[9] = 0xff
    gz[gz.length - 5] = (gz[gz.length - 5] as number) ^ 1 // the CRC-32
    await writeFile(path, gz)
    expect((await audit(home.dataDir, built.now)).findings.map((f) => f.kind)).toContain('archive_unreadable')
  })

  it('never archives the current UTC day, even with age 0, and is idempotent', async () => {
    const result = await archiveShards({ dataDir: home.dataDir, olderThanDays: 0, now: () => built.now })
    expect(result.archived.map((a) => a.from)).not.toContain(`streams/${SCOPE}/${built.instanceId}/2026-02-16.jsonl`)
    expect(result.archived).toHaveLength((await listFiles(join(home.dataDir, 'archive'))).length)
    await access(streamShardPath(home.dataDir, SCOPE, built.instanceId, '2026-02-16'))
    expect(await archiveShards({ dataDir: home.dataDir, olderThanDays: 0, now: () => built.now })).toEqual({ archived: [], skipped: [], packs: 0 })
    expect((await audit(home.dataDir, built.now)).findings).toEqual([])
  })

  it('skips a shard whose last line is torn, and finishes an archive a crash interrupted', async () => {
    const torn = busShardPath(home.dataDir, SCOPE, '2026-02-11')
    await appendFile(torn, '{"torn')
    const interrupted = streamShardPath(home.dataDir, SCOPE, built.instanceId, '2026-02-10')
    await writeArchive(interrupted, archivePathFor(home.dataDir, interrupted)) // the copy written, the shard not yet removed
    expect((await audit(home.dataDir, built.now)).findings.map((f) => f.kind)).toEqual(['torn_tail'])
    const result = await archiveShards({ dataDir: home.dataDir, scope: SCOPE, olderThanDays: 4, now: () => built.now })
    expect(result.skipped).toEqual([{ file: `bus/${SCOPE}/2026-02-11.jsonl`, reason: expect.stringContaining('torn') }])
    expect(result.archived.map((a) => a.from)).toEqual([
      `streams/${SCOPE}/${built.instanceId}/2026-02-10.jsonl`, `streams/${SCOPE}/${built.instanceId}/2026-02-11.jsonl`
    ])
  })

  it('refuses to run beside a writer, unless it is that writer', async () => {
    const ledger = await openEventLedger({ dataDir: home.dataDir, scope: SCOPE, clock: () => built.now })
    try {
      await expect(archiveShards({ dataDir: home.dataDir, olderThanDays: 3, now: () => built.now })).rejects.toSatisfy((err) => isIsnadError(err, 'LEDGER_LOCKED'))
      const result = await archiveShards({ dataDir: home.dataDir, olderThanDays: 3, now: () => built.now, holdsLock: true })
      expect(result.archived).toHaveLength(5)
      expect(await collect(ledger.readEvents())).toEqual(built.events)
    } finally {
      await ledger.close()
    }
    await expect(archiveShards({ dataDir: home.dataDir, olderThanDays: -1, now: () => built.now })).rejects.toSatisfy((err) => isIsnadError(err, 'USAGE'))
  })
})
