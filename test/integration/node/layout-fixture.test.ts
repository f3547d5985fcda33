import { cp, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { LocalNode, nodePaths } from '../../../src/node/index.js'
import { auditHome } from './audit-home.js'
import { createAgent } from '../../fixtures/records.js'

/*
 * A node home written by the build of 40f8ecc, the ledger layout before issue 20
 * (test/fixtures/home-40f8ecc: its `.memory/` without the derived index; make-fixture.mjs says how it
 * was made): 7 memories (one superseding another), 3 attestations, a witness request and a signed
 * checkpoint. Opened by today's code, every record comes back through the ingest pipeline's recovery,
 * queries answer, and `ledger verify` (with the index check) calls it healthy. This is the fixture a
 * migration of the layout (issue 20 item 2) is to be tested on.
 */

const carol = createAgent(72) // seed 32 × 73
const FIXTURE = join(import.meta.dirname, '../../fixtures/home-40f8ecc/memory')

describe('a home of the layout before issue 20 (fixture written by 40f8ecc)', () => {
  let home: string
  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'isnad-layout-fixture-'))
    await cp(FIXTURE, nodePaths(home).data, { recursive: true })
  })
  afterEach(async () => { await rm(home, { recursive: true, force: true }) })

  it('opens, recovers every record through the pipeline, answers queries, and verifies healthy', async () => {
    const node = await LocalNode.open({ home })
    try {
      expect(await node.store.count()).toEqual({ memory: 7, attestation: 3, anchor: 0, witness_request: 1 })
      expect(node.writer.merkle.size).toBe(11)
      const tagged = await node.query({ tags: ['fixture'] })
      expect(tagged.items).toHaveLength(7)
      const confirmed = tagged.items.find((item) => item.summary === 'fixture memory 0')
      if (confirmed === undefined) throw new Error('fixture memory 0 is missing')
      const view = await node.show(confirmed.id)
      expect(view.witnesses).toHaveLength(2)
      // The request addressed to carol (seed 73 × 32, make-fixture.mjs) waits in her inbox.
      expect((await node.inbox([carol.did])).map((item) => item.to)).toEqual([[carol.did]])
    } finally {
      await node.close()
    }
    const report = await auditHome(home)
    expect(report.findings.map((f) => `${f.kind}: ${f.message}`)).toEqual([])
    expect(report.status).toBe('healthy')
  })
})
