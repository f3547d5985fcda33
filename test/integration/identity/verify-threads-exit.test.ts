import { execFile } from 'node:child_process'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import { beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt, REPO } from '../../fixtures/build-dist.js'

const run = promisify(execFile)

// A process that checks a burst of signatures on verifier threads (src/identity/verify-threads.ts)
// must stay alive until every verdict is in, and exit on its own afterwards: threads with checks in
// flight keep the event loop alive, idle ones do not.
describe('verifier threads in a process of their own', () => {
  beforeAll(() => { ensureBuilt() }, 120_000)

  it('deliver every verdict of a burst, then let the process exit', async () => {
    const identity = pathToFileURL(join(REPO, 'dist/src/identity/index.js')).href
    const script = `
      import { keyPairFromSeed, nodeCryptoVerifier, signBytes } from ${JSON.stringify(identity)}
      const { secretKey, publicKey } = keyPairFromSeed(new Uint8Array(32).fill(3))
      const checks = Array.from({ length: 64 }, (_, i) => {
        const message = new TextEncoder().encode('message ' + i)
        // Every third signature is all zeros: well formed (S = 0 is canonical), and false.
        return nodeCryptoVerifier.verifyAsync(i % 3 === 0 ? new Uint8Array(64) : signBytes(message, secretKey), message, publicKey)
      })
      console.log(JSON.stringify(await Promise.all(checks)))
    `
    // A thread that kept the process alive would end this with the timeout, not with an answer.
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { timeout: 30_000 })
    expect(JSON.parse(stdout)).toEqual(Array.from({ length: 64 }, (_, i) => i % 3 !== 0))
  }, 60_000)
})
