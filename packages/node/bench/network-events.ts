import { performance } from 'node:perf_hooks'

/*
 * The daemon's event stream (GET /v1/events, server-sent events) as an agent follows it: the
 * witness benchmark's clock stops when A's stream reports the attestations, which the daemon emits
 * only once they are verified, journaled and stored.
 */

interface Waiter {
  memory: string
  count: number
  witnesses: Set<string>
  times: number[]
  resolve: (times: number[]) => void
}

/** One `attestation` event: what the daemon's publisher emits (src/daemon/publisher.ts). */
interface AttestationEvent {
  memory?: string
  witness?: string
}

export class AttestationStream {
  private readonly waiters = new Set<Waiter>()
  private buffer = ''

  private constructor (private readonly controller: AbortController) {}

  /** Subscribes; resolves once the server's opening comment says the subscription is live. */
  static async open (baseUrl: string, token: string): Promise<AttestationStream> {
    const controller = new AbortController()
    const response = await fetch(`${baseUrl}/v1/events`, {
      headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
      signal: controller.signal
    })
    if (!response.ok || response.body === null) throw new Error(`event stream refused: HTTP ${response.status}`)
    const stream = new AttestationStream(controller)
    const reader = response.body.getReader()
    const decoder = new TextDecoder()
    let live: () => void = () => {}
    const opened = new Promise<void>((resolve) => { live = resolve })
    void (async () => {
      for (;;) {
        const chunk = await reader.read()
        if (chunk.done) return
        const at = performance.now()
        stream.buffer += decoder.decode(chunk.value, { stream: true })
        live()
        stream.drain(at)
      }
    })().catch(() => {}) // aborted by close()
    await opened
    return stream
  }

  /**
   * Resolves with the arrival times (performance.now()) of the first `count` attestations of
   * `memory` by distinct witnesses; rejects after `timeoutMs`. Register before the request goes out.
   */
  async waitFor (memory: string, count: number, timeoutMs: number): Promise<number[]> {
    let waiter: Waiter | undefined
    let timer: NodeJS.Timeout | undefined
    try {
      return await new Promise<number[]>((resolve, reject) => {
        waiter = { memory, count, witnesses: new Set(), times: [], resolve }
        this.waiters.add(waiter)
        timer = setTimeout(() => { reject(new Error(`${waiter?.times.length ?? 0} of ${count} attestations of ${memory} within ${timeoutMs} ms`)) }, timeoutMs)
      })
    } finally {
      clearTimeout(timer)
      if (waiter !== undefined) this.waiters.delete(waiter)
    }
  }

  close (): void {
    this.controller.abort()
  }

  private drain (at: number): void {
    for (let end = this.buffer.indexOf('\n\n'); end >= 0; end = this.buffer.indexOf('\n\n')) {
      const block = this.buffer.slice(0, end)
      this.buffer = this.buffer.slice(end + 2)
      let event = 'message'
      const data: string[] = []
      for (const line of block.split('\n')) {
        if (line.startsWith('event:')) event = line.slice(6).trim()
        else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''))
      }
      if (event === 'attestation' && data.length > 0) this.deliver(JSON.parse(data.join('\n')) as AttestationEvent, at)
    }
  }

  private deliver (attestation: AttestationEvent, at: number): void {
    for (const waiter of this.waiters) {
      if (attestation.memory !== waiter.memory || attestation.witness === undefined || waiter.witnesses.has(attestation.witness)) continue
      waiter.witnesses.add(attestation.witness)
      waiter.times.push(at)
      if (waiter.times.length === waiter.count) waiter.resolve(waiter.times)
    }
  }
}
