/**
 * Generates protocols/vectors/ed25519/edge-cases.json: hand-crafted Ed25519 cases at the edges of
 * RFC 8032 §5.1.7, each with the verdict of the project's strict policy (record-v1 §3.4).
 *
 *   node scripts/generate-ed25519-vectors.ts           write the file
 *   node scripts/generate-ed25519-vectors.ts --check   exit 1 if the committed file differs
 *
 * Deterministic: every key, nonce and message comes from a label, so the output is byte-stable.
 * Independent of src/: it builds the cases with @noble/ed25519's Point API (a dev dependency: src/
 * uses @noble/curves, so the vectors come from a second implementation) and checks each one
 * against its own small reference of the policy, so the tests compare the verifiers in src/identity
 * with data that was not produced by them. Imports only packages, so Node runs it with type stripping.
 */
import * as ed from '@noble/ed25519'
import { sha512 } from '@noble/hashes/sha2.js'
import { readFileSync, writeFileSync } from 'node:fs'

ed.hashes.sha512 = sha512

type Point = InstanceType<typeof ed.Point>
const { Point } = ed

// Run from scripts/ with type stripping, or from dist/scripts/ after `npm run build`.
const ROOT = new URL(import.meta.url.includes('/dist/scripts/') ? '../../' : '../', import.meta.url)
const OUTPUT = new URL('protocols/vectors/ed25519/edge-cases.json', ROOT)
/** p = 2^255 − 19 and L = 2^252 + 27742317777372353535851937790883648493 (RFC 8032 §5.1). */
const P = 2n ** 255n - 19n
const L = 2n ** 252n + 27742317777372353535851937790883648493n

/**
 * The 8 canonical encodings of the torsion subgroup E[8] as the literature lists them (Chalkias et
 * al., "Taming the many EdDSAs", 2020): the computed subgroup must match them.
 */
const KNOWN_TORSION_ENCODINGS = new Set([
  '0100000000000000000000000000000000000000000000000000000000000000',
  'ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f',
  '0000000000000000000000000000000000000000000000000000000000000000',
  '0000000000000000000000000000000000000000000000000000000000000080',
  'c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a',
  'c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa',
  '26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05',
  '26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc85'
])

type Expected = 'valid' | 'invalid' | 'throws'

interface Vector {
  id: string
  group: string
  comment: string
  public_key: string
  message: string
  signature: string
  expected: Expected
  error_code?: 'SIGNATURE_MALFORMED' | 'KEY_INVALID'
  /** Verdict of @noble/ed25519 in ZIP-215 mode (cofactored equation, permissive decoding). */
  zip215?: boolean
  /** Verdict of the bare ref10/OpenSSL cofactorless check, no key policy (see bareCofactorless). */
  cofactorless?: boolean
}

// ---- byte and scalar helpers ----

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex')
const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text)
const concat = (...parts: Uint8Array[]): Uint8Array => Uint8Array.from(Buffer.concat(parts))
const mod = (n: bigint, m: bigint): bigint => ((n % m) + m) % m

function numberFromLE (bytes: Uint8Array): bigint {
  let n = 0n
  for (let i = bytes.length - 1; i >= 0; i--) n = (n << 8n) | BigInt(bytes[i] ?? 0)
  return n
}

function numberToLE32 (n: bigint): Uint8Array {
  const out = new Uint8Array(32)
  for (let i = 0; i < 32; i++) out[i] = Number((n >> BigInt(8 * i)) & 0xffn)
  return out
}

/** A scalar mod L from a label, for deterministic nonces. */
const scalarFrom = (label: string): bigint => mod(numberFromLE(sha512(utf8(label))), L)

/** k = SHA-512(R ‖ A ‖ M) mod L over the exact bytes (RFC 8032 §5.1.7 step 2). */
const challenge = (r: Uint8Array, a: Uint8Array, m: Uint8Array): bigint => mod(numberFromLE(sha512(concat(r, a, m))), L)

const mul = (point: Point, n: bigint): Point => point.multiply(mod(n, L), false)

// ---- reference checks (what the vectors claim, recomputed here) ----

function decode (bytes: Uint8Array, strict: boolean): Point | undefined {
  try {
    return Point.fromBytes(bytes, !strict)
  } catch {
    return undefined
  }
}

/**
 * The cofactorless check as ref10 and OpenSSL do it, with no key policy: A decoded permissively, S < L,
 * and R byte-equal to the canonical encoding of [S]B − [k]A (RFC 8032 §5.1.7 step 3, the "sufficient"
 * variant). The tests check this field against bare node:crypto.
 */
function bareCofactorless (signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean {
  const a = decode(publicKey, false)
  const s = numberFromLE(signature.subarray(32))
  if (a === undefined || s >= L) return false
  const k = challenge(signature.subarray(0, 32), publicKey, message)
  const r = Point.BASE.multiply(s, false).subtract(a.multiply(k, false))
  return hex(r.toBytes()) === hex(signature.subarray(0, 32))
}

/** The project's policy, written from record-v1 §3.4 independently of src/identity. */
function strictPolicy (signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): Expected {
  if (signature.length !== 64 || publicKey.length !== 32) return 'throws'
  const a = decode(publicKey, true)
  const r = decode(signature.subarray(0, 32), true)
  const s = numberFromLE(signature.subarray(32))
  if (a === undefined || r === undefined || s >= L) return 'invalid'
  if (a.isSmallOrder() || !a.isTorsionFree() || !r.isTorsionFree()) return 'invalid'
  // With A and R strict and torsion-free, the cofactored and cofactorless equations agree.
  const cofactored = ed.verify(signature, message, publicKey, { zip215: false })
  if (cofactored !== bareCofactorless(signature, message, publicKey)) throw new Error('cofactored and cofactorless disagree on a policy-clean input')
  return cofactored ? 'valid' : 'invalid'
}

function zip215 (signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean {
  return ed.verify(signature, message, publicKey, { zip215: true })
}

// ---- the signer, the torsion subgroup, the encodings ----

const SEED = sha512(utf8('isnad ed25519 edge-case vectors v1: signer')).slice(0, 32)
const signer = ed.utils.getExtendedPublicKey(SEED)
const A = signer.point
const A_BYTES = signer.pointBytes

/** Signs with our scalar but an arbitrary commitment: S = r + k·a mod L, k over the given R and key bytes. */
function signWith (rBytes: Uint8Array, r: bigint, publicKeyBytes: Uint8Array, message: Uint8Array): Uint8Array {
  const k = challenge(rBytes, publicKeyBytes, message)
  return concat(rBytes, numberToLE32(mod(r + k * signer.scalar, L)))
}

/** A generator of E[8]: [L]Q for a point Q of full order 8L (Lagrange: [L]Q has order dividing 8). */
function torsionGenerator (): Point {
  for (let y = 2n; ; y++) {
    const q = decode(numberToLE32(y), true)
    if (q === undefined) continue
    const t = q.multiply(L - 1n, false).add(q)
    if (!t.multiply(4n, false).is0()) return t
  }
}
const T8 = torsionGenerator()
const torsion: Point[] = [Point.ZERO]
for (let i = 1; i < 8; i++) torsion.push(torsion[i - 1]!.add(T8))
const orderOf = (t: Point): number => [1, 2, 4, 8].find((n) => t.multiply(BigInt(n), false).is0()) ?? 0
const torsionOfOrder = (n: number): Point => {
  const t = torsion.find((p) => orderOf(p) === n)
  if (t === undefined) throw new Error(`no torsion point of order ${n}`)
  return t
}
const canonicalTorsion = torsion.map((t) => t.toBytes())
for (const bytes of canonicalTorsion) {
  if (!KNOWN_TORSION_ENCODINGS.has(hex(bytes))) throw new Error(`computed torsion point ${hex(bytes)} is not a known encoding`)
}

/**
 * Every non-canonical encoding that still decodes (RFC 8032 §5.1.3 requires y < p and refuses
 * x = 0 with the sign bit set): y in [p, 2^255) for both signs, and x = 0 with the sign bit set.
 */
function nonCanonicalEncodings (): Array<{ bytes: Uint8Array, point: Point, why: string }> {
  const found: Array<{ bytes: Uint8Array, point: Point, why: string }> = []
  for (let y = P; y < 2n ** 255n; y++) {
    for (const sign of [0, 0x80]) {
      const bytes = numberToLE32(y)
      bytes[31] = (bytes[31] ?? 0) | sign
      const point = decode(bytes, false)
      if (point !== undefined) found.push({ bytes, point, why: `y = p + ${y - P}${sign === 0 ? '' : ', sign bit set'}` })
    }
  }
  for (const t of [Point.ZERO, torsionOfOrder(2)]) {
    const bytes = t.toBytes()
    bytes[31] = (bytes[31] ?? 0) | 0x80
    found.push({ bytes, point: t, why: `x = 0 with the sign bit set (y = ${t.equals(Point.ZERO) ? '1' : 'p − 1'})` })
  }
  return found
}

// ---- the vectors ----

const vectors: Vector[] = []

function add (
  id: string,
  group: string,
  comment: string,
  signature: Uint8Array,
  message: Uint8Array,
  publicKey: Uint8Array,
  expected: Expected,
  errorCode?: 'SIGNATURE_MALFORMED' | 'KEY_INVALID'
): void {
  const policy = strictPolicy(signature, message, publicKey)
  if (policy !== expected) throw new Error(`${id}: the reference policy says ${policy}, the vector says ${expected}`)
  const vector: Vector = { id, group, comment, public_key: hex(publicKey), message: hex(message), signature: hex(signature), expected }
  if (errorCode !== undefined) vector.error_code = errorCode
  if (expected !== 'throws') {
    vector.zip215 = zip215(signature, message, publicKey)
    vector.cofactorless = bareCofactorless(signature, message, publicKey)
  }
  vectors.push(vector)
}

/** The first message `<label> #n` for which `accept` holds, so crafted cases are deterministic. */
function searchMessage (label: string, accept: (message: Uint8Array) => boolean): Uint8Array {
  for (let n = 0; n < 10_000; n++) {
    const message = utf8(`${label} #${n}`)
    if (accept(message)) return message
  }
  throw new Error(`no message found for ${label}`)
}

const flipBit = (bytes: Uint8Array, byte: number, bit: number): Uint8Array => {
  const out = Uint8Array.from(bytes)
  out[byte] = (out[byte] ?? 0) ^ (1 << bit)
  return out
}
const withScalar = (signature: Uint8Array, s: bigint): Uint8Array => concat(signature.subarray(0, 32), numberToLE32(s))

// Baseline: an ordinary RFC 8032 signature by the signer, reused by the S and bit-flip cases.
const baseMessage = utf8('isnad edge-case baseline')
const baseSignature = ed.sign(baseMessage, SEED)
const baseS = numberFromLE(baseSignature.subarray(32))
add('baseline', 'baseline', 'An ordinary RFC 8032 §5.1.6 signature; every other case is a variation of something like it.',
  baseSignature, baseMessage, A_BYTES, 'valid')

// ---- S: RFC 8032 §5.1.7 step 1 requires 0 ≤ S < L (§8.4: otherwise signatures are malleable) ----

add('s-plus-l', 'scalar', 'S + L: the same scalar mod L, not reduced. Accepting it makes signatures malleable (RFC 8032 §8.4); §5.1.7 step 1 refuses S ≥ L.',
  withScalar(baseSignature, baseS + L), baseMessage, A_BYTES, 'invalid')
add('s-equals-l', 'scalar', 'S = L, the smallest non-canonical scalar: refused by the range check, not by the equation.',
  withScalar(baseSignature, L), baseMessage, A_BYTES, 'invalid')
add('s-l-minus-1', 'scalar', 'S = L − 1, the largest canonical scalar: passes the range check (boundary), then fails the equation.',
  withScalar(baseSignature, L - 1n), baseMessage, A_BYTES, 'invalid')
add('s-l-plus-1', 'scalar', 'S = L + 1: non-canonical, differs from L only in the lowest byte.',
  withScalar(baseSignature, L + 1n), baseMessage, A_BYTES, 'invalid')
add('s-2-252', 'scalar', 'S = 2^252: top byte 0x10 like L but below L in the low bytes, so canonical; fails the equation.',
  withScalar(baseSignature, 2n ** 252n), baseMessage, A_BYTES, 'invalid')
add('s-2-252-plus-2-128-minus-1', 'scalar', 'S = 2^252 + 2^128 − 1: same top byte as L, zero middle, low 16 bytes all 0xff > L’s, so S > L.',
  withScalar(baseSignature, 2n ** 252n + 2n ** 128n - 1n), baseMessage, A_BYTES, 'invalid')
add('s-all-ones', 'scalar', 'S = 2^256 − 1: every bit set, the largest 32-byte value.',
  withScalar(baseSignature, 2n ** 256n - 1n), baseMessage, A_BYTES, 'invalid')
add('s-top-3-bits', 'scalar', 'A valid S with its top three bits set (S + 7·2^253): non-canonical; implementations that only mask bits would accept it.',
  withScalar(baseSignature, baseS + 7n * 2n ** 253n), baseMessage, A_BYTES, 'invalid')
add('s-top-bit', 'scalar', 'A valid S with only bit 255 set: non-canonical.',
  withScalar(baseSignature, baseS + 2n ** 255n), baseMessage, A_BYTES, 'invalid')
add('s-zero', 'scalar', 'S = 0 with the baseline R: canonical, fails the equation.',
  withScalar(baseSignature, 0n), baseMessage, A_BYTES, 'invalid')

// ---- A: small order, every encoding (policy: small-order keys refused) ----
// R = identity and S = 0 with a message such that [k]A = 0, so the bare equation [S]B = R + [k]A holds
// even without the cofactor: a verifier without the key policy would accept a "signature" that
// anyone can forge for the key.

const IDENTITY_BYTES = Point.ZERO.toBytes()
const forgeForSmallOrderKey = (keyBytes: Uint8Array, key: Point, label: string): { signature: Uint8Array, message: Uint8Array } => {
  const signature = concat(IDENTITY_BYTES, numberToLE32(0n))
  const message = searchMessage(label, (m) => mul(key, challenge(IDENTITY_BYTES, keyBytes, m)).is0())
  return { signature, message }
}
torsion.forEach((t, i) => {
  const keyBytes = t.toBytes()
  const id = `a-small-order-${hex(keyBytes).slice(0, 4)}-${hex(keyBytes).slice(-2)}`
  const { signature, message } = forgeForSmallOrderKey(keyBytes, t, `isnad edge-case ${id}`)
  add(id, 'public-key-small-order',
    `A = [${i}]T8, canonical encoding of a point of order ${orderOf(t)}: a key anyone can "sign" for (R = 0, S = 0, [k]A = 0). Small-order keys are refused (record-v1 §3.4).`,
    signature, message, keyBytes, 'invalid')
})
for (const { bytes, point, why } of nonCanonicalEncodings()) {
  const id = `a-noncanonical-${hex(bytes).slice(0, 4)}-${hex(bytes).slice(-2)}`
  const order = orderOf(point)
  if (order === 0) {
    // Not small order: no known discrete log, so no forgery; still an encoding §5.1.3 refuses.
    add(id, 'public-key-noncanonical', `A with ${why}: a non-canonical encoding of a point of large order; RFC 8032 §5.1.3 decoding requires y < p.`,
      baseSignature, baseMessage, bytes, 'invalid')
    continue
  }
  const { signature, message } = forgeForSmallOrderKey(bytes, point, `isnad edge-case ${id}`)
  add(id, 'public-key-noncanonical',
    `A with ${why}: non-canonical (RFC 8032 §5.1.3) encoding of a point of order ${order}, with a forgery (R = 0, S = 0, [k]A = 0). Refused twice: encoding and small order.`,
    signature, message, bytes, 'invalid')
}
{
  // A y that is not on the curve at all: (y² − 1)/(d·y² + 1) is not a square.
  let y = 2n
  while (decode(numberToLE32(y), false) !== undefined) y++
  add('a-not-on-curve', 'public-key-noncanonical', `A with y = ${y}: no x satisfies the curve equation, decoding fails (RFC 8032 §5.1.3 step 3).`,
    baseSignature, baseMessage, numberToLE32(y), 'invalid')
}

// ---- A: mixed order (policy: keys must lie in the prime-order subgroup) ----
// A' = A + T with T a torsion point, signed with A's scalar a over the bytes of A'. The cofactored
// equation always holds ([8]T = 0); the cofactorless one holds exactly when [k]T = 0.

function mixedOrderCase (id: string, t: Point, kAccept: (k: bigint) => boolean, comment: string): void {
  const keyBytes = A.add(t).toBytes()
  const r = scalarFrom(`isnad edge-case ${id}: nonce`)
  const rBytes = Point.BASE.multiply(r).toBytes()
  const message = searchMessage(`isnad edge-case ${id}`, (m) => kAccept(challenge(rBytes, keyBytes, m)))
  add(id, 'public-key-mixed-order', comment, signWith(rBytes, r, keyBytes, message), message, keyBytes, 'invalid')
}
mixedOrderCase('a-mixed-order-8-k-divisible', torsionOfOrder(8), (k) => k % 8n === 0n,
  'A + T8 with k ≡ 0 mod 8: BOTH the cofactored and the cofactorless equations hold, so bare OpenSSL would accept; only the subgroup check on A refuses it.')
mixedOrderCase('a-mixed-order-8-k-odd', torsionOfOrder(8), (k) => k % 2n === 1n,
  'A + T8 with k odd: the cofactored equation holds, the cofactorless one fails — the case where noble (cofactored) and OpenSSL (cofactorless) disagree without the key policy.')
mixedOrderCase('a-mixed-order-2-k-even', torsionOfOrder(2), (k) => k % 2n === 0n,
  'A + T2 (the point (0, −1)) with k even: both equations hold; refused by the subgroup check.')

// ---- R: canonical, in the prime-order subgroup (RFC 8032 §5.1.7 step 1 decodes R strictly) ----

{
  const message = utf8('isnad edge-case r-identity')
  add('r-identity', 'commitment',
    'R = the identity (nonce r ≡ 0 mod L, which RFC 8032 §5.1.6 does not exclude) with S = k·a: a genuine signature by the key holder. The identity has no torsion component, so both equations and the policy accept it.',
    signWith(IDENTITY_BYTES, 0n, A_BYTES, message), message, A_BYTES, 'valid')
}
for (const order of [2, 4, 8]) {
  const t = torsionOfOrder(order)
  const id = `r-small-order-${order}`
  const message = utf8(`isnad edge-case ${id}`)
  add(id, 'commitment',
    `R = a point of order ${order} with S = k·a: [S]B − [k]A = 0 ≠ R, so the cofactorless equation fails while [8]R = 0 lets the cofactored one pass. Refused (R must be torsion-free).`,
    signWith(t.toBytes(), 0n, A_BYTES, message), message, A_BYTES, 'invalid')
}
for (const order of [8, 2]) {
  const id = `r-torsion-component-${order}`
  const r = scalarFrom(`isnad edge-case ${id}: nonce`)
  const rBytes = Point.BASE.multiply(r).add(torsionOfOrder(order)).toBytes()
  const message = utf8(`isnad edge-case ${id}`)
  add(id, 'commitment',
    `R = [r]B + T (T of order ${order}), S = r + k·a: passes the cofactored equation [8][S]B = [8]R + [8][k]A but not the cofactorless [S]B = R + [k]A. The policy refuses R with a torsion component so that both verifiers agree.`,
    signWith(rBytes, r, A_BYTES, message), message, A_BYTES, 'invalid')
}
for (const { bytes, point, why } of nonCanonicalEncodings()) {
  const order = orderOf(point)
  if (order === 0) continue // large order: no discrete log, no interesting signature
  const id = `r-noncanonical-${hex(bytes).slice(0, 4)}-${hex(bytes).slice(-2)}`
  const message = utf8(`isnad edge-case ${id}`)
  const comment = order === 1
    ? `R with ${why}: a non-canonical encoding of the identity, S = k·a. Decoded permissively, the equation holds even without the cofactor (ZIP-215 accepts); RFC 8032 §5.1.7 step 1 decodes R strictly, and ref10/OpenSSL compare R as bytes, so both refuse it.`
    : `R with ${why}: a non-canonical encoding of a point of order ${order}, S = k·a. The cofactored equation holds after permissive decoding (ZIP-215 accepts); strict decoding refuses it.`
  add(id, 'commitment', comment, signWith(bytes, 0n, A_BYTES, message), message, A_BYTES, 'invalid')
}
{
  let y = 2n
  while (decode(numberToLE32(y), false) !== undefined) y++
  add('r-not-on-curve', 'commitment', `R with y = ${y}, not on the curve: decoding fails.`,
    concat(numberToLE32(y), baseSignature.subarray(32)), baseMessage, A_BYTES, 'invalid')
}

// ---- single bit flips of a valid signature ----

add('flip-message-first-bit', 'bit-flip', 'Bit 0 of the message flipped: k changes, the equation fails.',
  baseSignature, flipBit(baseMessage, 0, 0), A_BYTES, 'invalid')
add('flip-message-last-bit', 'bit-flip', 'Bit 7 of the last message byte flipped.',
  baseSignature, flipBit(baseMessage, baseMessage.length - 1, 7), A_BYTES, 'invalid')
add('flip-signature-r-bit-0', 'bit-flip', 'Bit 0 of R flipped.', flipBit(baseSignature, 0, 0), baseMessage, A_BYTES, 'invalid')
add('flip-signature-r-sign-bit', 'bit-flip', 'The sign bit of R (bit 255) flipped: R becomes −R.', flipBit(baseSignature, 31, 7), baseMessage, A_BYTES, 'invalid')
add('flip-signature-s-bit-0', 'bit-flip', 'Bit 0 of S flipped: still canonical, fails the equation.', flipBit(baseSignature, 32, 0), baseMessage, A_BYTES, 'invalid')
add('flip-signature-s-bit-255', 'bit-flip', 'Bit 255 of S flipped: S ≥ 2^255 > L, non-canonical.', flipBit(baseSignature, 63, 7), baseMessage, A_BYTES, 'invalid')
add('flip-key-bit-0', 'bit-flip', 'Bit 0 of A flipped: another point or none.', baseSignature, baseMessage, flipBit(A_BYTES, 0, 0), 'invalid')
add('flip-key-sign-bit', 'bit-flip', 'The sign bit of A flipped: A becomes −A.', baseSignature, baseMessage, flipBit(A_BYTES, 31, 7), 'invalid')

// ---- malformed input: wrong lengths throw, they are not a verdict ----

for (const length of [0, 63, 65]) {
  const signature = length <= 64 ? baseSignature.slice(0, length) : concat(baseSignature, new Uint8Array(length - 64))
  add(`signature-length-${length}`, 'malformed', `A ${length}-byte signature: Ed25519 signatures have 64 bytes; malformed input throws SIGNATURE_MALFORMED.`,
    signature, baseMessage, A_BYTES, 'throws', 'SIGNATURE_MALFORMED')
}
for (const length of [0, 31, 33]) {
  const key = length <= 32 ? A_BYTES.slice(0, length) : concat(A_BYTES, new Uint8Array(length - 32))
  add(`key-length-${length}`, 'malformed', `A ${length}-byte public key: Ed25519 public keys have 32 bytes; malformed input throws KEY_INVALID.`,
    baseSignature, baseMessage, key, 'throws', 'KEY_INVALID')
}

// ---- output ----

const ids = new Set(vectors.map((v) => v.id))
if (ids.size !== vectors.length) throw new Error('duplicate vector ids')

const document = {
  description: 'Ed25519 edge cases for the strict RFC 8032 policy of record-v1 §3.4: canonical S (§5.1.7 step 1), canonical A and R encodings (§5.1.3), small-order and mixed-order public keys refused, R with a torsion component refused, wrong lengths throw.',
  generator: 'scripts/generate-ed25519-vectors.ts (do not edit by hand; run it to regenerate)',
  fields: {
    public_key: 'hex', message: 'hex', signature: 'hex',
    expected: 'valid | invalid | throws: the verdict of every verifier in src/identity',
    error_code: 'IsnadError code when expected is throws',
    zip215: 'verdict of @noble/ed25519 in ZIP-215 mode (cofactored, permissive decoding): shows what a lax verifier would accept',
    cofactorless: 'verdict of the bare cofactorless check as ref10/OpenSSL do it (A decoded permissively, R byte-equal to the encoding of [S]B − [k]A), no key policy: shows what bare node:crypto accepts'
  },
  vectors
}
const text = JSON.stringify(document, null, 2) + '\n'
const hexOnly = (v: Vector): boolean => /^[0-9a-f]*$/.test(v.public_key + v.message + v.signature)
if (!vectors.every(hexOnly)) throw new Error('non-hex field')

if (process.argv.includes('--check')) {
  const current = readFileSync(OUTPUT, 'utf8')
  if (current !== text) {
    process.stderr.write('edge-cases.json is out of date: run node scripts/generate-ed25519-vectors.ts\n')
    process.exit(1)
  }
  process.stderr.write(`edge-cases.json is up to date (${vectors.length} vectors)\n`)
} else {
  writeFileSync(OUTPUT, text)
  process.stderr.write(`wrote ${vectors.length} vectors to ${OUTPUT.pathname}\n`)
}
