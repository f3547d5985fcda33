/*
 * The model engine's scheduler: a binary min-heap of events on virtual time (ms), stored as parallel
 * typed arrays rather than objects or closures, so a million pending events cost 33 bytes each and
 * no garbage. An event is a kind code and two integer arguments; ties in time are broken by the order
 * of scheduling (a sequence number), so a run is a pure function of its inputs.
 */

export interface ScheduledEvent {
  time: number
  kind: number
  a: number
  b: number
}

const INITIAL_CAPACITY = 1024

export class EventQueue {
  private times = new Float64Array(INITIAL_CAPACITY)
  private seqs = new Float64Array(INITIAL_CAPACITY)
  private kinds = new Uint8Array(INITIAL_CAPACITY)
  private as = new Int32Array(INITIAL_CAPACITY)
  private bs = new Int32Array(INITIAL_CAPACITY)
  private count = 0
  private nextSeq = 0
  /** Events taken off the queue so far. */
  processed = 0

  get size (): number {
    return this.count
  }

  push (time: number, kind: number, a = 0, b = 0): void {
    if (!Number.isFinite(time)) throw new RangeError(`event time ${time} is not finite`)
    if (this.count === this.times.length) this.grow()
    let i = this.count++
    const seq = this.nextSeq++
    // Sift up: move parents down until the slot for the new event is found.
    while (i > 0) {
      const parent = (i - 1) >> 1
      if (this.slotBefore(parent, time, seq)) break
      this.move(parent, i)
      i = parent
    }
    this.set(i, time, seq, kind, a, b)
  }

  /** The earliest event, removed; undefined when the queue is empty. `into` is reused when given. */
  pop (into: ScheduledEvent = { time: 0, kind: 0, a: 0, b: 0 }): ScheduledEvent | undefined {
    if (this.count === 0) return undefined
    into.time = this.times[0] as number
    into.kind = this.kinds[0] as number
    into.a = this.as[0] as number
    into.b = this.bs[0] as number
    this.processed++
    const last = --this.count
    if (last > 0) {
      const time = this.times[last] as number
      const seq = this.seqs[last] as number
      const kind = this.kinds[last] as number
      const a = this.as[last] as number
      const b = this.bs[last] as number
      let i = 0
      // Sift down the former last event from the root.
      for (;;) {
        const left = 2 * i + 1
        if (left >= last) break
        const right = left + 1
        const child = right < last && this.slotBefore(right, this.times[left] as number, this.seqs[left] as number) ? right : left
        if (!this.slotBefore(child, time, seq)) break
        this.move(child, i)
        i = child
      }
      this.set(i, time, seq, kind, a, b)
    }
    return into
  }

  /** Whether the event in `slot` comes before (time, seq). */
  private slotBefore (slot: number, time: number, seq: number): boolean {
    const t = this.times[slot] as number
    return t < time || (t === time && (this.seqs[slot] as number) < seq)
  }

  private move (from: number, to: number): void {
    this.times[to] = this.times[from] as number
    this.seqs[to] = this.seqs[from] as number
    this.kinds[to] = this.kinds[from] as number
    this.as[to] = this.as[from] as number
    this.bs[to] = this.bs[from] as number
  }

  private set (i: number, time: number, seq: number, kind: number, a: number, b: number): void {
    this.times[i] = time
    this.seqs[i] = seq
    this.kinds[i] = kind
    this.as[i] = a
    this.bs[i] = b
  }

  private grow (): void {
    const capacity = this.times.length * 2
    const grown = <T extends Float64Array | Uint8Array | Int32Array>(array: T, make: new (n: number) => T): T => {
      const next = new make(capacity)
      next.set(array)
      return next
    }
    this.times = grown(this.times, Float64Array)
    this.seqs = grown(this.seqs, Float64Array)
    this.kinds = grown(this.kinds, Uint8Array)
    this.as = grown(this.as, Int32Array)
    this.bs = grown(this.bs, Int32Array)
  }
}
