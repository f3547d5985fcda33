/** One server-sent event as a client sees it. */
export interface ReceivedEvent {
  event: string
  id: string
  data: unknown
}

/**
 * A minimal SSE reader over fetch: `next(timeoutMs)` resolves with the next event (comments are
 * skipped), `close` aborts the connection.
 */
export class SseReader {
  private buffer = ''
  private readonly decoder = new TextDecoder()
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>

  private constructor (response: Response, private readonly controller: AbortController) {
    if (response.body === null) throw new Error('event stream without a body')
    this.reader = response.body.getReader()
  }

  static async open (url: string, token: string, lastEventId?: string): Promise<{ reader: SseReader, response: Response }> {
    const controller = new AbortController()
    const headers: Record<string, string> = { authorization: `Bearer ${token}`, accept: 'text/event-stream' }
    if (lastEventId !== undefined) headers['last-event-id'] = lastEventId
    const response = await fetch(url, { headers, signal: controller.signal })
    const reader = new SseReader(response, controller)
    // The server's first comment says the subscription is live: events emitted from now on arrive.
    await reader.readUntil(() => reader.buffer.includes('\n\n'), 5000)
    reader.buffer = reader.buffer.slice(reader.buffer.indexOf('\n\n') + 2)
    return { reader, response }
  }

  async next (timeoutMs = 5000): Promise<ReceivedEvent> {
    for (;;) {
      await this.readUntil(() => this.buffer.includes('\n\n'), timeoutMs)
      const end = this.buffer.indexOf('\n\n')
      const block = this.buffer.slice(0, end)
      this.buffer = this.buffer.slice(end + 2)
      const fields = new Map<string, string[]>()
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) continue
        const colon = line.indexOf(':')
        const name = line.slice(0, colon)
        fields.set(name, [...fields.get(name) ?? [], line.slice(colon + 1).replace(/^ /, '')])
      }
      if (!fields.has('data')) continue
      return { event: fields.get('event')?.[0] ?? 'message', id: fields.get('id')?.[0] ?? '', data: JSON.parse((fields.get('data') ?? []).join('\n')) }
    }
  }

  close (): void {
    this.controller.abort()
  }

  private async readUntil (done: () => boolean, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs
    while (!done()) {
      const left = deadline - Date.now()
      if (left <= 0) throw new Error('timed out waiting for a server-sent event')
      let timer: NodeJS.Timeout | undefined
      const chunk = await Promise.race([
        this.reader.read(),
        new Promise<never>((_resolve, reject) => { timer = setTimeout(() => { reject(new Error('timed out waiting for a server-sent event')) }, left) })
      ]).finally(() => { clearTimeout(timer) })
      if (chunk.done) throw new Error('event stream ended')
      this.buffer += this.decoder.decode(chunk.value, { stream: true })
    }
  }
}
