import { runGossip } from './network-gossip.js'
import { percentile } from './stats.js'
const n = Number(process.argv[2] ?? 20)
const r = await runGossip({ nodes: n, messages: Number(process.argv[3] ?? 20), spacingMs: Number(process.argv[4] ?? 100), dialsPerNode: 4, seed: 1, progress: (t) => { process.stderr.write(t + '\n') } })
const { latencies, ...rest } = r
console.log(rest, 'p50', percentile(latencies, 50), 'p99', percentile(latencies, 99), 'max', percentile(latencies, 100))
