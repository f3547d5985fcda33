import { Session } from 'node:inspector/promises'
import { writeFileSync } from 'node:fs'
import { runWitness } from './network-witness.js'
import { percentile } from './stats.js'
const session = new Session()
session.connect()
await session.post('Profiler.enable')
let cpu: NodeJS.CpuUsage | undefined
let t0 = 0
const r = await runWitness({ nodes: 20, witnesses: 3, requests: 10, dialsPerNode: 4, seed: 1, progress: (t) => {
  process.stderr.write(t + '\n')
  if (t.includes('witness requests')) { void session.post('Profiler.start'); cpu = process.cpuUsage(); t0 = performance.now() }
} })
const used = process.cpuUsage(cpu); const wall = performance.now() - t0
const { profile } = await session.post('Profiler.stop')
writeFileSync('/tmp/nb/witness.cpuprofile', JSON.stringify(profile))
console.log('wall', wall.toFixed(0), 'cpu', ((used.user + used.system) / 1000).toFixed(0))
for (const [k, v] of Object.entries(r)) console.log(k, Array.isArray(v) ? `p50 ${percentile(v, 50).toFixed(1)}` : v)
