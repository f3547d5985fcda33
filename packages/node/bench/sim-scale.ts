import { execFile } from 'node:child_process'
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'
import { BUILTIN_SCENARIO_DIR, loadScenario, runModelScenario, type PolicyAccuracy } from 'isnad-sim'
import { DEFAULT_TRUST_POLICY } from '../src/trust/index.js'

/*
 * The scale curve with shards (docs/simulation.md, "Scale: shards and interests"; BENCHMARKS.md): the
 * model engine on scenarios/scale/model-{300,1k,3k,10k,30k}.yaml (the same rate per agent at every
 * size), each run alone in a fresh process so its peak RSS is its own. Per size: the shard count,
 * each measured node's gossip messages per simulated minute and records stored at the end, and, as
 * the baseline measured in the same run, what every node would receive without shards: every record
 * and witness request the network published per simulated minute. Then the default policy's and
 * isnad-draw's accuracy as each observer sees it on its home shards.
 *
 *   npm run build && node dist/bench/sim-scale.js [--sizes 300,1k,3k,10k,30k] [--out sim-results/scale] [--evidence explained]
 *
 * `--evidence explained` plays the observers explaining every memory they are judged on, so their
 * daemons fetch the evidence of witnesses outside their shards (docs/trust.md §3a).
 */

export interface ScaleLine {
  agents: number
  shards: number
  agentsPerShard: { min: number, max: number }
  shardsPerNode: number
  memories: number
  /** Per measured node: mean and highest. */
  messagesPerMinute: { mean: number, max: number }
  storedRecords: { mean: number, max: number }
  /** Records and requests the whole network published per simulated minute: what each node received before shards. */
  networkPerMinute: number
  networkRecords: number
  judgedPerObserver: number
  trust: Record<string, Pick<PolicyAccuracy, 'auc' | 'falseAnchoredShare' | 'falseAttestedShare' | 'trueUnverifiedShare'>>
  wallSeconds: number
  cpuSeconds: number
  peakRssMB: number
}

const SIZES = ['300', '1k', '3k', '10k', '30k']

async function one (file: string, evidence: string | undefined): Promise<ScaleLine> {
  const loaded = await loadScenario(file)
  const scenario = evidence === 'explained' ? { ...loaded, sharding: { ...loaded.sharding, evidenceFetch: 'explained' as const } } : loaded
  const started = performance.now()
  const cpu = process.cpuUsage()
  const results = await runModelScenario(scenario, { progress: (text) => { process.stderr.write(`${text}\n`) } })
  const run = results.runs[0]
  const sharding = run?.sharding
  if (run === undefined || sharding === undefined) throw new Error(`${file}: no sharded run`)
  const used = process.cpuUsage(cpu)
  const published = run.metrics.memories.published
  const networkRecords = published * (1 + (run.metrics.witness.requestsPerMemory ?? 0) + (run.metrics.witness.attestationsPerMemory ?? 0))
  const trust: ScaleLine['trust'] = {}
  for (const t of run.metrics.trust) {
    if (t.policy === DEFAULT_TRUST_POLICY || t.policy === 'isnad-draw') {
      trust[t.policy] = { auc: t.auc, falseAnchoredShare: t.falseAnchoredShare, falseAttestedShare: t.falseAttestedShare, trueUnverifiedShare: t.trueUnverifiedShare }
    }
  }
  return {
    agents: run.nodes,
    shards: sharding.count,
    agentsPerShard: { min: sharding.agentsPerShard.min, max: sharding.agentsPerShard.max },
    shardsPerNode: sharding.shardsPerNode.mean,
    memories: published,
    messagesPerMinute: { mean: sharding.messagesPerMinute.mean, max: sharding.messagesPerMinute.max },
    storedRecords: { mean: sharding.storedRecords.mean, max: sharding.storedRecords.max },
    networkPerMinute: Math.round(networkRecords / scenario.durationMinutes * 10) / 10,
    networkRecords: Math.round(networkRecords),
    judgedPerObserver: sharding.judgedMemoriesPerObserver.mean,
    trust,
    wallSeconds: (performance.now() - started) / 1000,
    cpuSeconds: (used.user + used.system) / 1e6,
    peakRssMB: process.resourceUsage().maxRSS / 1024
  }
}

async function measure (size: string, evidence: string | undefined): Promise<ScaleLine> {
  const file = join(BUILTIN_SCENARIO_DIR, 'scale', `model-${size}.yaml`)
  process.stderr.write(`sim-scale: model-${size} in a fresh process\n`)
  return await new Promise((resolve, reject) => {
    execFile(process.execPath, [fileURLToPath(import.meta.url), '--one', file, ...(evidence === undefined ? [] : ['--evidence', evidence])], { maxBuffer: 1 << 24 }, (error, stdout) => {
      if (error !== null) { reject(error); return }
      try { resolve(JSON.parse(stdout.trim().split('\n').at(-1) ?? '') as ScaleLine) } catch (cause) { reject(new Error(`sim-scale printed no result for ${size}`, { cause })) }
    })
  })
}

const percent = (x: number | null | undefined): string => x === null || x === undefined ? '—' : `${(x * 100).toFixed(1)}%`
const fixed = (x: number | null | undefined, digits: number): string => x === null || x === undefined ? '—' : x.toFixed(digits)

function tableOf (lines: readonly ScaleLine[]): string {
  const policies = [DEFAULT_TRUST_POLICY, 'isnad-draw']
  const first = lines[0]
  const rows = lines.map((l) => [
    l.agents.toLocaleString('en-US'), String(l.shards), `${l.agentsPerShard.min}–${l.agentsPerShard.max}`, fixed(l.shardsPerNode, 2),
    l.memories.toLocaleString('en-US'),
    `${fixed(l.messagesPerMinute.mean, 0)} (max ${fixed(l.messagesPerMinute.max, 0)})`,
    fixed(l.networkPerMinute, 0), fixed(l.messagesPerMinute.mean / l.networkPerMinute, 3),
    first === undefined ? '—' : `${fixed(l.messagesPerMinute.mean / first.messagesPerMinute.mean, 2)}×`,
    `${Math.round(l.storedRecords.mean).toLocaleString('en-US')} (max ${Math.round(l.storedRecords.max).toLocaleString('en-US')})`,
    l.networkRecords.toLocaleString('en-US'),
    ...policies.map((p) => { const t = l.trust[p]; return t === undefined ? '—' : `${fixed(t.auc, 3)} · ${percent(t.falseAnchoredShare)} · ${percent(t.falseAttestedShare)} · ${percent(t.trueUnverifiedShare)}` }),
    `${fixed(l.wallSeconds, 0)} s · ${Math.round(l.peakRssMB)} MB`
  ])
  const head = ['agents', 'shards', 'agents / shard', 'shards / node', 'memories', 'messages / node / min', 'network records / min (before shards: each node)', 'ratio', 'vs 300', 'records stored / node', 'network records', ...policies.map((p) => `${p}: AUC · F≥Anc · F≥Att · T Unv`), 'wall · peak RSS']
  return [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n')
}

async function main (): Promise<void> {
  const argv = process.argv.slice(2)
  const evidenceAt = argv.indexOf('--evidence')
  const evidence = evidenceAt >= 0 ? argv[evidenceAt + 1] : undefined
  const oneAt = argv.indexOf('--one')
  if (oneAt >= 0) {
    process.stdout.write(`${JSON.stringify(await one(argv[oneAt + 1] ?? '', evidence))}\n`)
    return
  }
  const sizesAt = argv.indexOf('--sizes')
  const sizes = sizesAt >= 0 ? (argv[sizesAt + 1] ?? '').split(',') : SIZES
  const outAt = argv.indexOf('--out')
  const out = outAt >= 0 ? argv[outAt + 1] ?? 'sim-results/scale' : 'sim-results/scale'
  const lines: ScaleLine[] = []
  for (const size of sizes) lines.push(await measure(size, evidence))
  const table = tableOf(lines)
  await mkdir(out, { recursive: true })
  await writeFile(join(out, 'scale.json'), `${JSON.stringify(lines, null, 2)}\n`)
  await writeFile(join(out, 'scale.md'), `${table}\n`)
  process.stdout.write(`${table}\n`)
}

main().catch((error: unknown) => {
  process.stderr.write(`sim-scale: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`)
  process.exitCode = 1
})
