import * as dagCbor from '@ipld/dag-cbor'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { deserialize, serialize } from 'node:v8'
import { NODE_RECORD_FAST_PATHS, nodeCryptoVerifier } from '../src/fast-crypto/index.js'
import { initHome, LocalNode } from '../src/node/index.js'
import { decodeSignedRecord, verifyRecordBytes, type RecordVerifier } from '../src/record/index.js'
import { SignedRecordSchema } from '../src/schema/index.js'
import { createAttestationWorkload } from './ingest.js'
import { median } from './stats.js'

/*
 * The verifier threads, measured before they were built: how much of the main thread's CPU per received
 * record could move to the verifier threads, and what the main thread would pay instead to get the
 * decoded record back. Over figure 8c's records (1,000 memories + 2,000 attestations, canonical
 * bytes), each in µs of this thread's CPU per record, median of the passes:
 *
 * - `ingest`: the whole direct ingest (LocalNode.ingest in sync pages of 256, signatures on the
 *   verifier threads as today): what the main thread spends per record now;
 * - `movable`: verifyRecordBytes with the signature accepted at once (decode, schema, canonical
 *   re-encode and compare, size, kind, CID, signer key, freshness): what a thread could take;
 * - `verify`: the same with the signature checked here (libsodium/OpenSSL), for scale;
 * - `decode only`, `decode + schema`: re-decoding on the main thread, the cheap way back;
 * - `decode + zod`: the same with zod's parse as the schema step (SignedRecordSchema), what
 *   `decode + schema` cost before a valid record was checked without it (schema/signed-record-check.ts);
 * - `deserialize`: v8.deserialize of the decoded record (what postMessage's structured clone costs
 *   the receiving thread), the other way back.
 *
 *   npm run build && node dist/bench/verify-split.js [--passes=5]
 */

const PASSES = Number(process.argv.find((a) => a.startsWith('--passes='))?.slice('--passes='.length) ?? '5')
const PAGE = 256

const workload = createAttestationWorkload({ memories: 1000, witnessesPerMemory: 2 })
const records = [...workload.memories, ...workload.attestations]
const now = Date.now()
const acceptAll: RecordVerifier = { name: 'accept all', verify: () => true, recordFastPaths: NODE_RECORD_FAST_PATHS }

function cpuMicros (run: () => void): number {
  const start = process.threadCpuUsage()
  run()
  const { user, system } = process.threadCpuUsage(start)
  return user + system
}

async function ingestMicros (): Promise<number> {
  const home = await mkdtemp(join(tmpdir(), 'isnad-bench-split-'))
  try {
    await initHome(home)
    const node = await LocalNode.open({ home })
    try {
      const start = process.threadCpuUsage()
      for (let at = 0; at < records.length; at += PAGE) await node.ingest(records.slice(at, at + PAGE), 'sync')
      const { user, system } = process.threadCpuUsage(start)
      return user + system
    } finally {
      await node.close()
    }
  } finally {
    await rm(home, { recursive: true, force: true })
  }
}

const decoded = records.map((bytes) => decodeSignedRecord(bytes))
const serialized = decoded.map((signed) => serialize(signed))
const steps: Record<string, () => void> = {
  movable: () => { for (const bytes of records) verifyRecordBytes(bytes, { verifier: acceptAll, now }) },
  verify: () => { for (const bytes of records) verifyRecordBytes(bytes, { verifier: nodeCryptoVerifier, now }) },
  'decode only': () => { for (const bytes of records) dagCbor.decode(bytes) },
  'decode + schema': () => { for (const bytes of records) decodeSignedRecord(bytes) },
  'decode + zod': () => { for (const bytes of records) SignedRecordSchema.parse(dagCbor.decode(bytes)) },
  deserialize: () => { for (const buffer of serialized) deserialize(buffer) }
}
const samples: Record<string, number[]> = { ingest: [] }
for (let pass = 0; pass <= PASSES; pass++) {
  const ingest = await ingestMicros()
  if (pass > 0) samples.ingest?.push(ingest / records.length)
  for (const [name, run] of Object.entries(steps)) {
    const micros = cpuMicros(run)
    if (pass > 0) (samples[name] ??= []).push(micros / records.length)
  }
}
const result = Object.fromEntries(Object.entries(samples).map(([name, values]) => [name, Number(median(values).toFixed(1))]))
process.stdout.write(`${JSON.stringify({ records: records.length, passes: PASSES, microsPerRecord: result, perPass: samples }, null, 2)}\n`)
