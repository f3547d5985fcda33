import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { buildChain } from '../../../src/dashboard/browser/chain.js'
import { checkSignedRecord } from '../../../src/dashboard/browser/verify-in-browser.js'
import type { ErrorCode } from '../../../src/errors/index.js'
import { signRecord } from '../../../src/index.js'
import type { SignedRecord } from '../../../src/schema/index.js'
import { buildMemoryView } from '../../../src/memory-view/index.js'
import { createAgent, createAnchor, createAttestation, createMemory } from '../../fixtures/records.js'

/*
 * The dashboard's in-browser check (src/dashboard/browser/verify-in-browser.ts) against the normative record
 * vectors: it must accept what the node accepts and refuse every forged, tampered or malformed
 * record the node refuses. Freshness and kind are the node's rules for accepting records, not facts
 * about a signature, so those vectors are not the browser's to refuse.
 */

interface ValidVector { id: string, signed: SignedRecord, cid: string }
interface InvalidVector { id: string, code: ErrorCode, signed?: unknown }
const load = <V>(name: string): { vectors: V[] } =>
  JSON.parse(readFileSync(new URL(`../../../protocols/vectors/records/${name}`, import.meta.url), 'utf8')) as { vectors: V[] }

const REFUSED_BY_BROWSER: ReadonlySet<ErrorCode> = new Set(['SCHEMA_INVALID', 'FIELD_TOO_LARGE', 'SIGNATURE_INVALID', 'SIGNATURE_MALFORMED', 'DID_INVALID'])

describe('checkSignedRecord (the dashboard\'s verifier)', () => {
  it('accepts every valid vector, with the vector\'s id', () => {
    for (const v of load<ValidVector>('valid.json').vectors) {
      const check = checkSignedRecord(v.signed, v.cid)
      expect(check.valid, `${v.id}: ${check.reason ?? ''}`).toBe(true)
      expect(check.id, v.id).toBe(v.cid)
    }
  })

  it('refuses every invalid vector about the record itself', () => {
    const vectors = load<InvalidVector>('invalid.json').vectors.filter((v) => v.signed !== undefined && REFUSED_BY_BROWSER.has(v.code))
    expect(vectors.length).toBeGreaterThan(60)
    for (const v of vectors) {
      const check = checkSignedRecord(v.signed)
      expect(check.valid, v.id).toBe(false)
      expect(check.reason, v.id).toBeDefined()
    }
  })

  it('refuses a valid record under an id the node made up', () => {
    const memory = createMemory(createAgent(1))
    const other = createMemory(createAgent(1), { summary: 'another memory' })
    const check = checkSignedRecord(memory.signed, other.id)
    expect(check).toMatchObject({ valid: false, idMatches: false, id: memory.id })
    expect(check.reason).toContain(other.id)
  })
})

describe('buildChain', () => {
  const author = createAgent(1)
  const witness = createAgent(2)
  const memory = createMemory(author)
  const confirm = createAttestation(witness, memory.id, 'confirm')
  const anchor = createAnchor(author, memory.id)
  const view = buildMemoryView({
    memory,
    attestations: [confirm],
    anchors: [{ ...anchor, verification: { state: 'verified' } }],
    supersededBy: null,
    chainDepth: 0,
    trust: null
  })

  it('links the author, the witnesses with their verdicts and the anchors with their state, each checked', () => {
    const chain = buildChain(view, [memory.signed, confirm.signed, anchor.signed])
    expect(chain).toMatchObject({ verified: 3, total: 3 })
    expect(chain.author).toMatchObject({ id: memory.id, signer: author.did })
    expect(chain.witnesses).toEqual([expect.objectContaining({ id: confirm.id, signer: witness.did, verdict: 'confirm' })])
    expect(chain.anchors).toEqual([expect.objectContaining({ id: anchor.id, state: 'verified' })])
  })

  it('draws the verdict the witness signed, not the one the node printed, and flags what the node did not send', () => {
    const lyingView = { ...view, witnesses: view.witnesses.map((w) => ({ ...w, attestation: 'dispute' as const })) }
    const chain = buildChain(lyingView, [memory.signed, confirm.signed])
    expect(chain.witnesses[0]?.verdict).toBe('confirm')
    expect(chain.anchors[0]?.check).toMatchObject({ valid: false, reason: 'the node listed this record but did not send it' })
    expect(chain).toMatchObject({ verified: 2, total: 3 })
  })

  it('carries a partial\'s claims and a witness\'s notes from the signed record', () => {
    const signed = createAttestation(witness, memory.id, 'partial')
    const partial = signRecord({ ...signed.signed.record, notes: 'read the runbook only', claims: ['the runbook says so', 'staging only'] }, witness.secretKey)
    const partialView = buildMemoryView({ memory, attestations: [partial], anchors: [], supersededBy: null, chainDepth: 0, trust: null })
    const chain = buildChain(partialView, [memory.signed, partial.signed])
    expect(chain.witnesses).toEqual([expect.objectContaining({
      id: partial.id, verdict: 'partial', notes: 'read the runbook only', claims: ['the runbook says so', 'staging only']
    })])
    expect(chain.witnesses[0]?.check.valid).toBe(true)
    // A confirm has neither.
    expect(buildChain(view, [memory.signed, confirm.signed]).witnesses[0]).not.toHaveProperty('claims')
  })

  it('marks a tampered attestation as not verified', () => {
    const tampered = { ...confirm.signed, record: { ...confirm.signed.record, notes: 'added later' } }
    const chain = buildChain(view, [memory.signed, tampered, anchor.signed])
    // Its bytes hash to another id, which the view never listed: the listed one is missing, the other fails its signature.
    expect(chain.witnesses.every((w) => !w.check.valid)).toBe(true)
    expect(chain.verified).toBe(2)
  })
})
