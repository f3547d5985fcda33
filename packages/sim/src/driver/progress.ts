import { performance } from 'node:perf_hooks'

/*
 * Progress of a simulation on stderr (docs/simulation.md, "Output"): every line says which run of
 * how many it belongs to and what that run varies ("run 2 of 3 · sybil 20% · seed 2"), the phase,
 * and, once the activity has started, how much of the whole simulation is done and an estimate of
 * the time left. The estimate extrapolates the wall time spent so far over the share of work done,
 * each run counting as one equal share (runs of a sweep differ in size, so it is rough at first and
 * settles as runs finish). Runs may overlap (the model engine plays a sweep's runs on worker
 * threads): each line is of its own run, and the share done counts the finished runs and how far
 * each running one is.
 */

export interface RunLabel {
  /** Sybil nodes of this run and the run's node count (for the share). */
  sybils?: number
  nodes?: number
  seed?: number
  /** false: a baseline run without the witness checks (the line says so). */
  checks?: boolean
}

interface RunningRun {
  label: string
  /** Share of the run done, 0–1. */
  within: number
}

export class SimProgress {
  /** The run the index-less calls speak of: the last one started. */
  private current = 0
  private readonly running = new Map<number, RunningRun>()
  private readonly finished = new Set<number>()
  private readonly started: number

  constructor (
    private readonly sink: (line: string) => void,
    private readonly runs: number,
    private readonly clock: () => number = () => performance.now()
  ) {
    this.started = clock()
  }

  /** A run begins (1-based `index`); until it finishes, lines and advances of that index are its. */
  startRun (index: number, label: RunLabel = {}): void {
    this.current = index
    const parts = [`run ${index} of ${this.runs}`]
    if (label.sybils !== undefined) {
      const share = label.nodes === undefined || label.nodes === 0 ? '' : ` (${Math.round(label.sybils / label.nodes * 100)}%)`
      parts.push(`sybil ${label.sybils}${share}`)
    }
    if (label.seed !== undefined) parts.push(`seed ${label.seed}`)
    if (label.checks === false) parts.push('no checks')
    this.running.set(index, { label: parts.join(' · '), within: 0 })
  }

  /** Run `index` is done: it counts as a whole share. */
  finishRun (index: number = this.current): void {
    this.running.delete(index)
    this.finished.add(index)
  }

  /** How far run `index` (the last started by default) is, 0–1 (the driver: simulated minutes played over the duration). */
  advance (share: number, index: number = this.current): void {
    const run = this.running.get(index)
    if (run !== undefined) run.within = Math.min(1, Math.max(0, share))
  }

  /** Share of the whole simulation done, 0–1. */
  get done (): number {
    if (this.runs === 0) return 1
    let within = 0
    for (const run of this.running.values()) within += run.within
    return Math.min(1, (this.finished.size + within) / this.runs)
  }

  /** Seconds left by extrapolation, or null before anything measurable is done. */
  etaSeconds (): number | null {
    const done = this.done
    if (done <= 0) return null
    const elapsed = (this.clock() - this.started) / 1000
    return Math.max(0, elapsed * (1 - done) / done)
  }

  /** One line of progress for run `index` (the last started by default) and its phase. */
  line (text: string, index: number = this.current): void {
    const eta = this.etaSeconds()
    const tail = eta === null ? '' : ` · ${Math.floor(this.done * 100)}% done, ETA ${formatDuration(eta)}`
    const label = this.running.get(index)?.label ?? ''
    this.sink(`${label === '' ? '' : `${label} · `}${text}${tail}`)
  }
}

/** 75 → "1m15s", 3725 → "1h02m", 8 → "8s". */
export function formatDuration (seconds: number): string {
  const s = Math.round(seconds)
  if (s < 60) return `${s}s`
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`
  return `${Math.floor(s / 3600)}h${String(Math.floor(s % 3600 / 60)).padStart(2, '0')}m`
}
