import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { nobleVerifier } from '../../../src/identity/index.js'
import { CheckpointRegistry, LogAuditor } from '../../../src/ledger/audit/log-audit.js'
import { computeRoot, createCheckpoint, hashLeaf, hashToHex, leafDataOfCid, signCheckpoint } from '../../../src/merkle/index.js'
import { createAgent, createMemory } from '../../fixtures/records.js'

/** The audit's rebuild of the node's RFC 6962 log and its checkpoint checks (transparency-v1). */

const author = createAgent(1)
const CIDS = Array.from({ length: 40 }, (_, i) => createMemory(author, { summary: `leaf ${i}` }).id)
const LOG = createAgent(9)
const NOW = Date.parse('2026-03-01T00:00:00Z')
const WHERE = { file: 'streams/s/ins_x/2026-02-01.jsonl', offset: 0, line: 1 }

function checkpoint (size: number, root: Uint8Array): { id: string, checkpoint: unknown } {
  const { id, signed } = signCheckpoint(createCheckpoint({ log: LOG.did, size, root, createdAt: '2026-02-01T00:00:00Z' }), LOG.secretKey)
  return { id, checkpoint: signed }
}

const rootOf = (n: number): Uint8Array => computeRoot(CIDS.slice(0, n).map((c) => hashLeaf(leafDataOfCid(c))))

describe('LogAuditor', () => {
  it('keeps the root of every size equal to RFC 6962 MTH (frontier vs computeRoot)', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: CIDS.length }), (n) => {
      const log = new LogAuditor(nobleVerifier, new CheckpointRegistry(nobleVerifier), NOW)
      for (const cid of CIDS.slice(0, n)) log.addLeaf(cid)
      expect(log.summary()).toEqual({ size: n, root: hashToHex(rootOf(n)) })
    }), { numRuns: 60 })
  })

  it('counts a CID once, as the node\'s MerkleLog does (transparency-v1 R2)', () => {
    const log = new LogAuditor(nobleVerifier, new CheckpointRegistry(nobleVerifier), NOW)
    for (const cid of [...CIDS.slice(0, 3), CIDS[0] as string]) log.addLeaf(cid)
    expect(log.size).toBe(3)
  })

  it('accepts a checkpoint of the log so far, and names each way one can be wrong', () => {
    const registry = new CheckpointRegistry(nobleVerifier)
    const log = new LogAuditor(nobleVerifier, registry, NOW)
    for (const cid of CIDS.slice(0, 5)) log.addLeaf(cid)
    expect(log.checkCheckpoint(checkpoint(5, rootOf(5)), WHERE, undefined)).toEqual([])
    const kinds = (payload: unknown, explained?: string): string[] =>
      log.checkCheckpoint(payload as Record<string, unknown>, WHERE, explained).map((d) => `${d.kind}${d.severity === 'warning' ? ' warning' : ''}`)
    expect(kinds(checkpoint(4, rootOf(4)))).toEqual(['checkpoint_size'])
    expect(kinds(checkpoint(5, rootOf(4)))).toEqual(['checkpoint_root', 'equivocation'])
    expect(kinds(checkpoint(6, rootOf(6)))).toEqual(['checkpoint_size'])
    expect(kinds(checkpoint(3, rootOf(4)), 'archive/quarantine/x')).toEqual(['checkpoint_size warning', 'checkpoint_root warning'])
    const good = checkpoint(5, rootOf(5))
    expect(kinds({ ...good, id: CIDS[0] })).toEqual(['checkpoint_invalid'])
    expect(kinds({ id: good.id })).toEqual(['checkpoint_invalid'])
    const signed = good.checkpoint as { record: object, signature: string }
    expect(kinds({ id: good.id, checkpoint: { ...signed, signature: 'A'.repeat(86) } })).toEqual(['checkpoint_invalid'])
  })

  it('reports a fork once per pair of checkpoints, across scopes', () => {
    const registry = new CheckpointRegistry(nobleVerifier)
    const a = checkpoint(2, rootOf(2))
    const b = checkpoint(2, rootOf(3))
    const verified = (p: { checkpoint: unknown }): Parameters<CheckpointRegistry['add']>[1] => p.checkpoint as Parameters<CheckpointRegistry['add']>[1]
    expect(registry.add(a.id, verified(a), WHERE)).toBeUndefined()
    expect(registry.add(b.id, verified(b), WHERE)?.kind).toBe('equivocation')
    expect(registry.add(b.id, verified(b), WHERE)).toBeUndefined()
    expect(registry.add(a.id, verified(a), WHERE)).toBeUndefined()
  })
})
