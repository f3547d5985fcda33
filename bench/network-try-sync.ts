import { runSync } from './network-sync.js'
import { rateOf } from './stats.js'
const r = await runSync({ memories: Number(process.argv[2] ?? 1000), witnessesPerMemory: 2, rounds: Number(process.argv[3] ?? 2), seed: 1, progress: (t) => { process.stderr.write(t + '\n') } })
console.log('baseline', r.baseline.map((s) => `${rateOf(s).toFixed(0)}/s ${s.ms.toFixed(0)}ms cpu ${s.cpuMs?.toFixed(0)}`))
console.log('sync', r.sync.map((s) => `${rateOf(s).toFixed(0)}/s ${s.ms.toFixed(0)}ms cpu ${s.cpuMs?.toFixed(0)}`))
console.log('verif/record', r.verificationsPerRecord, 'populate', r.populateMs)
