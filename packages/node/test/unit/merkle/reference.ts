import { createHash } from 'node:crypto'

/*
 * A naive RFC 6962 §2.1 written straight from the RFC's text over lists of leaf *data* (D[n]),
 * independent of src/merkle: node:crypto rather than @noble/hashes, array slices rather than
 * ranges and perfect subtrees, no verification shortcuts. Slow (every call rehashes what it
 * needs), which is the point: it is the oracle the fast code and the vectors are checked against.
 */

type Data = readonly Uint8Array[]

function sha256 (...parts: Uint8Array[]): Uint8Array {
  const hash = createHash('sha256')
  for (const part of parts) hash.update(part)
  return new Uint8Array(hash.digest())
}

/** "the largest power of two smaller than n" (k < n ≤ 2k), by doubling. */
function largestPowerOfTwoBelow (n: number): number {
  let k = 1
  while (k * 2 < n) k *= 2
  return k
}

/** MTH(D[n]): SHA-256() for n = 0, SHA-256(0x00 ‖ d(0)) for n = 1, else SHA-256(0x01 ‖ MTH(D[0:k]) ‖ MTH(D[k:n])). */
export function referenceRoot (data: Data): Uint8Array {
  if (data.length === 0) return sha256()
  if (data.length === 1) return sha256(Uint8Array.of(0), data[0] as Uint8Array)
  const k = largestPowerOfTwoBelow(data.length)
  return sha256(Uint8Array.of(1), referenceRoot(data.slice(0, k)), referenceRoot(data.slice(k)))
}

export function referenceLeafHash (leaf: Uint8Array): Uint8Array {
  return referenceRoot([leaf])
}

/** PATH(m, D[n]) (RFC 6962 §2.1.1), for 0 ≤ m < n. */
export function referencePath (m: number, data: Data): Uint8Array[] {
  const n = data.length
  if (n === 1) return []
  const k = largestPowerOfTwoBelow(n)
  if (m < k) return [...referencePath(m, data.slice(0, k)), referenceRoot(data.slice(k))]
  return [...referencePath(m - k, data.slice(k)), referenceRoot(data.slice(0, k))]
}

/** PROOF(m, D[n]) = SUBPROOF(m, D[n], true) (RFC 6962 §2.1.2), for 0 < m ≤ n; empty for m = 0 (by convention). */
export function referenceProof (m: number, data: Data): Uint8Array[] {
  return m === 0 ? [] : subproof(m, data, true)
}

function subproof (m: number, data: Data, b: boolean): Uint8Array[] {
  const n = data.length
  if (m === n) return b ? [] : [referenceRoot(data)]
  const k = largestPowerOfTwoBelow(n)
  if (m <= k) return [...subproof(m, data.slice(0, k), b), referenceRoot(data.slice(k))]
  return [...subproof(m - k, data.slice(k), false), referenceRoot(data.slice(0, k))]
}

export const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex')
export const unhex = (text: string): Uint8Array => new Uint8Array(Buffer.from(text, 'hex'))
