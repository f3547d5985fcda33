import { SCHEMA_TRUST_POLICY } from 'isnad/engine'
import type { PolicyAccuracy, RunResult, SimResults } from '../driver/index.js'
import { nodeCount, type Scenario } from '../scenario/index.js'
import { confidence95 } from '../driver/index.js'

/*
 * What a results file found, in words and in the aggregates the plots draw (report.ts): the runs
 * grouped by whether they played the witness checks and by Sybil count, each policy's metric over
 * the seeds of a group (mean, range and 95 % confidence interval), and a first paragraph saying which
 * policy held against which attack, what the checks bought and where each policy broke, with the
 * figures. Pure, and tolerant of older files: a run without a `seed` ran the scenario's seed, one
 * without `checks` played what the file's `checks` says; a file without `defaultPolicy` was scored
 * when the default was the schema's isnad-v0.1 (SCHEMA_TRUST_POLICY).
 */

/** Fields newer results files may carry (the model engine, several seeds); absent in older ones. */
interface ResultsExtras { engine?: string, defaultPolicy?: string }
interface RunExtras { seed?: number }

export type PolicyMetric = 'auc' | 'falseAttestedShare' | 'falseAnchoredShare' | 'trueUnverifiedShare' | 'sybilMeanTrust' | 'meanTrustTrue' | 'meanTrustFalse'

export interface Spread {
  mean: number
  min: number
  max: number
  /** Seeds that gave a value. */
  n: number
  /** The 95 % confidence interval of the mean (confidence.ts); null below two seeds. */
  ci95: { low: number, high: number } | null
}

export interface RunGroup {
  /** Whether the runs played the witness checks (false: the baseline without them). */
  checks: boolean
  sybils: number
  nodes: number
  /** One run per seed, in the file's order. */
  runs: RunResult[]
}

export function seedOf (results: SimResults, run: RunResult): number {
  return (run as RunResult & RunExtras).seed ?? results.scenario.seed
}

export function engineOf (results: SimResults): string | undefined {
  return (results as SimResults & ResultsExtras).engine
}

export function defaultPolicyOf (results: SimResults): string {
  // A file without the field was written before results named their default, when every node's
  // default was the schema's isnad-v0.1 (before isnad-reputation became the default).
  return (results as SimResults & ResultsExtras).defaultPolicy ?? SCHEMA_TRUST_POLICY
}

/** Whether a run played the witness checks: its own word, else the file's (older files played what `checks` says). */
export function checksOf (results: SimResults, run: RunResult): boolean {
  return run.checks ?? results.checks !== null
}

/** Whether the file holds runs with the checks: the runs its report is about; the others are the baseline. */
function playedChecks (results: SimResults): boolean {
  return results.runs.some((run) => checksOf(results, run))
}

/** The seeds the file holds, in order of first appearance. */
export function seedsOf (results: SimResults): number[] {
  return [...new Set(results.runs.map((run) => seedOf(results, run)))]
}

/**
 * Runs grouped by Sybil count, ascending; one run per (Sybil count, seed). `checks`: the runs with
 * the witness checks (default, when the file has any) or the baseline without them.
 */
export function groupsBySybils (results: SimResults, checks = playedChecks(results)): RunGroup[] {
  const groups = new Map<number, RunGroup>()
  const seen = new Set<string>()
  for (const run of results.runs) {
    if (checksOf(results, run) !== checks) continue
    const key = `${run.sybils}|${seedOf(results, run)}`
    if (seen.has(key)) continue
    seen.add(key)
    const group = groups.get(run.sybils) ?? { checks, sybils: run.sybils, nodes: run.nodes, runs: [] }
    group.runs.push(run)
    groups.set(run.sybils, group)
  }
  return [...groups.values()].sort((a, b) => a.sybils - b.sybils)
}

/** The baseline's groups (runs without the checks) when the file also holds runs with them; else none. */
export function baselineGroups (results: SimResults): RunGroup[] {
  return playedChecks(results) ? groupsBySybils(results, false) : []
}

/** The group of the scenario as written (its own Sybil count), else the first; `checks` as groupsBySybils. */
export function mainGroup (results: SimResults, checks = playedChecks(results)): RunGroup | undefined {
  const groups = groupsBySybils(results, checks)
  return groups.find((g) => g.sybils === results.scenario.nodes.sybil) ?? groups[0]
}

function accuracyOf (run: RunResult, policy: string): PolicyAccuracy | undefined {
  return run.metrics.trust.find((t) => t.policy === policy)
}

/** A policy's metric over a group's seeds; null when no seed gave a value. */
export function spreadOf (group: RunGroup, policy: string, metric: PolicyMetric): Spread | null {
  const values = group.runs.flatMap((run) => {
    const value = accuracyOf(run, policy)?.[metric]
    return value === null || value === undefined ? [] : [value]
  })
  if (values.length === 0) return null
  return { mean: values.reduce((a, b) => a + b, 0) / values.length, min: Math.min(...values), max: Math.max(...values), n: values.length, ci95: confidence95(values) }
}

/** The policies of a file with the default first. */
export function policiesOf (results: SimResults): string[] {
  const def = defaultPolicyOf(results)
  return results.policies.includes(def) ? [def, ...results.policies.filter((p) => p !== def)] : [...results.policies]
}

const two = (value: number): string => value.toFixed(2)
const percent = (share: number): string => `${Math.round(share * 100)}%`

/** A mean with its 95 % interval over the seeds when the seeds differ, and any `aside` in the same parentheses. */
function figure (spread: Spread, aside?: string): string {
  const ci = spread.ci95
  const notes = [...(ci !== null && spread.max - spread.min >= 0.005 ? [`95% CI ${two(ci.low)}–${two(ci.high)}, ${spread.n} seeds`] : []), ...(aside === undefined ? [] : [aside])]
  return notes.length === 0 ? two(spread.mean) : `${two(spread.mean)} (${notes.join('; ')})`
}

/** Below this AUC a policy no longer holds (policyVerdict): where the sweep says it breaks. */
export const HELD_AUC = 0.9

/** How a policy fared, by its AUC: the words of the first paragraph. */
export function policyVerdict (auc: number): string {
  if (auc >= HELD_AUC) return 'held'
  if (auc >= 0.7) return 'partly held'
  if (auc >= 0.55) return 'barely beat chance'
  if (auc >= 0.45) return 'fell to chance'
  return 'fell below chance'
}

function plural (n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`
}

/** The attack of a scenario at a given Sybil count, in words. */
export function attackOf (scenario: Scenario, sybils: number): string {
  const nodes = { ...scenario.nodes, sybil: sybils }
  const total = nodeCount(nodes)
  const parts: string[] = []
  if (sybils > 0) parts.push(`a ring of ${plural(sybils, 'Sybil')} (${percent(sybils / total)} of ${total} nodes)`)
  if (nodes.colluder > 0) parts.push(plural(nodes.colluder, 'colluding witness', 'colluding witnesses'))
  if (nodes.camouflage > 0) parts.push(`${plural(nodes.camouflage, 'camouflage agent')} turning at minute ${scenario.behaviour.camouflageDefectAt}`)
  if (nodes.contradictor > 0) parts.push(plural(nodes.contradictor, 'contradictor'))
  if (nodes['lazy-witness'] > 0) parts.push(plural(nodes['lazy-witness'], 'lazy witness', 'lazy witnesses'))
  const network: string[] = []
  if (scenario.churn.length > 0) network.push('churn')
  if (scenario.partitions.length > 0) network.push(scenario.partitions.length === 1 ? 'a partition' : `${scenario.partitions.length} partitions`)
  const attack = parts.length === 0 ? `an honest network of ${total} nodes` : parts.length === 1 ? parts[0] as string : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1] as string}`
  return network.length === 0 ? attack : `${attack}, with ${network.join(' and ')}`
}

function policySentence (group: RunGroup, policy: string, isDefault: boolean): string | null {
  const auc = spreadOf(group, policy, 'auc')
  if (auc === null) return null
  const falseAttested = spreadOf(group, policy, 'falseAttestedShare')
  const name = isDefault ? `the default policy ${policy}` : policy
  const ranked = auc.mean >= 0.55 ? `ranking true above false memories with AUC ${figure(auc)}` : `ranking true against false memories with AUC ${figure(auc)}${auc.mean < 0.5 ? ' (worse than a coin)' : ' (a coin: 0.5)'}`
  const rated = falseAttested === null ? '' : ` and rating ${percent(falseAttested.mean)} of false memories Attested or better`
  return `${name} ${policyVerdict(auc.mean)}, ${ranked}${rated}`
}

function sybilsAt (group: RunGroup): string {
  return `${plural(group.sybils, 'Sybil')} (${percent(group.sybils / group.nodes)})`
}

/** A policy's AUC along the sweep: its ends, where it stops holding and where it falls below chance. */
function sweepSentence (groups: RunGroup[], policy: string, prefix = ''): string | null {
  const points = groups.flatMap((g) => {
    const auc = spreadOf(g, policy, 'auc')
    return auc === null ? [] : [{ group: g, auc: auc.mean }]
  })
  const first = points[0]
  const last = points[points.length - 1]
  if (first === undefined || last === undefined || points.length < 2) return null
  const broke = points.find((p) => p.auc < HELD_AUC)
  const below = points.find((p) => p.auc < 0.5)
  const breaks = broke === undefined ? ', holding at every count' : `, no longer holding (AUC below ${HELD_AUC}) from ${sybilsAt(broke.group)}`
  const falls = below === undefined ? '' : `, below chance from ${sybilsAt(below.group)}`
  return `${prefix}${policy}'s AUC went from ${two(first.auc)} at ${first.group.sybils} to ${two(last.auc)} at ${last.group.sybils}${breaks}${falls}`
}

/** What the checks bought on the scenario as written: each policy's AUC without them beside its AUC with them. */
function baselineSentence (results: SimResults, main: RunGroup, policies: string[]): string | null {
  const without = mainGroup(results, false)
  if (without === undefined || !main.checks) return null
  const pairs = policies.flatMap((p) => {
    const on = spreadOf(main, p, 'auc')
    const off = spreadOf(without, p, 'auc')
    const falseOff = spreadOf(without, p, 'falseAttestedShare')
    return on === null || off === null ? [] : [`${p} ${policyVerdict(off.mean)} with AUC ${figure(off, `with the checks ${two(on.mean)}`)}${falseOff === null ? '' : `, rating ${percent(falseOff.mean)} of false memories Attested or better`}`]
  })
  return pairs.length === 0 ? null : `Without the witness checks (the baseline), against the same ${sybilsAt(without)}: ${pairs.join('; ')}.`
}

/** The report's first paragraph: which policy held against which attack, with the figures. */
export function findings (results: SimResults): string {
  const main = mainGroup(results)
  if (main === undefined) return 'The results hold no runs.'
  const policies = policiesOf(results)
  const def = defaultPolicyOf(results)
  const sentences: string[] = []
  const verdicts = policies.flatMap((p) => { const s = policySentence(main, p, p === def); return s === null ? [] : [s] })
  const attack = attackOf(results.scenario, main.sybils)
  sentences.push(verdicts.length === 0
    ? `Against ${attack}, no policy could be scored: the observers held no pair of true and false memories to rank.`
    : `Against ${attack}, ${verdicts.join('; ')}.`)
  const baseline = baselineSentence(results, main, policies)
  if (baseline !== null) sentences.push(baseline)
  const groups = groupsBySybils(results)
  if (groups.length >= 2) {
    const without = baselineGroups(results)
    const sweeps = [
      ...policies.flatMap((p) => { const s = sweepSentence(groups, p); return s === null ? [] : [s] }),
      ...policies.flatMap((p) => { const s = sweepSentence(without, p, 'without the checks, '); return s === null ? [] : [s] })
    ]
    const lo = groups[0] as RunGroup
    const hi = groups[groups.length - 1] as RunGroup
    if (sweeps.length > 0) sentences.push(`As the Sybils grew from ${lo.sybils} to ${hi.sybils} (${percent(lo.sybils / lo.nodes)}–${percent(hi.sybils / hi.nodes)} of the nodes), ${sweeps.join('; ')}.`)
  }
  const seeds = seedsOf(results)
  const delivery = main.runs.map((r) => r.metrics.delivery)
  const memoryRatios = delivery.flatMap((d) => d.memoryRatio === null ? [] : [d.memoryRatio])
  const attestationRatios = delivery.flatMap((d) => d.attestationRatio === null ? [] : [d.attestationRatio])
  const engine = engineOf(results)
  const where = engine === undefined || engine === 'nodes' ? `real nodes (${results.runner} runner)` : `the ${engine} engine`
  const published = main.runs.reduce((sum, r) => sum + r.metrics.memories.published, 0)
  sentences.push(`Played on ${where} with ${plural(seeds.length, 'seed')} (${seeds.join(', ')}); ${plural(published, 'memory', 'memories')} published in the scenario as written` +
    (memoryRatios.length === 0 ? '.' : `, memory delivery ${two(Math.min(...memoryRatios))}` +
      (attestationRatios.length === 0 ? '.' : `, attestation delivery ${two(Math.min(...attestationRatios))}${seeds.length > 1 ? ' (lowest over the seeds)' : ''}.`)))
  return sentences.join(' ')
}
