import { runWitness } from './network-witness.js'
import { percentile } from './stats.js'
const r = await runWitness({ nodes: Number(process.argv[2] ?? 8), witnesses: 3, requests: Number(process.argv[3] ?? 5), dialsPerNode: 4, seed: 1, progress: (t) => { process.stderr.write(t + '\n') } })
for (const [k, v] of Object.entries(r)) console.log(k, Array.isArray(v) ? `p50 ${percentile(v, 50).toFixed(1)} max ${percentile(v, 100).toFixed(1)} ${v.map((x) => x.toFixed(0)).join(',')}` : v)
