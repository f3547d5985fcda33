import { createPublicKey, verify, type KeyObject } from 'node:crypto'
import { createRequire } from 'node:module'
import { parentPort, workerData } from 'node:worker_threads'
import type { PackedLayout, ThreadReply, ThreadRequest, VerifierThreadData } from './verify-threads.js'

/*
 * A verifier thread (verify-threads.ts starts a few). It verifies exactly as nodeCryptoVerifier's
 * synchronous form does after its policy checks: libsodium first when the path in workerData loads
 * (sodium.ts), then OpenSSL's Ed25519 with the key as SPKI DER for what libsodium refused. Its
 * first message says which library it checks with; then one reply of verdicts per chunk.
 * A chunk of records (record-threads.ts) gets every step of verifyRecordBytes (verify-thread-records.ts).
 *
 * This module imports only Node built-ins: the record code (DAG-CBOR, zod, the schemas) is loaded on
 * the first chunk of records, never for signatures. A thread starts on a node's first burst of checks
 * and those checks wait for it: loading the record code up front tripled the start (70 → 220 ms
 * quiet, more under load), and in figure 8a the messages of that burst were late at every node of
 * the process (BENCHMARKS.md, "Gossip": p99 of 100 nodes).
 */

/** The one function of sodium-native used here (sodium.ts). */
interface SodiumVerify {
  crypto_sign_verify_detached: (signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array) => boolean
}

/** DER prefix of an Ed25519 SubjectPublicKeyInfo (RFC 8410 §4); the 32 key bytes follow. */
const SPKI_ED25519_PREFIX = Uint8Array.from([0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x03, 0x21, 0x00])
const KEY_CACHE_SIZE = 4096

function loadSodium (path: string | undefined): SodiumVerify | undefined {
  if (path === undefined) return undefined
  try {
    return createRequire(import.meta.url)(path) as SodiumVerify
  } catch {
    return undefined
  }
}

function keyOf (keys: Map<string, KeyObject>, publicKey: Uint8Array): KeyObject {
  const cacheKey = String.fromCharCode.apply(null, publicKey as unknown as number[])
  let key = keys.get(cacheKey)
  if (key === undefined) {
    const der = new Uint8Array(SPKI_ED25519_PREFIX.length + publicKey.length)
    der.set(SPKI_ED25519_PREFIX, 0)
    der.set(publicKey, SPKI_ED25519_PREFIX.length)
    key = createPublicKey({ key: Buffer.from(der), format: 'der', type: 'spki' })
    if (keys.size >= KEY_CACHE_SIZE) keys.clear()
    keys.set(cacheKey, key)
  }
  return key
}

/** The verdicts of one chunk, one byte per check (1 valid), in the layout verify-threads.ts packs. */
function verdictsOf (request: { packed: Uint8Array, count: number }, layout: PackedLayout, sodium: SodiumVerify | undefined, keys: Map<string, KeyObject>): Uint8Array<ArrayBuffer> {
  const { packed, count } = request
  const { headerBytes, signatureBytes, fixedBytes } = layout
  const view = new DataView(packed.buffer, packed.byteOffset, packed.byteLength)
  const verdicts = new Uint8Array(count)
  let at = 0
  for (let i = 0; i < count; i++) {
    const length = view.getUint32(at, true)
    const signature = packed.subarray(at + headerBytes, at + headerBytes + signatureBytes)
    const publicKey = packed.subarray(at + headerBytes + signatureBytes, at + fixedBytes)
    const message = packed.subarray(at + fixedBytes, at + fixedBytes + length)
    at += fixedBytes + length
    if (sodium?.crypto_sign_verify_detached(signature, message, publicKey) === true) {
      verdicts[i] = 1
      continue
    }
    try {
      verdicts[i] = verify(null, message, keyOf(keys, publicKey), signature) ? 1 : 0
    } catch {
      verdicts[i] = 0
    }
  }
  return verdicts
}

function serve (): void {
  const port = parentPort
  if (port === null) throw new Error('verify-thread.ts runs as a worker thread (verify-threads.ts starts it)')
  const data = workerData as VerifierThreadData
  const sodium = loadSodium(data.sodiumPath)
  const keys = new Map<string, KeyObject>()
  const hello: ThreadReply = { backend: sodium === undefined ? 'openssl' : 'libsodium' }
  port.postMessage(hello)
  let recordSteps: Promise<typeof import('./verify-thread-records.js')> | undefined
  port.on('message', (request: ThreadRequest) => {
    if (request.kind === 'records') {
      recordSteps ??= import('./verify-thread-records.js')
      void recordSteps.then(({ recordVerdicts }) => {
        const reply: ThreadReply = { id: request.id, records: recordVerdicts(request.packed, request.count) }
        port.postMessage(reply)
      })
      return
    }
    const verdicts = verdictsOf(request, data.layout, sodium, keys)
    const reply: ThreadReply = { id: request.id, verdicts }
    port.postMessage(reply, [verdicts.buffer])
  })
}

serve()
