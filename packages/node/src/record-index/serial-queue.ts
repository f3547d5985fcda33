/** Serialises writes: read-modify-write of trust and counters must not interleave. */
export class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve()

  run<T> (task: () => Promise<T>): Promise<T> {
    const result = this.tail.then(task)
    this.tail = result.catch(() => undefined)
    return result
  }

  /** Resolves once every queued write has settled. */
  async drain (): Promise<void> {
    await this.tail
  }
}
