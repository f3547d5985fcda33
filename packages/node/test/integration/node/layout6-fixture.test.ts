import { cp, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Level } from 'level'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { verifyRecordInclusion } from '../../../src/merkle/index.js'
import { nodeCryptoVerifier } from '../../../src/fast-crypto/index.js'
import { LocalNode, proveRecord } from '../../../src/node/index.js'
import { nodePaths } from '../../../src/home/index.js'
import { JournalState } from '../../../src/node/journal/journal-state.js'
import { INDEX_FORMAT } from '../../../src/record-index/index.js'
import { auditHome } from './audit-home.js'

/*
 * A home whose index is of layout 6, the last with text keys (test/fixtures/home-layout6, written by
 * the build of bf168af: make-fixture.mjs). Layout 7 (binary keys, scope numbers, the Merkle log's
 * leaves in its columns: src/record-index/level/format.ts) reads nothing of it: the node rebuilds the
 * index once when it opens, and everything the index serves answers as before — queries (a tag
 * outside ASCII too), successors, witnesses, sync-v1's records in log order, inclusion proofs,
 * `ledger verify`.
 */

const FIXTURE = join(import.meta.dirname, '../../fixtures/home-layout6/memory')

async function rawKeys (location: string, gte: string, lt: string): Promise<string[]> {
  const db = new Level<string, string>(location)
  try {
    return await db.keys({ gte, lt }).all()
  } finally {
    await db.close()
  }
}

async function formatOf (home: string): Promise<string | undefined> {
  const db = new Level<string, string>(join(nodePaths(home).index, 'records'))
  try {
    return await db.get('!meta!format')
  } finally {
    await db.close()
  }
}

describe('a home with an index of layout 6 (fixture written by bf168af)', () => {
  let home: string
  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'isnad-layout6-'))
    await cp(FIXTURE, nodePaths(home).data, { recursive: true })
  })
  afterEach(async () => { await rm(home, { recursive: true, force: true }) })

  it('is rebuilt once on open as layout 7, and serves queries, sync, proofs and verify from it', async () => {
    expect(await formatOf(home)).toBe('6')
    const node = await LocalNode.open({ home })
    let ids: string[]
    try {
      expect(await node.store.count()).toEqual({ memory: 9, attestation: 4, anchor: 0, witness_request: 1 })
      const layout6 = await node.query({ tags: ['ünïcode'] })
      expect(layout6.items.map((item) => item.summary)).toEqual(['layout 6 memory'])
      const id = layout6.items[0]?.id as string
      expect((await node.show(id)).witnesses).toHaveLength(1)
      expect((await node.query({ tags: ['layout6'], type: 'fact' })).items.map((item) => item.summary)).toEqual(['layout 6 correction'])
      const fixture = (await node.query({ tags: ['fixture'], limit: 100 })).items
      expect(fixture).toHaveLength(7)
      const corrected = fixture.find((item) => item.summary === 'fixture memory 4')?.id as string
      expect(await node.store.supersededBy(corrected)).toHaveLength(1)
      // sync-v1 serves the records in log order from the Merkle log's own leaves.
      ids = (await node.journal.state.recordsSince(0, 100)).ids
      expect(ids).toHaveLength(node.journal.merkle.size)
      expect(ids).toContain(id)
      expect((await node.journal.state.recordsSince(5, 3)).ids).toEqual(ids.slice(5, 8))
      await node.journal.checkpoint()
    } finally {
      await node.close()
    }
    expect(await formatOf(home)).toBe(INDEX_FORMAT)
    // Nothing of layout 6's keys is left in either LevelDB.
    expect(await rawKeys(join(nodePaths(home).index, 'records'), '!query!', '!query"')).toEqual([])
    expect(await rawKeys(join(nodePaths(home).index, 'records'), '!records!', '!records"')).toEqual([])
    const journal = join(nodePaths(home).index, 'journal')
    expect(await rawKeys(journal, '!leaves!', '!leaves"')).toEqual([])
    expect(await rawKeys(journal, '!merkle!', '!merkle"')).toEqual([])
    const state = await JournalState.open(journal)
    try {
      expect((await state.recordsSince(0, 100)).ids).toEqual(ids)
    } finally {
      await state.close()
    }
    // An inclusion proof of every record against the checkpoint just signed.
    for (const id of ids) expect(verifyRecordInclusion(await proveRecord(home, id), nodeCryptoVerifier), id).toBe(true)
    const report = await auditHome(home)
    expect(report.findings.map((f) => `${f.kind}: ${f.message}`)).toEqual([])
    expect(report.status).toBe('healthy')
    // Rebuilt once: the next open reads it as it is.
    const again = await LocalNode.open({ home })
    try {
      expect((await again.query({ tags: ['ünïcode'] })).items).toHaveLength(1)
    } finally {
      await again.close()
    }
  }, 120_000)
})
