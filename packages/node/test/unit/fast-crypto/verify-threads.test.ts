import { readFileSync } from 'node:fs'
import { describe, expect, it, vi } from 'vitest'
import { keyPairFromSeed, signBytes } from '../../../src/identity/index.js'
import { nodeCryptoVerifier } from '../../../src/fast-crypto/index.js'
import { signatureBackend } from '../../../src/fast-crypto/index.js'
import { runningVerifierThreads, verifierThreadBackends, VERIFY_THREADS_MIN_BURST } from '../../../src/fast-crypto/index.js'
import { fromHex, readVectorFile, type Ed25519Vector, type Ed25519VectorFile } from '../identity/vectors.js'

// nodeCryptoVerifier.verifyAsync sends bursts of checks to verifier threads (verify-threads.ts):
// their verdicts must be the synchronous verify's, input by input, whatever else is in the burst.

const vectors: Ed25519Vector[] = ['ed25519/rfc8032.json', 'ed25519/edge-cases.json']
  .flatMap((file) => readVectorFile<Ed25519VectorFile>(file).vectors)
  .filter((v) => v.expected !== 'throws')

async function burst (inputs: Array<{ signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array }>): Promise<boolean[]> {
  return await Promise.all(inputs.map(async ({ signature, message, publicKey }) => {
    const verdict = nodeCryptoVerifier.verifyAsync?.(signature, message, publicKey)
    if (verdict === undefined) throw new Error('nodeCryptoVerifier has no verifyAsync')
    return await verdict
  }))
}

describe('verifier threads', () => {
  it('give every vector its verdict in a burst, mixed with the others, on running threads', async () => {
    // Three copies of every vector that reaches OpenSSL, interleaved: more than a burst.
    const inputs = [...vectors, ...vectors, ...vectors].map((v) => ({ v, signature: fromHex(v.signature), message: fromHex(v.message), publicKey: fromHex(v.public_key) }))
    expect(inputs.length).toBeGreaterThanOrEqual(VERIFY_THREADS_MIN_BURST)
    // The first burst is checked on libuv while the threads start (nothing waits for a start);
    // the same burst again, once they are ready, goes to them.
    await burst(inputs)
    await vi.waitFor(() => { expect(runningVerifierThreads()).toBeGreaterThan(0) }, { timeout: 10_000 })
    const verdicts = await burst(inputs)
    // Each thread said which library it checks with before its first verdicts; where sodium-native
    // loads here, the threads load it too (the vectors above then pass through libsodium, and
    // r-identity through its OpenSSL confirmation).
    expect(signatureBackend).toBe('libsodium')
    expect(verifierThreadBackends()).toEqual(Array.from({ length: runningVerifierThreads() }, () => 'libsodium'))
    inputs.forEach(({ v }, i) => {
      expect(verdicts[i] ? 'valid' : 'invalid', `${v.id} (${v.comment}) at position ${i}`).toBe(v.expected)
    })
    // A lone check once the threads run goes to them too.
    const [first] = inputs
    if (first === undefined) throw new Error('no vectors')
    expect(await burst([first]), first.v.id).toEqual([first.v.expected === 'valid'])
  })

  it('copy their inputs when called: the caller may overwrite its buffers at once', async () => {
    const { secretKey, publicKey } = keyPairFromSeed(new Uint8Array(32).fill(7))
    const inputs = Array.from({ length: 2 * VERIFY_THREADS_MIN_BURST }, (_, i) => {
      const message = new TextEncoder().encode(`message ${i}`)
      return { signature: signBytes(message, secretKey), message, publicKey: Uint8Array.from(publicKey) }
    })
    const pending = burst(inputs)
    for (const { signature, message, publicKey } of inputs) {
      signature.fill(0)
      message.fill(0)
      publicKey.fill(0)
    }
    expect(await pending).toEqual(inputs.map(() => true))
  })
})

describe('the verifier thread module', () => {
  // A thread starts on a node's first burst, and that burst's checks wait for it: the thread's own
  // module imports only Node built-ins, and the record code loads on the first chunk of records
  // (verify-thread-records.ts). A static import of it tripled the start and delayed figure 8a's
  // first messages at every node of the process.
  it('imports nothing but Node built-ins before its first chunk of records', () => {
    const source = readFileSync(new URL('../../../src/fast-crypto/verify-thread.ts', import.meta.url), 'utf8')
    const valueImports = [...source.matchAll(/^import (?!type )[^'"]*['"]([^'"]+)['"]/gm)].map((m) => m[1])
    expect(valueImports.length).toBeGreaterThan(0)
    expect(valueImports.filter((specifier) => specifier?.startsWith('node:') !== true)).toEqual([])
    expect(source).toContain("import('./verify-thread-records.js')")
  })
})
