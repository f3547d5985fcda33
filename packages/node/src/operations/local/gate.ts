/**
 * A readers–writer gate: any number of `shared` calls run together; an `exclusive` call waits for
 * them to finish and holds off new ones until it is done. The local operations use it so that
 * `reindex`, which closes and reopens the node, never pulls the node from under a running request.
 * Writers go first: once one waits, new readers queue behind it, so a busy API cannot starve it.
 */
export class ReadWriteGate {
  private readers = 0
  private writer: Promise<void> | null = null
  private drained: (() => void) | null = null

  async shared<T> (fn: () => Promise<T>): Promise<T> {
    while (this.writer !== null) await this.writer
    this.readers++
    try {
      return await fn()
    } finally {
      this.readers--
      if (this.readers === 0) this.drained?.()
    }
  }

  async exclusive<T> (fn: () => Promise<T>): Promise<T> {
    while (this.writer !== null) await this.writer
    // From the loop's end to here nothing awaits, so no other writer slips in between.
    let release: () => void = () => {}
    this.writer = new Promise<void>((resolve) => { release = resolve })
    try {
      while (this.readers > 0) await new Promise<void>((resolve) => { this.drained = resolve })
      this.drained = null
      return await fn()
    } finally {
      this.writer = null
      release()
    }
  }
}
