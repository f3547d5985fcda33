/*
 * Trust policies against every built-in scenario on the model engine (docs/simulation.md, "Trust
 * policies against the scenarios"): each scenario's whole sweep over several seeds, and per policy
 * the issue-18 targets measured at the observers — AUC, false memories at Attested+ and Anchored+,
 * true memories left Unverified. Prints one JSON line per (scenario, Sybil count, seed, policy) and a
 * table of each policy's worst figure per scenario.
 * Usage: node dist/bench/trust-scenarios.js [--seeds N] [--scenarios a,b] [--file path.yaml] [--spot-checks K]
 * [--spot-escalation E] (--spot-checks: witnesses each observer asks about each memory it receives, src/sim/model
 * spot-checks.ts, default SPOT_CHECKS_PER_MEMORY (3); 0 plays the network without spot checks, as
 * `isnad sim run` does and as before issue 18's third pass; --spot-escalation: how many more it asks
 * once when one answer is a dispute, default SPOT_ESCALATION (2)).
 */
import { loadScenario } from '../src/sim/scenario/builtin.js'
import { runModelOnce, SPOT_CHECKS_PER_MEMORY, SPOT_ESCALATION } from '../src/sim/model/index.js'
import { sweepOf } from '../src/sim/driver/run.js'

const BUILT_IN = ['honest-baseline', 'sybil-ring', 'colluding-witnesses', 'churn-partition', 'mixed-adversaries']

function arg (name: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`)
  return at === -1 ? undefined : process.argv[at + 1]
}

interface Worst { auc: number, falseAttested: number, falseAnchored: number, trueUnverified: number, runs: number }

const seeds = Number(arg('seeds') ?? 3)
const spotChecks = Number(arg('spot-checks') ?? SPOT_CHECKS_PER_MEMORY)
const spotEscalation = arg('spot-escalation') === undefined ? undefined : Number(arg('spot-escalation'))
const names = arg('file') !== undefined ? [arg('file') as string] : (arg('scenarios')?.split(',') ?? BUILT_IN)
const worst = new Map<string, Worst>()
for (const name of names) {
  const scenario = await loadScenario(name)
  for (const run of sweepOf(scenario, seeds)) {
    const result = runModelOnce(run, () => {}, { spotChecks, ...(spotEscalation === undefined ? {} : { spotEscalation }) })
    for (const t of result.metrics.trust) {
      const row = { spotChecks, spotEscalation: spotChecks === 0 ? 0 : spotEscalation ?? SPOT_ESCALATION, scenario: scenario.name, sybils: run.nodes.sybil, seed: run.seed, policy: t.policy, auc: t.auc, falseAttested: t.falseAttestedShare, falseAnchored: t.falseAnchoredShare, trueUnverified: t.trueUnverifiedShare, meanTrue: t.meanTrustTrue, meanFalse: t.meanTrustFalse, seconds: result.timings.totalSeconds }
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
