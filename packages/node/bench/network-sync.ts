import { performance } from 'node:perf_hooks'
import { SYNC_PAGE_SIZE } from '../src/net/index.js'
import { LocalNode, initHome } from '../src/node/index.js'
import { encodeSignedRecord } from '../src/record/index.js'
import { attestationRecord, createAgent, createTagSampler, createTempDir, memoryRecord, sampleTags, signFast } from './fixtures.js'
import { countRecords, startSyncNode, type SyncNode } from './network-sync-node.js'
import type { StartedPeer, SyncWorkerRequest } from './network-sync-worker.js'
import { NodeThread } from './node-threads.js'
import { createRandom, shuffle, type Sample } from './stats.js'

/*
 * Sync catch-up (benchmark 8): node A, a LocalNode on LevelDB with its ledger behind the
 * daemon's NetHost (createNodeHost), stores `memories` memories with `witnessesPerMemory`
 * attestations each, on a thread of its own (network-sync-worker.ts: two nodes, two event loops,
 * as two daemons have). Node B, the same in a fresh home on this thread, starts, dials A and syncs
 * its log (sync-v1): every record verified once by B's network layer, then journaled and stored by
 * B. CPU is the process's: both nodes.
 * Baseline, alternating round by round: the same records, as the same bytes in the same order,
 * ingested by a fresh LocalNode from memory (LocalNode.ingest, batches of one sync page), no network.
 * Diagnostic, in the same rounds: the sync again with B's signature checks skipped (a verifier
 * that accepts everything), which shows how fast catch-up could be if verification were free:
 * the ceiling set by decoding, journaling, storing and serving alone.
 */

export interface SyncRunOptions {
  memories: number
  witnessesPerMemory: number
  rounds: number
  /** Rounds run first and discarded (JIT, LevelDB and page cache warm up). */
  warmups: number
  seed: number
  progress: (text: string) => void
}

export interface SyncRunResult {
  memories: number
  records: number
  /** Per round, the baseline and then the sync, both in memories caught up per second. */
  baseline: Sample[]
  sync: Sample[]
  /** The diagnostic rounds: the same sync with B's signature checks skipped. */
  unchecked: Sample[]
  /** Signature checks by B per record it received, over all rounds. */
  verificationsPerRecord: number
  /** How long A took to ingest the workload (not measured against anything). */
  populateMs: number
}

const DAY_MS = 86_400_000

/**
 * Memories by 8 authors, each followed in A's log by its attestations from distinct witnesses of 16.
 * Exported for the OrbitDB peer baseline (bench/peers/orbitdb), which replicates the same bytes.
 */
export function createWorkload (options: SyncRunOptions): Uint8Array[] {
  const random = createRandom(options.seed)
  const { sample } = createTagSampler(50, random)
  const authors = Array.from({ length: 8 }, (_, n) => createAgent(40, n))
  const witnesses = Array.from({ length: 16 }, (_, n) => createAgent(41, n))
  const start = Date.now() - 2 * DAY_MS
  const out: Uint8Array[] = []
  for (let m = 0; m < options.memories; m++) {
    const author = authors[m % authors.length] as (typeof authors)[number]
    const createdMillis = start + m * 1000
    const memory = signFast(memoryRecord(random, { author, serial: m, createdMillis, tags: sampleTags(random, sample) }), author)
    out.push(encodeSignedRecord(memory.signed))
    for (const witness of shuffle(random, [...witnesses]).slice(0, options.witnessesPerMemory)) {
      out.push(encodeSignedRecord(signFast(attestationRecord(memory.id, witness, 'confirm', createdMillis + 60_000), witness).signed))
    }
  }
  return out
}

async function baselineRound (records: readonly Uint8Array[], memories: number): Promise<Sample> {
  const dir = await createTempDir('sync-direct')
  await initHome(dir.path)
  const node = await LocalNode.open({ home: dir.path })
  try {
    const cpu = process.cpuUsage()
    const start = performance.now()
    for (let at = 0; at < records.length; at += SYNC_PAGE_SIZE) await node.ingest(records.slice(at, at + SYNC_PAGE_SIZE), 'sync')
    await node.journal.views.settled() // the views of sync pages are deferred: the clock stops once they are written
    const ms = performance.now() - start
    const { user, system } = process.cpuUsage(cpu)
    const counts = await countRecords(node)
    if (counts.total !== records.length) throw new Error(`direct ingest stored ${counts.total} of ${records.length} records`)
    return { ops: memories, ms, cpuMs: (user + system) / 1000 }
  } finally {
    await node.close()
    await dir.remove()
  }
}

async function syncRound (a: StartedPeer, records: number, memories: number, checkSignatures = true): Promise<{ sample: Sample, verifications: number }> {
  const b: SyncNode = await startSyncNode('sync-b', { checkSignatures })
  try {
    const cpu = process.cpuUsage()
    const mainThread = process.threadCpuUsage()
    const start = performance.now()
    await b.network.dial(a.addr)
    const result = await b.network.sync(a.peerId)
    await b.node.journal.views.settled() // as above: caught up means the views are written too
    const ms = performance.now() - start
    const { user, system } = process.cpuUsage(cpu)
    const main = process.threadCpuUsage(mainThread)
    const counts = await countRecords(b.node)
    if (result.accepted !== records || counts.total !== records || counts.memories !== memories) {
      throw new Error(`B caught up ${result.accepted} records (${counts.memories} memories) of ${records} (${memories})`)
    }
    return { sample: { ops: memories, ms, cpuMs: (user + system) / 1000, mainThreadCpuMs: (main.user + main.system) / 1000 }, verifications: b.verifier.total }
  } finally {
    await b.dispose()
  }
}

export async function runSync (options: SyncRunOptions): Promise<SyncRunResult> {
  const records = createWorkload(options)
  const thread = new NodeThread<SyncWorkerRequest>(new URL('./network-sync-worker.js', import.meta.url))
  try {
    const a = await thread.request<StartedPeer>({ op: 'start', records })
    if (a.records !== records.length) throw new Error(`A stored ${a.records} of ${records.length} records`)
    options.progress(`A stores ${options.memories} memories + ${records.length - options.memories} attestations on its own thread (in ${(a.populateMs / 1000).toFixed(1)} s); ${options.warmups + options.rounds} rounds of direct ingest, sync, and sync with signature checks skipped (diagnostic; ${options.warmups} discarded)`)
    const result: SyncRunResult = { memories: options.memories, records: records.length, baseline: [], sync: [], unchecked: [], verificationsPerRecord: 0, populateMs: a.populateMs }
    let verifications = 0
    for (let round = 0; round < options.warmups + options.rounds; round++) {
      const base = await baselineRound(records, options.memories)
      const { sample, verifications: checks } = await syncRound(a, records.length, options.memories)
      const { sample: unchecked } = await syncRound(a, records.length, options.memories, false)
      if (round < options.warmups) continue
      result.baseline.push(base)
      result.sync.push(sample)
      result.unchecked.push(unchecked)
      verifications += checks
    }
    result.verificationsPerRecord = verifications / (options.rounds * records.length)
    return result
  } finally {
    await thread.request({ op: 'stop' }).catch(() => undefined)
    await thread.terminate()
  }
}
