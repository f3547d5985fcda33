import { Session } from 'node:inspector/promises'
import { writeFileSync } from 'node:fs'
import { runGossip } from './network-gossip.js'
import { percentile } from './stats.js'
const n = Number(process.argv[2] ?? 20)
const messages = Number(process.argv[3] ?? 20)
const spacing = Number(process.argv[4] ?? 100)
const session = new Session()
session.connect()
await session.post('Profiler.enable')
let stopped: Promise<void> | undefined
const r = await runGossip({ nodes: n, messages, spacingMs: spacing, dialsPerNode: 4, seed: 1, progress: (t) => {
  process.stderr.write(t + '\n')
  if (t.startsWith('publishing')) {
    void session.post('Profiler.start')
    stopped = new Promise((resolve) => setTimeout(() => { void session.post('Profiler.stop').then(({ profile }) => { writeFileSync('/tmp/nb/publish.cpuprofile', JSON.stringify(profile)); resolve() }) }, messages * spacing + 1500))
  }
} })
await stopped
const { latencies, ...rest } = r
console.log(rest, 'p50', percentile(latencies, 50), 'p99', percentile(latencies, 99))
