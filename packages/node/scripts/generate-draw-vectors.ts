/**
 * Generates protocols/vectors/draw/draw.json: witness draws (protocols/witness-draw-v1.md) of the
 * record vectors' keys for two memories of protocols/vectors/records/valid.json — the draw input,
 * the ECVRF proof and output, the fraction and whether it draws at a few populations.
 *
 *   node scripts/generate-draw-vectors.ts           write the file
 *   node scripts/generate-draw-vectors.ts --check   exit 1 if the committed file differs
 *
 * Independent of src/: a second ECVRF-EDWARDS25519-SHA512-TAI (RFC 9381) on @noble/ed25519's Point
 * API (src/ uses @noble/curves), checked against RFC 9381 Appendix B.3 before anything is written,
 * and the draw's rules written out again from the spec, so the tests compare src/draw with data it
 * did not produce. Imports only packages, so Node runs it with type stripping.
 */
import * as ed from '@noble/ed25519'
import { sha512 } from '@noble/hashes/sha2.js'
import { CID } from 'multiformats/cid'
import { readFileSync, writeFileSync } from 'node:fs'

ed.hashes.sha512 = sha512

// Run from scripts/ with type stripping, or from dist/scripts/ after `npm run build`.
const ROOT = new URL(import.meta.url.includes('/dist/scripts/') ? '../../' : '../', import.meta.url)
const OUTPUT = new URL('protocols/vectors/draw/draw.json', ROOT)
const L = 2n ** 252n + 27742317777372353535851937790883648493n
const SIZE = 5
const POPULATIONS = [1, 5, 6, 10, 100, 1000, 100000]

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex')
const fromHex = (text: string): Uint8Array => Uint8Array.from(Buffer.from(text, 'hex'))
const concat = (...parts: Uint8Array[]): Uint8Array => Uint8Array.from(parts.flatMap((part) => [...part]))

function fromLE (bytes: Uint8Array): bigint {
  let n = 0n
  for (let i = bytes.length - 1; i >= 0; i--) n = (n << 8n) | BigInt(bytes[i] as number)
  return n
}

function toLE (n: bigint, length: number): Uint8Array {
  const out = new Uint8Array(length)
  for (let i = 0; i < length; i++, n >>= 8n) out[i] = Number(n & 0xffn)
  return out
}

/** RFC 9381 §5.4.1.1 (try and increment), H = 8 · the first candidate that decodes. */
function encodeToCurve (publicKey: Uint8Array, alpha: Uint8Array): ed.Point {
  for (let ctr = 0; ctr < 256; ctr++) {
    const digest = sha512(concat(Uint8Array.of(0x03, 0x01), publicKey, alpha, Uint8Array.of(ctr, 0x00)))
    try {
      return ed.Point.fromBytes(digest.subarray(0, 32), false).clearCofactor()
    } catch {}
  }
  throw new Error('no point')
}

/** RFC 9381 §5.1, §5.4.2.2, §5.4.3. */
function prove (seed: Uint8Array, alpha: Uint8Array): Uint8Array {
  const { prefix, scalar: x, pointBytes: y } = ed.utils.getExtendedPublicKey(seed)
  const h = encodeToCurve(y, alpha)
  const k = fromLE(sha512(concat(prefix, h.toBytes()))) % L
  const gamma = h.multiply(x)
  const c = fromLE(sha512(concat(Uint8Array.of(0x03, 0x02), y, h.toBytes(), gamma.toBytes(),
    ed.Point.BASE.multiply(k).toBytes(), h.multiply(k).toBytes(), Uint8Array.of(0x00))).subarray(0, 16))
  return concat(gamma.toBytes(), toLE(c, 16), toLE((k + c * x) % L, 32))
}

/** RFC 9381 §5.2. */
function proofToHash (proof: Uint8Array): Uint8Array {
  const gamma = ed.Point.fromBytes(proof.subarray(0, 32), false)
  return sha512(concat(Uint8Array.of(0x03, 0x03), gamma.clearCofactor().toBytes(), Uint8Array.of(0x00)))
}

// The second implementation must reproduce RFC 9381 Appendix B.3 before it writes anything.
const rfc = JSON.parse(readFileSync(new URL('protocols/vectors/ecvrf/rfc9381.json', ROOT), 'utf8')) as { vectors: Array<{ id: string, secret_key: string, alpha: string, pi: string, beta: string }> }
for (const v of rfc.vectors) {
  const pi = prove(fromHex(v.secret_key), fromHex(v.alpha))
  if (hex(pi) !== v.pi || hex(proofToHash(pi)) !== v.beta) throw new Error(`${v.id}: the generator's ECVRF does not reproduce the RFC`)
}

/** witness-draw-v1 §3: "isnad/draw/v1\0" ‖ CID bytes. */
const drawInput = (memory: string): Uint8Array => concat(new TextEncoder().encode('isnad/draw/v1\0'), CID.parse(memory).bytes)
/** witness-draw-v1 §4: the top 53 bits of beta, m; the fraction is m / 2^53. */
const fractionNumerator = (beta: Uint8Array): bigint => fromLE(Uint8Array.from(beta.subarray(0, 8)).reverse()) >> 11n
/** witness-draw-v1 §5: drawn iff m · population < size · 2^53. */
const drawn = (m: bigint, population: number): boolean => m * BigInt(population) < BigInt(SIZE) * 2n ** 53n

const records = JSON.parse(readFileSync(new URL('protocols/vectors/records/valid.json', ROOT), 'utf8')) as {
  keys: Array<{ name: string, seed: string, public_key: string }>
  vectors: Array<{ id: string, cid: string }>
}
const memories = records.vectors.filter((v) => v.id === 'memory/example' || v.id === 'memory/all-optional-fields')
if (memories.length !== 2) throw new Error('the record vectors no longer have memory/example and memory/all-optional-fields')

const vectors = memories.flatMap((memory) => records.keys.slice(0, 3).map((key) => {
  const alpha = drawInput(memory.cid)
  const proof = prove(fromHex(key.seed), alpha)
  const beta = proofToHash(proof)
  const m = fractionNumerator(beta)
  return {
    id: `${key.name}/${memory.id}`,
    seed: key.seed,
    public_key: key.public_key,
    memory: memory.cid,
    alpha: hex(alpha),
    proof: hex(proof),
    beta: hex(beta),
    fraction_numerator: m.toString(),
    fraction: Number(m) / 2 ** 53,
    drawn: Object.fromEntries(POPULATIONS.map((population) => [String(population), drawn(m, population)]))
  }
}))

const file = {
  description: 'Witness draws (protocols/witness-draw-v1.md §3–§5) of the record vectors\' keys (protocols/vectors/records/valid.json `keys`) for two of its memories, with the default size 5. src/draw reproduces every alpha, proof, beta and fraction, and every verdict (test/unit/draw/draw.test.ts).',
  generator: 'scripts/generate-draw-vectors.ts (do not edit by hand; run it to regenerate)',
  size: SIZE,
  fields: {
    seed: 'hex, the witness\'s 32-byte Ed25519 seed (its VRF secret key)',
    public_key: 'hex, its Ed25519 public key',
    memory: 'the memory\'s CID',
    alpha: 'hex, the draw input: UTF-8 "isnad/draw/v1\\0" then the CID\'s bytes',
    proof: 'hex, the 80-byte ECVRF-EDWARDS25519-SHA512-TAI proof (RFC 9381 §5.1)',
    beta: 'hex, the 64-byte VRF output (RFC 9381 §5.2)',
    fraction_numerator: 'decimal, m: the first 53 bits of beta (big-endian)',
    fraction: 'm / 2^53',
    drawn: 'by population: whether m · population < size · 2^53'
  },
  vectors
}

const text = JSON.stringify(file, null, 2) + '\n'
if (process.argv.includes('--check')) {
  let committed = ''
  try {
    committed = readFileSync(OUTPUT, 'utf8')
  } catch {}
  if (committed !== text) {
    console.error('protocols/vectors/draw/draw.json is out of date: run node scripts/generate-draw-vectors.ts')
    process.exit(1)
  }
} else {
  writeFileSync(OUTPUT, text)
  console.error(`wrote ${vectors.length} vectors to protocols/vectors/draw/draw.json`)
}
