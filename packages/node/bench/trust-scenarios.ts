/*
 * Trust policies against every built-in scenario on the model engine (docs/simulation.md, "Trust
 * policies against the scenarios"): each scenario's whole sweep over several seeds, and per policy
 * the issue-18 targets measured at the observers — AUC, false memories at Attested+ and Anchored+,
 * true memories left Unverified. Prints one JSON line per (scenario, Sybil count, seed, policy) and a
 * table of each policy's worst figure per scenario.
 * Usage: node dist/bench/trust-scenarios.js [--seeds N] [--scenarios a,b] [--file path.yaml] [--no-checks]
 * (--no-checks: the network without the witness draw and private checks every node runs by default).
 * Each row also carries the witness load per published memory (requests, attestations, network-wide)
 * and the per-node messages and signature checks per published memory.
 */
import { loadScenario, runModelOnce, sweepOf } from 'isnad-sim'

const BUILT_IN = [
  'honest-baseline', 'sybil-ring', 'colluding-witnesses', 'churn-partition', 'mixed-adversaries', 'small', 'bench-100',
  'scenarios/attacks/grinding.yaml', 'scenarios/attacks/withholding.yaml', 'scenarios/attacks/late-publication.yaml', 'scenarios/attacks/flooding.yaml',
  'scenarios/attacks/hidden-circle.yaml', 'scenarios/attacks/wide-circle.yaml', 'scenarios/attacks/wide-circle-rare.yaml', 'scenarios/attacks/camouflage-heavy.yaml'
]

function arg (name: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`)
  return at === -1 ? undefined : process.argv[at + 1]
}

interface Worst { auc: number, falseAttested: number, falseAnchored: number, trueUnverified: number, runs: number }

const seeds = Number(arg('seeds') ?? 3)
const checks = !process.argv.includes('--no-checks')
const names = arg('file') !== undefined ? [arg('file') as string] : (arg('scenarios')?.split(',') ?? BUILT_IN)
const worst = new Map<string, Worst>()
for (const name of names) {
  const scenario = await loadScenario(name)
  for (const run of sweepOf(scenario, seeds)) {
    const result = runModelOnce(run, () => {}, { checks })
    const m = result.metrics
    const published = Math.max(1, m.memories.published)
    const load = {
      requestsPerMemory: m.witness.requestsPerMemory, attestationsPerMemory: m.witness.attestationsPerMemory, checkingNodes: m.witness.checkingNodes, draw: m.witness.draw,
      messagesPerMemory: m.perNode === null ? null : Math.round(m.perNode.messagesMean / published * 100) / 100,
      verificationsPerMemory: m.perNode === null ? null : Math.round(m.perNode.verificationsMean / published * 100) / 100
    }
    for (const t of result.metrics.trust) {
      const row = { checks, ...load, scenario: scenario.name, sybils: run.nodes.sybil, seed: run.seed, policy: t.policy, auc: t.auc, falseAttested: t.falseAttestedShare, falseAnchored: t.falseAnchoredShare, trueUnverified: t.trueUnverifiedShare, meanTrue: t.meanTrustTrue, meanFalse: t.meanTrustFalse, seconds: result.timings.totalSeconds }
      console.log(JSON.stringify(row))
      const key = `${scenario.name}\t${t.policy}`
      const w = worst.get(key) ?? { auc: 1, falseAttested: 0, falseAnchored: 0, trueUnverified: 0, runs: 0 }
      w.auc = Math.min(w.auc, t.auc ?? 1)
      w.falseAttested = Math.max(w.falseAttested, t.falseAttestedShare ?? 0)
      w.falseAnchored = Math.max(w.falseAnchored, t.falseAnchoredShare ?? 0)
      w.trueUnverified = Math.max(w.trueUnverified, t.trueUnverifiedShare ?? 0)
      w.runs++
      worst.set(key, w)
    }
  }
}
console.log('\nscenario\tpolicy\truns\tmin AUC\tmax false Attested+\tmax false Anchored+\tmax true Unverified')
for (const [key, w] of worst) console.log(`${key}\t${w.runs}\t${w.auc.toFixed(3)}\t${(w.falseAttested * 100).toFixed(1)}%\t${(w.falseAnchored * 100).toFixed(1)}%\t${(w.trueUnverified * 100).toFixed(1)}%`)
