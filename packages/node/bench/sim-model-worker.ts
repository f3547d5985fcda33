import { generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto'
import { performance } from 'node:perf_hooks'
import { loadScenario, runModelScenario } from 'isnad-sim'

/*
 * Figure 14's measured process (bench/sim-model.ts): one model-engine simulation alone in a fresh
 * Node process, so its peak RSS is the simulation's, then the figure's baseline in the same process:
 * node:crypto Ed25519 signing and verifying as many records as the simulation signed (each published
 * memory with its witness request and one attestation per witness asked), the least any simulation
 * over real signed records must do. Prints one JSON line on stdout.
 *
 *   node dist/bench/sim-model-worker.js <scenario file> <seeds>
 */

export interface ModelBenchLine {
  wallSeconds: number
  cpuSeconds: number
  /** Peak resident set of the process after the simulation, MB (process.resourceUsage().maxRSS). */
  peakRssMB: number
  runs: number
  agents: number[]
  memories: number
  records: number
  /** Lowest memory and attestation delivery over the runs. */
  minDelivery: number
  baselineSeconds: number
}

/** @default 64 — keys the baseline signs with (a KeyObject made once each, as the model does per agent). */
const BASELINE_KEYS = 64
/** @default 280 — bytes signed per record: about a record's signing input. */
const SIGNED_BYTES = 280

function cryptoBaseline (records: number): number {
  const keys: Array<{ priv: KeyObject, pub: KeyObject }> = Array.from({ length: BASELINE_KEYS }, () => {
    const pair = generateKeyPairSync('ed25519')
    return { priv: pair.privateKey, pub: pair.publicKey }
  })
  const message = Buffer.alloc(SIGNED_BYTES)
  const started = performance.now()
  for (let i = 0; i < records; i++) {
    const key = keys[i % BASELINE_KEYS] as { priv: KeyObject, pub: KeyObject }
    message.writeUInt32BE(i, 0)
    if (!verify(null, message, key.pub, sign(null, message, key.priv))) throw new Error('baseline signature did not verify')
  }
  return (performance.now() - started) / 1000
}

async function main (): Promise<void> {
  const [path, seedsText] = process.argv.slice(2)
  if (path === undefined) throw new Error('usage: sim-model-worker <scenario file> [seeds]')
  const scenario = await loadScenario(path)
  const cpu = process.cpuUsage()
  const started = performance.now()
  const results = await runModelScenario(scenario, { seeds: Number(seedsText ?? '1'), progress: (text) => { process.stderr.write(`${text}\n`) } })
  const wallSeconds = (performance.now() - started) / 1000
  const used = process.cpuUsage(cpu)
  const peakRssMB = process.resourceUsage().maxRSS / 1024
  const memories = results.runs.reduce((sum, r) => sum + r.metrics.memories.published, 0)
  const records = memories * (2 + scenario.requests.witnessesPerMemory)
  const minDelivery = Math.min(...results.runs.flatMap((r) => [r.metrics.delivery.memoryRatio ?? 1, r.metrics.delivery.attestationRatio ?? 1]))
  const line: ModelBenchLine = {
    wallSeconds,
    cpuSeconds: (used.user + used.system) / 1e6,
    peakRssMB,
    runs: results.runs.length,
    agents: [...new Set(results.runs.map((r) => r.nodes))],
    memories,
    records,
    minDelivery,
    baselineSeconds: cryptoBaseline(records)
  }
  process.stdout.write(`${JSON.stringify(line)}\n`)
}

main().catch((error: unknown) => {
  process.stderr.write(`sim-model-worker: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`)
  process.exitCode = 1
})
