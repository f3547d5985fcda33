import { describe, expect, it } from 'vitest'
import { runningVerifierThreads } from '../../../src/fast-crypto/index.js'
import { runningThreads } from '../../../src/fast-crypto/verify-threads.js'
import { cases, here, startThreads, viaThreads } from './record-thread-cases.js'

/*
 * A verifier thread that dies with records in flight loses none of them. The
 * records it held are verified again on this thread (record-threads.ts hands back undefined,
 * verifyRecordBytesAsync verifies here), and so are all later ones: the threads end for the process
 * (verify-threads.ts `fail`). A file of its own because that end is for the whole process.
 */

describe('a verifier thread dying with records in flight', () => {
  it('loses no record: each result is the one this thread computes, and later records are verified here', async () => {
    await startThreads()
    const burst = [...cases, ...cases, ...cases]
    const pending = Promise.all(burst.map(viaThreads))
    // Let the chunks be sent (record-threads.ts flushes on setImmediate), then kill a thread.
    await new Promise<void>((resolve) => { setImmediate(resolve) })
    const threads = runningThreads()
    expect(threads, 'threads running when the burst was sent').toBeDefined()
    const victim = (threads ?? [])[0]
    expect(victim?.inFlight.size ?? 0, 'records in flight on the thread that dies').toBeGreaterThan(0)
    await victim?.worker.terminate()
    const results = await pending
    burst.forEach((c, i) => { expect(results[i], `${c.id} at position ${i}`).toEqual(here(c)) })
    expect(runningVerifierThreads(), 'the threads end for the process').toBe(0)
    const after = await Promise.all(cases.map(viaThreads))
    cases.forEach((c, i) => { expect(after[i], `${c.id} after the death`).toEqual(here(c)) })
  })
})
