/*
 * The report's glossary (report.html, "Glossary"): every term its words and tables use, each column
 * heading by its exact text, so a reader never has to guess what a figure measures. The unit test
 * holds every heading of a rendered report to an entry here.
 */

export interface GlossaryEntry {
  term: string
  meaning: string
}

/** What the words of the first paragraph mean. */
const WORDS: readonly GlossaryEntry[] = [
  { term: 'observers', meaning: 'Honest nodes that never leave, whose local view of trust is scored against the ground truth the scenario fixed (metrics.observers of them). Each exports every memory it holds with its evidence, re-verifies each record and computes trust from its own trust roots. Every trust figure is pooled over the observers: one observer × memory pair per memory and observer, a memory an observer lacks counting as trust 0, Unverified.' },
  { term: 'trust roots', meaning: 'Honest agents every observer takes as the roots of its reputation graph (metrics.trustRoots of them), besides itself.' },
  { term: 'held', meaning: 'A policy held when its AUC was at least 0.9; partly held from 0.7, barely beat chance from 0.55, fell to chance from 0.45, fell below chance under that. "No longer holding from N Sybils" names the first Sybil count of the sweep where the mean AUC fell below 0.9: where the policy breaks.' },
  { term: 'with the checks / without the checks (baseline)', meaning: 'With the checks, every node runs the witness checks a daemon runs by default (the witness draw and private checks). The baseline plays the same plan without them (isnad sim run --baseline, or metrics.baseline in the scenario; --no-checks plays only the baseline), so the difference is what the checks buy.' },
  { term: 'seeds', meaning: 'The scenario played with seeds s, s+1, …, s+n−1 (--seeds n): each seed fixes a different plan (who authors what, who is asked, what each answers, the links) and, on the model engine, the witness draw. In a table, the seeds behind the row\'s figures.' },
  { term: '95% CI', meaning: "The 95 % confidence interval of the mean over the seeds: mean ± t(0.975, n−1) · s / √n, with s the seeds' sample standard deviation and t Student's t (a t-distribution interval), cut to [0, 1]. It needs two seeds or more; with 3 seeds t is 4.30, so the interval is wide, and more seeds narrow it. It measures how much a figure moves from one seed to another, not the sampling error of the memories within one run." },
  { term: 'range', meaning: 'The lowest and the highest seed\'s figure.' },
  { term: 'virtual time', meaning: 'The model engine keeps its own clock: its latencies and round trips are virtual milliseconds of the modelled network, not the time the computation took. Its wall-clock timings say how long the computation ran.' }
]

/** What every column heading of the report's tables means, by its exact text. */
const HEADINGS: readonly GlossaryEntry[] = [
  { term: 'policy', meaning: 'A trust policy of the registry (src/trust/policies.ts), scored on every run; "(default)" marks the policy a node uses without configuration.' },
  { term: 'checks', meaning: 'Whether the runs played the witness checks ("with") or not ("without": the baseline).' },
  { term: 'AUC', meaning: 'Area under the ROC curve of trust for true against false memories: the chance that a true memory gets a higher trust score at an observer than a false one (ties count half), over all observer × memory pairs. 1: every true memory above every false one; 0.5: a coin; below 0.5: worse than a coin. Undefined (—) when the observers held no pair of a true and a false memory.' },
  { term: 'AUC per policy', meaning: 'The AUC of each policy in that run (the column heading names the policy).' },
  { term: 'false ≥ Anchored', meaning: 'Share of observer × false memory pairs rated Anchored or Consensus: the false memories the policy would let an agent act on unchecked.' },
  { term: 'false ≥ Attested', meaning: 'Share of observer × false memory pairs rated Attested or better.' },
  { term: 'true Unverified', meaning: 'Share of observer × true memory pairs left Unverified: the true memories the policy would not vouch for at all.' },
  { term: 'mean trust (true)', meaning: 'Mean trust score (0–1) of true memories at the observers.' },
  { term: 'mean trust (false)', meaning: 'Mean trust score (0–1) of false memories at the observers.' },
  { term: 'Sybil mean trust', meaning: 'Mean trust score (0–1), at the observers, of the memories the Sybils authored (all false): how far the ring\'s own claims got. — when the run had no Sybil memory.' },
  { term: 'Sybils', meaning: 'Sybil nodes in the run: a ring that confirms its own false memories and, by default, disputes the honest ones it is asked about.' },
  { term: 'share of nodes', meaning: 'Sybils over all the run\'s nodes.' },
  { term: 'seed', meaning: 'The run\'s seed.' },
  { term: 'nodes', meaning: 'Nodes in the run, one agent each.' },
  { term: 'memories', meaning: 'Memories published in the run.' },
  { term: 'memories published', meaning: 'Memories the authors published (a memory planned while its author was offline is not).' },
  { term: 'true memories', meaning: 'Published memories that are true by the plan.' },
  { term: 'false memories', meaning: 'Published memories that are false by the plan.' },
  { term: 'memory delivery', meaning: 'Memories held by every node online at the end, over published × those nodes (1: every node holds every memory).' },
  { term: 'attestation delivery', meaning: 'Attestation arrivals seen at the nodes over those expected; one held at the end with no arrival seen (caught up by sync) counts, without a latency.' },
  { term: 'gossip p50 ms', meaning: 'Median time from an attestation made at its witness to its arrival at each other node (milliseconds; virtual on the model engine).' },
  { term: 'gossip p90 ms', meaning: '90th percentile of the same.' },
  { term: 'gossip p99 ms', meaning: '99th percentile of the same.' },
  { term: 'request → inbox p50 ms', meaning: 'Median time from a witness request sent to its arrival in the witness\'s inbox.' },
  { term: 'witness RTT p50 ms', meaning: 'Median witness round trip: request sent → the witness\'s attestation stored at the author\'s node.' },
  { term: 'witness RTT p99 ms', meaning: '99th percentile of the same.' },
  { term: 'missed answers', meaning: 'Answers the plan expected that never arrived (the witness offline, cut off, or the run over).' },
  { term: 'requests / memory', meaning: 'Witness requests per published memory, network-wide: the author\'s own and the private checks.' },
  { term: 'attestations / memory', meaning: 'Attestations per published memory, network-wide: asked, drawn and privately checked.' },
  { term: 'checking nodes', meaning: 'Nodes that ran the default witness checks: all of them, or 0 without the checks.' },
  { term: 'messages / node', meaning: 'Gossip messages each node received (accepted, ignored and rejected), the mean over the nodes.' },
  { term: 'messages / node (max)', meaning: 'The most any node received.' },
  { term: 'payload bytes / node', meaning: 'Messages × the mean record size (libp2p framing, Noise and control traffic not counted).' },
  { term: 'verifications / node', meaning: 'Signature verifications per node.' },
  { term: 'CPU ms / node', meaning: 'CPU time of the processes hosting the nodes, divided among their nodes.' },
  { term: 'total s', meaning: 'Wall-clock seconds of the run, set-up to measurement (on the model engine, the computation\'s).' }
]

export const GLOSSARY: readonly GlossaryEntry[] = [...WORDS, ...HEADINGS]

/** The entry of a column heading; the AUC columns of the runs table ("AUC <policy>") share one. */
export function glossaryEntryOf (heading: string): GlossaryEntry | undefined {
  const term = heading.startsWith('AUC ') ? 'AUC per policy' : heading
  return GLOSSARY.find((entry) => entry.term === term)
}
