import { hex, referenceLeafHash, referencePath, referenceProof, referenceRoot, unhex } from './reference.js'

/*
 * Builds protocols/vectors/merkle/rfc6962.json from the naive reference (reference.ts) and the
 * published RFC 6962 test data pinned below; vectors.test.ts checks the committed file against
 * this (ISNAD_WRITE_VECTORS=1 rewrites it). Expected outcomes of the corrupted proofs follow from
 * the rules of transparency-v1 §4.3, not from running src/merkle.
 */

/** The 8 leaves of the RFC 6962 reference tree (certificate-transparency-go, trillian, transparency-dev/merkle). */
export const REFERENCE_LEAVES = ['', '00', '10', '2021', '3031', '40414243', '5051525354555657', '606162636465666768696a6b6c6d6e6f']

/** Published roots for sizes 0..8 (transparency-dev/merkle proof/verify_test.go; size 0 is SHA-256 of nothing). */
export const REFERENCE_ROOTS = [
  'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
  '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d',
  'fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125',
  'aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77',
  'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
  '4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4',
  '76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef',
  'ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c',
  '5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328'
]

/** Published proofs (same source; its leaf numbers are 1-based, these leaf_index values 0-based). */
export const REFERENCE_INCLUSION = [
  { leaf_index: 0, tree_size: 1, path: [] },
  { leaf_index: 0, tree_size: 8, path: ['96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7', '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e', '6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4'] },
  { leaf_index: 5, tree_size: 8, path: ['bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b', 'ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0', 'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7'] },
  { leaf_index: 2, tree_size: 3, path: ['fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125'] },
  { leaf_index: 1, tree_size: 5, path: ['6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d', '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e', 'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b'] }
]

export const REFERENCE_CONSISTENCY = [
  { first: 1, second: 1, path: [] },
  { first: 1, second: 8, path: ['96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7', '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e', '6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4'] },
  { first: 6, second: 8, path: ['0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a', 'ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0', 'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7'] },
  { first: 2, second: 5, path: ['5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e', 'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b'] },
  { first: 6, second: 7, path: ['0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a', 'b08693ec2e721597130641e8211e7eedccb4c26413963eee6c1e2ed16ffb1a5f', 'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7'] }
]

/** A fixed well-formed hash that is nobody's node: the probes' "random root" and garbage element. */
export const SOME_HASH = 'abacaba000000000000000000000000000000000000000000060061e00123456'

export type Outcome = 'false' | 'PROOF_MALFORMED'

export interface InclusionVector { leaf_index: number, tree_size: number, leaf_hash: string, root: string, path: string[] }
export interface InvalidInclusion extends InclusionVector { id: string, expect: Outcome }
export interface ConsistencyVector { first: number, second: number, first_root: string, second_root: string, path: string[] }
export interface InvalidConsistency extends ConsistencyVector { id: string, expect: Outcome }

export interface MerkleVectors {
  description: string
  source: string
  leaves: string[]
  leaf_hashes: string[]
  roots: string[]
  reference: { inclusion: typeof REFERENCE_INCLUSION, consistency: typeof REFERENCE_CONSISTENCY }
  inclusion: InclusionVector[]
  consistency: ConsistencyVector[]
  invalid_inclusion: InvalidInclusion[]
  invalid_consistency: InvalidConsistency[]
}

/** Which proofs are corrupted: the published ones, then others of every shape (perfect, ragged, edge leaves). */
const CORRUPTED_INCLUSION = new Set(['0@8', '5@8', '2@3', '1@5', '6@7', '3@4', '1@2', '4@6'])
const CORRUPTED_CONSISTENCY = new Set(['1→8', '6→8', '2→5', '6→7', '3→7', '4→6', '5→8', '1→2'])

const data = REFERENCE_LEAVES.map(unhex)
const rootOf = (size: number): string => hex(referenceRoot(data.slice(0, size)))

export function buildVectors (): MerkleVectors {
  const inclusion: InclusionVector[] = []
  const consistency: ConsistencyVector[] = []
  for (let n = 1; n <= data.length; n++) {
    for (let m = 0; m < n; m++) {
      const path = referencePath(m, data.slice(0, n)).map(hex)
      inclusion.push({ leaf_index: m, tree_size: n, leaf_hash: hex(referenceLeafHash(data[m] as Uint8Array)), root: rootOf(n), path })
    }
  }
  for (let n = 0; n <= data.length; n++) {
    for (let m = 0; m <= n; m++) {
      consistency.push({ first: m, second: n, first_root: rootOf(m), second_root: rootOf(n), path: referenceProof(m, data.slice(0, n)).map(hex) })
    }
  }
  return {
    description: 'RFC 6962 §2.1 over the 8-leaf reference tree: roots for sizes 0..8, every inclusion proof (0 ≤ leaf_index < tree_size ≤ 8), every consistency proof (0 ≤ first ≤ second ≤ 8), and corrupted proofs that must be refused (transparency-v1 §8).',
    source: 'leaves, roots and the `reference` proofs: transparency-dev/merkle proof/verify_test.go (also certificate-transparency-go and trillian); the rest computed by the naive RFC 6962 reference in test/unit/merkle/reference.ts',
    leaves: REFERENCE_LEAVES,
    leaf_hashes: data.map((d) => hex(referenceLeafHash(d))),
    roots: Array.from({ length: data.length + 1 }, (_, n) => rootOf(n)),
    reference: { inclusion: REFERENCE_INCLUSION, consistency: REFERENCE_CONSISTENCY },
    inclusion,
    consistency,
    invalid_inclusion: inclusion.filter((v) => CORRUPTED_INCLUSION.has(`${v.leaf_index}@${v.tree_size}`)).flatMap(corruptInclusion),
    invalid_consistency: consistency.filter((v) => CORRUPTED_CONSISTENCY.has(`${v.first}→${v.second}`)).flatMap(corruptConsistency)
  }
}

function flipBit (hash: string, bit: number): string {
  const bytes = unhex(hash)
  bytes[0] = (bytes[0] as number) ^ (1 << bit)
  return hex(bytes)
}

/** The probes of transparency-dev's corruptInclusionProof, with well-formed garbage (32 bytes), plus another leaf's proof. */
function corruptInclusion (v: InclusionVector): InvalidInclusion[] {
  const { leaf_index: i, tree_size: n, path } = v
  const probe = (id: string, change: Partial<InclusionVector>): InvalidInclusion => {
    const p = { ...v, ...change }
    return { id: `${i}@${n} ${id}`, ...p, expect: p.leaf_index >= p.tree_size ? 'PROOF_MALFORMED' : 'false' }
  }
  const other = (i + 1) % n
  const probes = [
    ...(i > 0 ? [probe('leaf_index − 1', { leaf_index: i - 1 })] : []),
    probe('leaf_index + 1', { leaf_index: i + 1 }),
    probe('leaf_index ^ 2', { leaf_index: i ^ 2 }),
    probe('tree_size × 2', { tree_size: n * 2 }),
    probe('tree_size ÷ 2', { tree_size: Math.floor(n / 2) }),
    probe('wrong leaf hash', { leaf_hash: SOME_HASH }),
    probe('empty-tree root', { root: REFERENCE_ROOTS[0] as string }),
    probe('random root', { root: SOME_HASH }),
    probe('trailing garbage', { path: [...path, SOME_HASH] }),
    probe('trailing root', { path: [...path, v.root] }),
    probe('preceding garbage', { path: [SOME_HASH, ...path] }),
    probe('preceding root', { path: [v.root, ...path] }),
    probe('truncated path', { path: path.slice(0, -1) }),
    probe(`proof of leaf ${other}`, { leaf_hash: hex(referenceLeafHash(data[other] as Uint8Array)) }),
    ...path.map((_, k) => probe(`path[${k}] bit 3 flipped`, { path: path.map((h, j) => j === k ? flipBit(h, 3) : h) }))
  ]
  if (path.length > 1) probes.push(probe('inserted component', { path: [path[0] as string, SOME_HASH, ...path.slice(1)] }))
  return probes
}

/** transparency-dev's corruptConsistencyProof probes, with well-formed garbage. */
function corruptConsistency (v: ConsistencyVector): InvalidConsistency[] {
  const { first: m, second: n, path } = v
  const probe = (id: string, change: Partial<ConsistencyVector>): InvalidConsistency => {
    const p = { ...v, ...change }
    return { id: `${m}→${n} ${id}`, ...p, expect: p.first > p.second ? 'PROOF_MALFORMED' : 'false' }
  }
  return [
    probe('first − 1', { first: m - 1 }),
    probe('first + 1', { first: m + 1 }),
    probe('first ^ 2', { first: m ^ 2 }),
    probe('second × 2', { second: n * 2 }),
    probe('second ÷ 2', { second: Math.floor(n / 2) }),
    probe('wrong first root', { first_root: SOME_HASH }),
    probe('wrong second root', { second_root: SOME_HASH }),
    probe('swapped roots', { first_root: v.second_root, second_root: v.first_root }),
    probe('empty path', { path: [] }),
    probe('trailing garbage', { path: [...path, SOME_HASH] }),
    probe('trailing first root', { path: [...path, v.first_root] }),
    probe('trailing second root', { path: [...path, v.second_root] }),
    probe('preceding garbage', { path: [SOME_HASH, ...path] }),
    probe('preceding first root', { path: [v.first_root, ...path] }),
    probe('preceding second root', { path: [v.second_root, ...path] }),
    probe('preceding path[0]', { path: [path[0] as string, ...path] }),
    probe('truncated path', { path: path.slice(0, -1) }),
    ...path.map((_, k) => probe(`path[${k}] bit 4 flipped`, { path: path.map((h, j) => j === k ? flipBit(h, 4) : h) }))
  ]
}
