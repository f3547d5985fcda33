import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { ANCHOR_STATES, ANCHOR_TYPES, ATTESTATION_VERDICTS } from '../../../src/schema/index.js'
import { computeTrust, TRUST_LEVELS, type TrustInput } from '../../../src/trust/index.js'
import { anchorEvidence, attestationEvidence, memoryEvidence } from './fixtures.js'

/**
 * Runs the normative vectors of protocols/vectors/trust/isnad-v0.1.json. Their inputs are compact:
 * opaque labels for ids and agents, defaults from the file's `defaults` block. Each vector's
 * `comment` gives the algorithm's arithmetic.
 */

const FILE = new URL('../../../protocols/vectors/trust/isnad-v0.1.json', import.meta.url)

const Attestation = z.strictObject({
  id: z.string(), witness: z.string(), verdict: z.enum(ATTESTATION_VERDICTS),
  witnessed_at: z.string().optional(), memory: z.string().optional(), signature_valid: z.boolean().optional()
})
const Anchor = z.strictObject({
  id: z.string(), type: z.enum(ANCHOR_TYPES).optional(), reference: z.string().optional(), created_at: z.string().optional(),
  memory: z.string().optional(), signature_valid: z.boolean().optional(), state: z.enum(ANCHOR_STATES).optional()
})
const Vector = z.strictObject({
  id: z.string(),
  comment: z.string().min(1),
  memory: z.strictObject({ author: z.string().optional(), created_at: z.string().optional(), signature_valid: z.boolean().optional() }).optional(),
  now: z.string().optional(),
  reputation: z.record(z.string(), z.number()).optional(),
  attestations: z.array(Attestation),
  anchors: z.array(Anchor),
  expected: z.strictObject({
    score: z.number(),
    points: z.number(),
    level: z.enum(TRUST_LEVELS),
    unclamped_score: z.number().optional(),
    counted: z.strictObject({ attestations: z.array(z.string()), anchors: z.array(z.string()) }),
    refused: z.strictObject({ attestations: z.record(z.string(), z.string()), anchors: z.record(z.string(), z.string()) })
  })
})
const VectorFile = z.object({
  policy: z.literal('isnad-v0.1'),
  defaults: z.object({
    memory: z.strictObject({ id: z.string(), author: z.string(), created_at: z.string(), signature_valid: z.boolean() }),
    now: z.string(),
    reputation: z.number(),
    attestation: z.strictObject({ memory: z.string(), witnessed_at: z.string(), signature_valid: z.boolean() }),
    anchor: z.strictObject({
      memory: z.string(), type: z.enum(ANCHOR_TYPES), reference: z.string(), created_at: z.string(),
      signature_valid: z.boolean(), state: z.enum(ANCHOR_STATES), anchored_by: z.string()
    })
  }),
  vectors: z.array(Vector).min(1)
})

const file = VectorFile.parse(JSON.parse(readFileSync(FILE, 'utf8')))
const { defaults } = file
type VectorCase = z.infer<typeof Vector>

function inputOf (v: VectorCase): TrustInput {
  const memory = { ...defaults.memory, ...v.memory }
  const reputation = v.reputation ?? {}
  return {
    memory: memoryEvidence({ id: memory.id, author: memory.author, createdAt: memory.created_at, signatureValid: memory.signature_valid }),
    attestations: v.attestations.map((a) => {
      const evidence = attestationEvidence({
        id: a.id, witness: a.witness, verdict: a.verdict,
        memory: a.memory ?? defaults.attestation.memory, signatureValid: a.signature_valid ?? defaults.attestation.signature_valid
      })
      // Verbatim, not through Date: some vectors test timestamps without milliseconds.
      evidence.record.witnessed_at = a.witnessed_at ?? defaults.attestation.witnessed_at
      return evidence
    }),
    anchors: v.anchors.map((k) => {
      const evidence = anchorEvidence({
        id: k.id, type: k.type ?? defaults.anchor.type, reference: k.reference ?? defaults.anchor.reference.replace('<id>', k.id),
        memory: k.memory ?? defaults.anchor.memory, signatureValid: k.signature_valid ?? defaults.anchor.signature_valid,
        state: k.state ?? defaults.anchor.state, anchoredBy: defaults.anchor.anchored_by
      })
      evidence.record.created_at = k.created_at ?? defaults.anchor.created_at
      return evidence
    }),
    reputation: (agent) => reputation[agent] ?? defaults.reputation,
    now: Date.parse(v.now ?? defaults.now)
  }
}

describe('trust vectors isnad-v0.1', () => {
  it('the file has unique vector ids', () => {
    const ids = file.vectors.map((v) => v.id)
    expect(new Set(ids).size, 'vector ids unique').toBe(ids.length)
  })

  it.each(file.vectors)('$id', (v) => {
    const result = computeTrust(inputOf(v))
    expect(result.score, `${v.id}: score`).toBe(v.expected.score)
    expect(result.points, `${v.id}: points`).toBe(v.expected.points)
    expect(result.level, `${v.id}: level`).toBe(v.expected.level)
    expect(result.unclamped_score, `${v.id}: unclamped_score`).toBe(v.expected.unclamped_score)
    expect(result.counted.attestations.map((a) => a.id).sort(), `${v.id}: counted attestations`).toStrictEqual(v.expected.counted.attestations)
    expect(result.counted.anchors.map((a) => a.id).sort(), `${v.id}: counted anchors`).toStrictEqual(v.expected.counted.anchors)
    expect(Object.fromEntries(result.refused.attestations.map((r) => [r.id, r.code])), `${v.id}: refused attestations`)
      .toStrictEqual(v.expected.refused.attestations)
    expect(Object.fromEntries(result.refused.anchors.map((r) => [r.id, r.code])), `${v.id}: refused anchors`)
      .toStrictEqual(v.expected.refused.anchors)
  })
})
