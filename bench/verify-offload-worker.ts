import { parentPort } from 'node:worker_threads'
import { isIsnadError } from '../src/errors/index.js'
import { nodeCryptoVerifier } from '../src/native/index.js'
import { verifyRecordBytes } from '../src/record/index.js'

/*
 * The thread side of bench/verify-offload.ts: every step of verifyRecordBytes (decode, schema,
 * canonical form, size, id, signer key, signature, freshness) on raw bytes, a compact result back.
 */

export interface OffloadRequest {
  id: number
  now: number
  records: Uint8Array[]
  /** Send the decoded record back (structured clone); else the main thread decodes it again. */
  clone: boolean
}

export type OffloadResult =
  | { id: string, cid: Uint8Array, signed?: unknown }
  | { code: string, message: string, details?: Record<string, unknown> }

const port = parentPort
if (port === null) throw new Error('verify-offload-worker.ts runs as a worker thread')
port.on('message', (request: OffloadRequest) => {
  const results: OffloadResult[] = request.records.map((bytes) => {
    try {
      const verified = verifyRecordBytes(bytes, { verifier: nodeCryptoVerifier, now: request.now })
      return request.clone ? { id: verified.id, cid: verified.cid.bytes, signed: verified.signed } : { id: verified.id, cid: verified.cid.bytes }
    } catch (err) {
      if (!isIsnadError(err)) throw err
      return { code: err.code, message: err.message, ...(err.details === undefined ? {} : { details: err.details }) }
    }
  })
  port.postMessage({ id: request.id, results })
})
