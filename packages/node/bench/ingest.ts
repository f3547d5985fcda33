import { performance } from 'node:perf_hooks'
import {
  ATTESTATION_VERDICTS, encodeSignedRecord, nodeCryptoVerifier, signRecord, type AttestationVerdict
} from '../src/index.js'
import { gatherEvidence, IngestPipeline, initHome, LocalNode, scoreEvidence } from '../src/node/index.js'
import { createLevelRecordStore, type RecordStore } from '../src/record-index/index.js'
import {
  attestationRecord, createAgent, createTagSampler, createTempDir, memoryRecord, sampleTags, signFast,
  type BenchAgent
} from './fixtures.js'
import { createRandom, pick, shuffle, type Sample } from './stats.js'

/*
 * Figure 2: memories through the node's real write path (LocalNode: sign, verify, journal, store,
 * score). Figure 3: the ingest pipeline itself, `IngestPipeline.ingest` without a journal on LevelDB in a temporary directory —
 * decode, verify, store, index, trust recomputed for every memory a batch touches (src/node/pipeline)
 * — without the node's ledger, which the target does not include.
 */

const DAY_MS = 86_400_000
/** Batches handed to the node before the oldest is acknowledged. */
export const PIPELINE_DEPTH = 2

/** An initialized node home in a fresh temporary directory; `dispose` closes the node and removes it. */
export async function openTempNode (label: string): Promise<{ node: LocalNode, dispose: () => Promise<void> }> {
  const dir = await createTempDir(label)
  await initHome(dir.path)
  const node = await LocalNode.open({ home: dir.path })
  return { node, dispose: async () => { await node.close(); await dir.remove() } }
}

/** A LevelDB record store in a fresh temporary directory; `dispose` closes it and removes it. */
export async function openTempStore (label: string): Promise<{ store: RecordStore, dispose: () => Promise<void> }> {
  const dir = await createTempDir(label)
  const store = createLevelRecordStore({ location: dir.path })
  await store.open()
  return { store, dispose: async () => { await store.close(); await dir.remove() } }
}

/** Awaits `op(i)` with i = 0, 1, … until `budgetMs` have passed (at least `minOps` calls). */
async function timeBoxedAsync (op: (i: number) => Promise<void>, budgetMs: number, minOps = 1): Promise<Sample> {
  const start = performance.now()
  let ops = 0
  let elapsed = 0
  while (elapsed < budgetMs || ops < minOps) {
    await op(ops++)
    elapsed = performance.now() - start
  }
  return { ops, ms: elapsed }
}

let serial = 0

/** Figure 2a: LocalNode.remember, one memory per call (sign, verify, store, score, build the view). */
export function rememberMeasure (node: LocalNode, agent: BenchAgent, budgetMs: number): () => Promise<Sample> {
  const random = createRandom(2)
  const { sample } = createTagSampler(200, random)
  return async () => await timeBoxedAsync(async () => {
    const n = ++serial
    const view = await node.remember({
      type: 'observation', summary: `#${n} remembered one at a time`, body: `body of memory ${n}`, tags: sampleTags(random, sample)
    }, { did: agent.did, secretKey: agent.secretKey })
    if (view.id === '') throw new Error('remember returned no id')
  }, budgetMs)
}

/** Figure 2b: `count` memories created and signed (noble, as the node signs), then ingested in batches. */
export function batchRememberMeasure (node: LocalNode, agent: BenchAgent, count: number, batch: number): () => Promise<Sample> {
  const random = createRandom(3)
  const { sample } = createTagSampler(200, random)
  return async () => {
    const start = performance.now()
    for (let at = 0; at < count; at += batch) {
      const signed = []
      for (let i = at; i < Math.min(count, at + batch); i++) {
        const record = memoryRecord(random, { author: agent, serial: ++serial, createdMillis: Date.now() - 1000, tags: sampleTags(random, sample) })
        signed.push(signRecord(record, agent.secretKey, nodeCryptoVerifier.recordFastPaths).signed)
      }
      const result = await node.ingest(signed)
      if (result.stored.length !== signed.length) throw new Error('batch ingest stored fewer memories than given')
    }
    return { ops: count, ms: performance.now() - start }
  }
}

export interface AttestationWorkload {
  /** Signed memories, DAG-CBOR, stored before the clock starts. */
  memories: Uint8Array[]
  /** Signed attestations, DAG-CBOR, in a shuffled (gossip-like) arrival order. */
  attestations: Uint8Array[]
  memoryIds: string[]
}

export interface WorkloadSize {
  memories: number
  witnessesPerMemory: number
}

const VERDICT_WEIGHTS: Array<[AttestationVerdict, number]> = [['confirm', 0.8], ['dispute', 0.12], ['partial', 0.08]]

function sampleVerdict (random: () => number): AttestationVerdict {
  let x = random()
  for (const [verdict, weight] of VERDICT_WEIGHTS) if ((x -= weight) < 0) return verdict
  return ATTESTATION_VERDICTS[0]
}

/** Memories by 8 authors, each witnessed by distinct witnesses out of 32 (never its author). */
export function createAttestationWorkload (size: WorkloadSize, now = Date.now()): AttestationWorkload {
  const random = createRandom(4)
  const { sample } = createTagSampler(200, random)
  const authors = Array.from({ length: 8 }, (_, n) => createAgent(3, n))
  const witnesses = Array.from({ length: 32 }, (_, n) => createAgent(4, n))
  const memories: Uint8Array[] = []
  const memoryIds: string[] = []
  const attestations: Uint8Array[] = []
  for (let m = 0; m < size.memories; m++) {
    const createdMillis = now - 30 * DAY_MS + m * 60_000
    const author = pick(random, authors)
    const signed = signFast(memoryRecord(random, { author, serial: m, createdMillis, tags: sampleTags(random, sample) }), author)
    memories.push(encodeSignedRecord(signed.signed))
    memoryIds.push(signed.id)
    for (const witness of shuffle(random, [...witnesses]).slice(0, size.witnessesPerMemory)) {
      const record = attestationRecord(signed.id, witness, sampleVerdict(random), createdMillis + Math.floor(random() * DAY_MS))
      attestations.push(encodeSignedRecord(signFast(record, witness).signed))
    }
  }
  return { memories, attestations: shuffle(random, attestations), memoryIds }
}

/**
 * Figure 3: one round on a fresh LevelDB store. The memories are ingested first (not timed); then
 * the attestations arrive as bytes in batches of `batch`: decoded, verified, stored, indexed, and
 * the trust of every memory they touch recomputed. Afterwards (not timed) the indexed trust of a
 * sample of memories must equal a from-scratch computation, so a faster ingest cannot be a wrong one.
 */
export async function attestationIngestRound (workload: AttestationWorkload, batch: number): Promise<Sample> {
  const { store, dispose } = await openTempStore('attest')
  const pipeline = new IngestPipeline({ store, verifier: nodeCryptoVerifier, clock: Date.now })
  const ingest = async (inputs: Uint8Array[]): Promise<number> => (await pipeline.ingest(inputs, 'import')).stored.length
  try {
    for (let at = 0; at < workload.memories.length; at += 500) await ingest(workload.memories.slice(at, at + 500))
    const start = performance.now()
    const cpu = process.cpuUsage()
    const mainThread = process.threadCpuUsage()
    let stored = 0
    // A gossip pipeline: batch n + 1 is decoded and verified while batch n is scored and written;
    // ingest scores and writes batches of one store strictly in turn.
    const inFlight: Array<Promise<void>> = []
    for (let at = 0; at < workload.attestations.length; at += batch) {
      if (inFlight.length >= PIPELINE_DEPTH) await inFlight.shift()
      inFlight.push(ingest(workload.attestations.slice(at, at + batch)).then((n) => { stored += n }))
    }
    await Promise.all(inFlight)
    const ms = performance.now() - start
    const { user, system } = process.cpuUsage(cpu)
    const main = process.threadCpuUsage(mainThread)
    if (stored !== workload.attestations.length) throw new Error(`stored ${stored} of ${workload.attestations.length} attestations`)
    await assertTrustConsistent(store, workload.memoryIds)
    return { ops: stored, ms, cpuMs: (user + system) / 1000, mainThreadCpuMs: (main.user + main.system) / 1000 }
  } finally {
    await dispose()
  }
}

/** The indexed trust of a sample of memories equals a from-scratch computation over the store. */
async function assertTrustConsistent (store: RecordStore, ids: readonly string[]): Promise<void> {
  const now = Date.now()
  for (let i = 0; i < ids.length; i += Math.max(1, Math.floor(ids.length / 50))) {
    const id = ids[i] as string
    const memory = await store.getMemory(id)
    if (memory === null) throw new Error(`memory ${id} is not stored`)
    const indexed = await store.getTrust(id)
    const fresh = scoreEvidence(await gatherEvidence(store, memory), now, {}) // a store-only pipeline scores with the defaults
    if (indexed?.score !== fresh.score) throw new Error(`memory ${id}: indexed trust ${indexed?.score} ≠ recomputed ${fresh.score}`)
  }
}
