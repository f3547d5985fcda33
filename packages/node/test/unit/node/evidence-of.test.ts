import { describe, expect, it } from 'vitest'
import { evidenceOf } from '../../../src/node/trust/memory-evidence.js'
import type { AnchorRecord, AttestationRecord, MemoryRecord } from '../../../src/schema/index.js'
import type { StoredRecord } from '../../../src/record-index/index.js'

/*
 * evidenceOf adds a batch's pending attestations and anchors of a memory to its stored ones, except
 * those already stored: looked up through a set for many stored records, in place for a few. Both
 * ways must give the same evidence, and a record pending twice is added twice either way (the
 * counting rules refuse the copy), as before.
 */

const MEMORY = 'mem'
const SIGNATURE = 'A'.repeat(86)

function memory (): StoredRecord<MemoryRecord> {
  const record = {
    kind: 'memory', version: 1, content: { type: 'insight', summary: 's', body: '', tags: [] }, author: { agent_id: 'author' },
    created_at: '2026-02-05T11:29:38Z', context: { confidence: 0.9 }, lineage: { derived_from: [] }
  } as MemoryRecord
  return { id: MEMORY, signed: { record, signature: SIGNATURE } }
}

function attestation (id: string, of = MEMORY): StoredRecord<AttestationRecord> {
  const record: AttestationRecord = { kind: 'attestation', version: 1, memory: of, witness: `w-${id}`, attestation: 'confirm', witnessed_at: '2026-02-05T11:40:00Z' }
  return { id, signed: { record, signature: SIGNATURE } }
}

function anchor (id: string, of = MEMORY): StoredRecord<AnchorRecord> {
  const record: AnchorRecord = { kind: 'anchor', version: 1, memory: of, type: 'url', reference: `https://example.org/${id}`, hash: 'sha2-256:00', created_at: '2026-02-05T11:40:00Z', anchored_by: 'x' }
  return { id, signed: { record, signature: SIGNATURE } }
}

function idsOf (evidence: ReturnType<typeof evidenceOf>): { attestations: string[], anchors: string[] } {
  return { attestations: evidence.attestations.map((a) => a.id), anchors: evidence.anchors.map((a) => a.stored.id) }
}

describe('evidenceOf with pending records', () => {
  for (const stored of [0, 1, 3, 15, 16, 17, 40]) {
    it(`skips pending records already among ${stored} stored ones, adds the rest`, () => {
      const storedAttestations = Array.from({ length: stored }, (_, i) => attestation(`s${i}`))
      const storedAnchors = stored === 0 ? [] : [anchor('k0')]
      const pending = [
        ...storedAttestations.slice(0, 2), ...storedAnchors, // already stored
        attestation('p1'), anchor('k1'), attestation('p2', 'other'), attestation('p1') // new, another memory's, twice
      ]
      const evidence = evidenceOf(memory(), [...storedAttestations], [...storedAnchors], pending)
      expect(idsOf(evidence)).toEqual({
        attestations: [...storedAttestations.map((a) => a.id), 'p1', 'p1'],
        anchors: [...storedAnchors.map((a) => a.id), 'k1']
      })
      // The ids the caller knows give the same evidence.
      const known = new Set([...storedAttestations, ...storedAnchors].map((r) => r.id))
      expect(idsOf(evidenceOf(memory(), [...storedAttestations], [...storedAnchors], pending, known))).toEqual(idsOf(evidence))
    })
  }
})
