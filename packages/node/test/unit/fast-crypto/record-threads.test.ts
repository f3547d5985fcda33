import { describe, expect, it } from 'vitest'
import { availableParallelism } from 'node:os'
import { NODE_RECORD_FAST_PATHS, RECORD_THREADS_MIN_CPUS, runningVerifierThreads, useRecordThreads } from '../../../src/fast-crypto/index.js'
import { encodeSignedRecord } from '../../../src/record/index.js'
import { cases, here, startThreads, valid, viaThreads, type Case } from './record-thread-cases.js'

/*
 * Once the verifier threads run, nodeCryptoVerifier's record fast paths verify
 * received bytes whole on them (src/fast-crypto/record-threads.ts). Whatever the bytes, the result must
 * be the one this thread computes: the same id, CID, record and bytes, or the same error code,
 * message and details — over every record vector of protocols/vectors/records.
 */

describe('record verification on the verifier threads', () => {
  it('goes to the threads by default only on a machine of RECORD_THREADS_MIN_CPUS CPUs or more', () => {
    const byDefault = useRecordThreads(false)
    expect(byDefault).toBe(availableParallelism() >= RECORD_THREADS_MIN_CPUS)
    useRecordThreads(byDefault)
  })

  it('declines while no thread runs, and runs on the threads once they do', async () => {
    const first = cases[0] as Case
    useRecordThreads(true)
    if (runningVerifierThreads() === 0) expect(NODE_RECORD_FAST_PATHS.verifyBytesElsewhere?.(first.bytes, first.now, undefined)).toBeUndefined()
    await startThreads()
    const verdict = NODE_RECORD_FAST_PATHS.verifyBytesElsewhere?.(first.bytes, first.now, undefined)
    expect(verdict, 'a promise once the threads run').toBeInstanceOf(Promise)
    expect(await verdict).toMatchObject({ id: (here(first) as { id: string }).id })
  })

  it.each(cases.map((c) => [c.id, c] as const))('%s: the same result as on this thread', async (_, c) => {
    await startThreads()
    expect(await viaThreads(c), c.id).toEqual(here(c))
  })

  it('gives each record of a burst its own result, every vector mixed with the others', async () => {
    await startThreads()
    const burst = [...cases, ...cases, ...cases]
    const results = await Promise.all(burst.map(viaThreads))
    burst.forEach((c, i) => { expect(results[i], `${c.id} at position ${i}`).toEqual(here(c)) })
  })

  it('declines when turned off, though the threads run: the record is verified here, its signature on them', async () => {
    await startThreads()
    useRecordThreads(false)
    try {
      for (const c of cases) {
        expect(NODE_RECORD_FAST_PATHS.verifyBytesElsewhere?.(c.bytes, c.now, c.expectedKind), c.id).toBeUndefined()
        expect(await viaThreads(c), c.id).toEqual(here(c))
      }
    } finally {
      useRecordThreads(true)
    }
  })

  it('copies the bytes when called: the caller may overwrite its buffer at once', async () => {
    await startThreads()
    const inputs = valid.vectors.map((v) => ({ id: v.id, bytes: encodeSignedRecord(v.signed), now: Date.parse(valid.now) }))
    const expected = inputs.map(here)
    const pending = Promise.all(inputs.map(viaThreads))
    for (const { bytes } of inputs) bytes.fill(0)
    expect(await pending).toEqual(expected)
  })
})
