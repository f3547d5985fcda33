import { execFile } from 'node:child_process'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import { beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt, REPO } from '../../fixtures/build-dist.js'

const run = promisify(execFile)

// A process that checks a burst of signatures on verifier threads (src/fast-crypto/verify-threads.ts)
// must stay alive until every verdict is in, and exit on its own afterwards: threads with checks in
// flight keep the event loop alive, idle ones do not.
describe('verifier threads in a process of their own', () => {
  beforeAll(() => { ensureBuilt() }, 120_000)

  it('deliver every verdict of a burst, then let the process exit', async () => {
    const identity = pathToFileURL(join(REPO, 'dist/src/identity/index.js')).href
    const native = pathToFileURL(join(REPO, 'dist/src/fast-crypto/index.js')).href
    const script = `
      import { keyPairFromSeed, signBytes } from ${JSON.stringify(identity)}
      import { nodeCryptoVerifier, runningVerifierThreads } from ${JSON.stringify(native)}
      const { secretKey, publicKey } = keyPairFromSeed(new Uint8Array(32).fill(3))
      const burst = () => Promise.all(Array.from({ length: 64 }, (_, i) => {
        const message = new TextEncoder().encode('message ' + i)
        // Every third signature is all zeros: well formed (S = 0 is canonical), and false.
        return nodeCryptoVerifier.verifyAsync(i % 3 === 0 ? new Uint8Array(64) : signBytes(message, secretKey), message, publicKey)
      }))
      // The first burst starts the threads and is checked on libuv meanwhile; the second goes to them.
      await burst()
      const readyAfterFirst = runningVerifierThreads()
      while (runningVerifierThreads() === 0) await new Promise((resolve) => setTimeout(resolve, 10))
      const verdicts = await burst()
      console.log(JSON.stringify({ verdicts, readyAfterFirst, threads: runningVerifierThreads() }))
    `
    // A thread that kept the process alive would end this with the timeout, not with an answer.
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { timeout: 30_000 })
    const { verdicts, readyAfterFirst, threads } = JSON.parse(stdout) as { verdicts: boolean[], readyAfterFirst: number, threads: number }
    expect(verdicts).toEqual(Array.from({ length: 64 }, (_, i) => i % 3 !== 0))
    // The first burst did not wait for the threads' start (~100 ms; 64 checks on libuv take a few).
    expect(readyAfterFirst).toBe(0)
    // The burst ran on the compiled thread module (dist/src/fast-crypto/verify-thread.js), not on libuv.
    expect(threads).toBeGreaterThan(0)
  }, 60_000)
})
