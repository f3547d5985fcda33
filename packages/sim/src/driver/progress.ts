import { performance } from 'node:perf_hooks'

/*
 * Progress of a simulation on stderr (docs/simulation.md, "Output"): every line says which run of
 * how many it belongs to and what that run varies ("run 2 of 3 · sybil 20% · seed 2"), the phase,
 * and, once the activity has started, how much of the whole simulation is done and an estimate of
 * the time left. The estimate extrapolates the wall time spent so far over the share of work done,
 * each run counting as one equal share (runs of a sweep differ in size, so it is rough at first and
 * settles as runs finish).
 */

export interface RunLabel {
  /** Sybil nodes of this run and the run's node count (for the share). */
  sybils?: number
  nodes?: number
  seed?: number
  /** false: a baseline run without the witness checks (the line says so). */
  checks?: boolean
}

export class SimProgress {
  private run = 0
  private label = ''
  /** Share of the current run done, 0–1. */
  private within = 0
  private readonly started: number

  constructor (
    private readonly sink: (line: string) => void,
    private readonly runs: number,
    private readonly clock: () => number = () => performance.now()
  ) {
    this.started = clock()
  }

  /** A new run begins (1-based `index`). */
  startRun (index: number, label: RunLabel = {}): void {
    this.run = index
    this.within = 0
    const parts = [`run ${index} of ${this.runs}`]
    if (label.sybils !== undefined) {
      const share = label.nodes === undefined || label.nodes === 0 ? '' : ` (${Math.round(label.sybils / label.nodes * 100)}%)`
      parts.push(`sybil ${label.sybils}${share}`)
    }
    if (label.seed !== undefined) parts.push(`seed ${label.seed}`)
    if (label.checks === false) parts.push('no checks')
    this.label = parts.join(' · ')
  }

  /** How far the current run is, 0–1 (the driver: simulated minutes played over the duration). */
  advance (share: number): void {
    this.within = Math.min(1, Math.max(0, share))
  }

  /** Share of the whole simulation done, 0–1. */
  get done (): number {
    if (this.runs === 0) return 1
    return Math.min(1, (Math.max(0, this.run - 1) + this.within) / this.runs)
  }

  /** Seconds left by extrapolation, or null before anything measurable is done. */
  etaSeconds (): number | null {
    const done = this.done
    if (done <= 0) return null
    const elapsed = (this.clock() - this.started) / 1000
    return Math.max(0, elapsed * (1 - done) / done)
  }

  /** One line of progress for the current run and phase. */
  line (text: string): void {
    const eta = this.etaSeconds()
    const tail = eta === null ? '' : ` · ${Math.floor(this.done * 100)}% done, ETA ${formatDuration(eta)}`
    this.sink(`${this.label === '' ? '' : `${this.label} · `}${text}${tail}`)
  }
}

/** 75 → "1m15s", 3725 → "1h02m", 8 → "8s". */
export function formatDuration (seconds: number): string {
  const s = Math.round(seconds)
  if (s < 60) return `${s}s`
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`
  return `${Math.floor(s / 3600)}h${String(Math.floor(s % 3600 / 60)).padStart(2, '0')}m`
}
