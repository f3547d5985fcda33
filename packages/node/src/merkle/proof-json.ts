import { z } from 'zod'
import { IsnadError } from '../errors/index.js'
import { MAX_PROOF_HASHES, MAX_TREE_SIZE } from './constants.js'
import { hashFromHex, hashToHex } from './hash.js'
import type { ConsistencyProof, InclusionProof } from './types.js'

/*
 * The JSON forms of proofs (transparency-v1 §4): what `isnad ledger prove`, the HTTP API and proof
 * bundles carry. Decoding checks shape and limits only (R3, R4); whether a proof is right is
 * verifyInclusion / verifyConsistency's business.
 */

const treeSize = z.number().int().min(0).max(MAX_TREE_SIZE)
const hexHash = z.string().regex(/^[0-9a-f]{64}$/, 'must be 64 lower-case hex digits (a SHA-256 hash)')
const path = z.array(hexHash).max(MAX_PROOF_HASHES)

/** `{ leaf_index, tree_size, path: [hex…] }` (transparency-v1 §4.1, R4: leaf_index < tree_size). */
export const InclusionProofJsonSchema = z.strictObject({
  leaf_index: treeSize,
  tree_size: treeSize,
  path
}).refine((p) => p.leaf_index < p.tree_size, { message: 'leaf_index must be below tree_size', path: ['leaf_index'] })

/** `{ first, second, path: [hex…] }` (transparency-v1 §4.2, R4: first ≤ second). */
export const ConsistencyProofJsonSchema = z.strictObject({
  first: treeSize,
  second: treeSize,
  path
}).refine((p) => p.first <= p.second, { message: 'first must not exceed second', path: ['first'] })

export type InclusionProofJson = z.infer<typeof InclusionProofJsonSchema>
export type ConsistencyProofJson = z.infer<typeof ConsistencyProofJsonSchema>

export function inclusionProofToJson (proof: InclusionProof): InclusionProofJson {
  return { leaf_index: proof.leafIndex, tree_size: proof.treeSize, path: proof.path.map(hashToHex) }
}

export function consistencyProofToJson (proof: ConsistencyProof): ConsistencyProofJson {
  return { first: proof.first, second: proof.second, path: proof.path.map(hashToHex) }
}

/** Plain data (parsed JSON) to an InclusionProof; PROOF_MALFORMED names the first fault. */
export function inclusionProofFromJson (input: unknown): InclusionProof {
  const p = parseOrThrow(InclusionProofJsonSchema, input, 'inclusion proof')
  return { leafIndex: p.leaf_index, treeSize: p.tree_size, path: p.path.map((h) => hashFromHex(h)) }
}

export function consistencyProofFromJson (input: unknown): ConsistencyProof {
  const p = parseOrThrow(ConsistencyProofJsonSchema, input, 'consistency proof')
  return { first: p.first, second: p.second, path: p.path.map((h) => hashFromHex(h)) }
}

function parseOrThrow<T> (schema: z.ZodType<T>, input: unknown, what: string): T {
  const result = schema.safeParse(input)
  if (result.success) return result.data
  const issues = result.error.issues.slice(0, 8).map((issue) => ({ path: issue.path.join('.'), message: issue.message }))
  const first = issues[0]
  const summary = first === undefined ? 'invalid' : `${first.path === '' ? '(root)' : first.path}: ${first.message}`
  throw new IsnadError('PROOF_MALFORMED', `${what} is malformed: ${summary}`, { details: { issues } })
}
